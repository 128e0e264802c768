/**
 * The built-in table of `@syclts/dsl` (builtins/table.ts) as the compiler reads it: each
 * overload parsed once into patterns, and overload resolution over concrete argument types, in
 * the shape of Tint's intrinsic table. Resolution allocates nothing but a result type that no
 * argument already is; a call that matches no overload is described with every overload, as
 * Tint does (`noOverload` in diagnostics/frontend-messages.ts).
 */
import {
  BUILTIN_TABLE,
  type BuiltinEntry,
  type BuiltinName,
  type DataType,
  type MatrixDim,
  type ScalarName,
  type VectorSize,
} from '@syclts/dsl';

/** One type of an overload's notation. */
type Pattern =
  | { readonly kind: 'T' | 'S' }
  | { readonly kind: 'vector'; readonly size: VectorSize | 'N'; readonly of: 'T' | ScalarName }
  | { readonly kind: 'scalar'; readonly scalar: ScalarName }
  | { readonly kind: 'matrix'; readonly columns: 'C' | 'R' | 'N'; readonly rows: 'C' | 'R' | 'N' };

interface Overload {
  readonly text: string;
  readonly params: readonly Pattern[];
  readonly result: Pattern;
}

export interface Builtin {
  /** The table's name (the DSL's export). */
  readonly name: BuiltinName;
  readonly entry: BuiltinEntry;
  /** The WGSL function (or helper stem) the IR names. */
  readonly wgsl: string;
  readonly overloads: readonly Overload[];
  /** Positions whose type is T: an abstract literal there takes T's type. */
  readonly unified: readonly number[];
  /** T when every unified argument is an abstract literal: f32 unless T can be an integer. */
  readonly defaultScalar: 'f32' | 'i32';
  /** Each position's concrete scalar type when every overload gives it one (`u32` of clz32). */
  readonly concrete: readonly (ScalarName | null)[];
  readonly arity: number;
  readonly typeSets: { readonly T: readonly ScalarName[]; readonly S: readonly ScalarName[] };
}

const SCALARS: ReadonlySet<string> = new Set(['bool', 'i32', 'u32', 'f32', 'f16']);

function pattern(token: string, overload: string): Pattern {
  if (token === 'T' || token === 'S') return { kind: token };
  if (SCALARS.has(token)) return { kind: 'scalar', scalar: token as ScalarName };
  const vector = /^vec([N234])<(T|bool|f32|f16|i32|u32)>$/.exec(token);
  if (vector) {
    const size = vector[1] === 'N' ? 'N' : (Number(vector[1]) as VectorSize);
    return { kind: 'vector', size, of: vector[2] as 'T' | ScalarName };
  }
  const matrix = /^mat([CRN])x([CRN])<f32>$/.exec(token);
  if (matrix) {
    return {
      kind: 'matrix',
      columns: matrix[1] as 'C' | 'R' | 'N',
      rows: matrix[2] as 'C' | 'R' | 'N',
    };
  }
  throw new Error(`built-in table: '${token}' in '${overload}' is not a type of the notation`);
}

function parse(text: string): Overload {
  const m = /^\((.*)\) -> (.+)$/.exec(text);
  if (!m) throw new Error(`built-in table: '${text}' is not an overload`);
  return {
    text,
    params: m[1]!.split(', ').map((t) => pattern(t, text)),
    result: pattern(m[2]!, text),
  };
}

const setOf = (s: string | undefined): ScalarName[] =>
  s ? s.split('|').map((x) => x as ScalarName) : [];

function compile(name: BuiltinName, entry: BuiltinEntry): Builtin {
  const overloads = entry.overloads.map(parse);
  const arity = overloads[0]!.params.length;
  const T = setOf(entry.T);
  const usesT = (p: Pattern) => p.kind === 'T' || (p.kind === 'vector' && p.of === 'T');
  const unified = overloads[0]!.params.flatMap((p, i) => (usesT(p) ? [i] : []));
  const concrete = overloads[0]!.params.map((_, i) => {
    const p = overloads[0]!.params[i]!;
    const same = overloads.every((o) => {
      const q = o.params[i]!;
      return q.kind === 'scalar' && p.kind === 'scalar' && q.scalar === p.scalar;
    });
    return same && p.kind === 'scalar' ? p.scalar : null;
  });
  return {
    name,
    entry,
    wgsl: entry.wgsl ?? name,
    overloads,
    unified,
    defaultScalar: T.some((s) => s === 'i32' || s === 'u32') ? 'i32' : 'f32',
    concrete,
    arity,
    typeSets: { T, S: setOf(entry.S) },
  };
}

/** Every built-in of the table, by its name (the DSL's export). */
export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(
  (Object.entries(BUILTIN_TABLE) as [BuiltinName, BuiltinEntry][]).map(([name, entry]) => [
    name,
    compile(name, entry),
  ]),
);

/**
 * The built-in an IR `builtin` node names (by its WGSL name or helper stem; where two entries
 * call one WGSL function, `Math.clz32` and `countLeadingZeros`, the first).
 */
export const BUILTINS_BY_WGSL: ReadonlyMap<string, Builtin> = new Map(
  [...BUILTINS.values()].reverse().map((b) => [b.wgsl, b]),
);

/** `Math.x` → the built-in it means. */
export const MATH_BUILTINS: ReadonlyMap<string, Builtin> = new Map(
  [...BUILTINS.values()].flatMap((b) => (b.entry.math ? [[b.entry.math, b]] : [])),
);

/** The built-ins printed as a helper function, by the name the IR gives them. */
export const HELPER_BUILTINS: ReadonlyMap<string, Builtin> = new Map(
  [...BUILTINS.values()].flatMap((b) => (b.entry.helper ? [[b.wgsl, b]] : [])),
);

/** The WGSL built-in functions the table calls (helpers excluded). */
export const WGSL_BUILTIN_NAMES: readonly string[] = [
  ...new Set(
    [...BUILTINS.values()].filter((b) => !b.entry.helper).map((b) => b.wgsl.replace(/<.*/, '')),
  ),
];

/** Type variables bound while matching one overload (reused: matching allocates nothing). */
const bound = {
  T: null as ScalarName | null,
  S: null as ScalarName | null,
  N: 0,
  C: 0,
  R: 0,
};

function bindSize(key: 'N' | 'C' | 'R', size: number): boolean {
  if (bound[key] === 0) bound[key] = size;
  return bound[key] === size;
}

function bindScalar(b: Builtin, key: 'T' | 'S', s: ScalarName): boolean {
  if (bound[key] === null) {
    if (!b.typeSets[key].includes(s)) return false;
    bound[key] = s;
  }
  return bound[key] === s;
}

function matches(b: Builtin, p: Pattern, t: DataType): boolean {
  switch (p.kind) {
    case 'T':
    case 'S':
      return t.kind === 'scalar' && bindScalar(b, p.kind, t.scalar);
    case 'scalar':
      return t.kind === 'scalar' && t.scalar === p.scalar;
    case 'vector':
      if (t.kind !== 'vector') return false;
      if (p.size === 'N' ? !bindSize('N', t.size) : t.size !== p.size) return false;
      return p.of === 'T' ? bindScalar(b, 'T', t.component) : t.component === p.of;
    case 'matrix':
      if (t.kind !== 'matrix') return false;
      return bindSize(p.columns, t.columns) && bindSize(p.rows, t.rows);
  }
}

/** The result type of the bound overload: an argument's type when it is the same. */
function resultOf(o: Overload, args: readonly DataType[]): DataType {
  const r = o.result;
  const same = o.params.findIndex((p) => samePattern(p, r));
  if (same >= 0) return args[same]!;
  switch (r.kind) {
    case 'T':
    case 'S':
      return { kind: 'scalar', scalar: bound[r.kind]! };
    case 'scalar':
      return { kind: 'scalar', scalar: r.scalar };
    case 'vector':
      return {
        kind: 'vector',
        component: r.of === 'T' ? bound.T! : r.of,
        size: (r.size === 'N' ? bound.N : r.size) as VectorSize,
      };
    case 'matrix':
      return {
        kind: 'matrix',
        component: 'f32',
        columns: bound[r.columns] as MatrixDim,
        rows: bound[r.rows] as MatrixDim,
      };
  }
}

function samePattern(a: Pattern, b: Pattern): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'vector' && b.kind === 'vector') return a.size === b.size && a.of === b.of;
  if (a.kind === 'scalar' && b.kind === 'scalar') return a.scalar === b.scalar;
  if (a.kind === 'matrix' && b.kind === 'matrix') {
    return a.columns === b.columns && a.rows === b.rows;
  }
  return true;
}

/** The result type of `b` called with arguments of types `args`, or null when none matches. */
export function resolveOverload(b: Builtin, args: readonly DataType[]): DataType | null {
  for (const o of b.overloads) {
    if (o.params.length !== args.length) continue;
    bound.T = null;
    bound.S = null;
    bound.N = 0;
    bound.C = 0;
    bound.R = 0;
    let ok = true;
    for (let i = 0; ok && i < args.length; i++) ok = matches(b, o.params[i]!, args[i]!);
    if (ok) return resultOf(o, args);
  }
  return null;
}
