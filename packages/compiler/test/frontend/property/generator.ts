/**
 * Random well-typed device code for the property test: expression trees over i32, u32, f32,
 * bool and vectors of the numeric scalars, wrapped in small statement sequences (let, if/else,
 * for, while with break/continue, compound assignment, ++). Each case is printed as TypeScript
 * device code and evaluated here with WGSL semantics: i32/u32 wrap around, integer division
 * and remainder by zero give e1 / 0 (and the i32 overflow case e1 / 0), shift amounts are
 * masked to 5 bits, float operations round to f32 after every step.
 */

export type Scalar = 'i32' | 'u32' | 'f32' | 'bool';
export type Type = { readonly s: Scalar; readonly n: 1 | 2 | 3 | 4 };
export type Value = readonly number[];

/** Evaluation result with the largest magnitude seen, which bounds float rounding differences. */
interface Eval {
  readonly v: Value;
  readonly mag: number;
  /**
   * A bound on how far its f32 components lie from the exact real result (first-order error
   * analysis, one ULP per rounding, 2.5 for a division): 0 where every step was exact. A GPU's
   * value lies as close to the exact one, by another order of roundings (WGSL lets it fuse a
   * multiply and an add, and reassociate).
   */
  readonly err: number;
}

/**
 * What one evaluation of a case noticed: whether a step turned a rounded f32 into a jump (a
 * comparison of near-equal values, a truncation near an integer), so that a GPU may take the
 * other side; and which variables hold rounded f32s.
 */
export interface Notes {
  fragile: boolean;
  /** The error bound of each variable that holds a rounded f32. */
  readonly errs: Map<string, number>;
}

export interface Env {
  readonly vars: ReadonlyMap<string, Value>;
  readonly notes: Notes;
}

/**
 * How far apart two f32 results computed another way may lie: 2^-16 of the largest magnitude
 * met, or four times the result's error bound where that is more (a transcendental's accuracy).
 */
export const tolerance = (mag: number, err = 0) => Math.max(2 ** -16 * Math.max(1, mag), 4 * err);

/** The spacing of f32 values at `x`. */
function ulp(x: number): number {
  const a = Math.abs(x);
  return a < 2 ** -126 ? 2 ** -149 : 2 ** (Math.floor(Math.log2(a)) - 23);
}

/** The rounding error of an f32 step whose result `r` rounds `exact` (0 when it is exact). */
const rounding = (r: number, exact: number) => (r === exact ? 0 : ulp(r));

/** The error bound of an f32 `p op q` = `r`, from its operands' bounds. */
function stepError(op: string, r: number, p: number, q: number, ep: number, eq: number): number {
  if (op === '*') return Math.abs(p) * eq + Math.abs(q) * ep + ep * eq + rounding(r, p * q);
  return ep + eq + rounding(r, op === '+' ? p + q : p - q);
}

/**
 * Marks the evaluation fragile where a rounded value `x` (error bound `err`) lies so near a
 * jump at `at` that a GPU's value, as close to the exact one, may lie on its other side.
 */
function near(env: Env, err: number, x: number, at: number): void {
  if (err > 0 && Math.abs(x - at) <= 4 * err) env.notes.fragile = true;
}

export interface Expr {
  readonly type: Type;
  readonly text: string;
  /** True when the text is a bare literal (abstract in WGSL terms). */
  readonly literal: boolean;
  eval(env: Env): Eval;
}

const fr = Math.fround;
const wrapI = (x: number) => x | 0;
const wrapU = (x: number) => x >>> 0;
const INT_MIN = -(2 ** 31);

export const T = (s: Scalar, n: 1 | 2 | 3 | 4 = 1): Type => ({ s, n });
const same = (a: Type, b: Type) => a.s === b.s && a.n === b.n;
const vecName = (t: Type) =>
  `vec${t.n}${t.s === 'f32' ? 'f' : t.s === 'i32' ? 'i' : t.s === 'u32' ? 'u' : 'b'}`;

function norm(s: Scalar, x: number): number {
  if (s === 'i32') return wrapI(x);
  if (s === 'u32') return wrapU(x);
  if (s === 'f32') return fr(x);
  return x ? 1 : 0;
}

function idiv(s: Scalar, a: number, b: number): number {
  if (b === 0) return a;
  if (s === 'i32' && a === INT_MIN && b === -1) return a;
  return norm(s, Math.trunc(a / b));
}
function irem(s: Scalar, a: number, b: number): number {
  if (b === 0) return 0;
  if (s === 'i32' && a === INT_MIN && b === -1) return 0;
  return norm(s, a % b);
}

function arith(op: string, s: Scalar, a: number, b: number): number {
  switch (op) {
    case '+':
      return norm(s, a + b);
    case '-':
      return norm(s, a - b);
    case '*':
      return s === 'f32' ? fr(a * b) : norm(s, Math.imul(a, b));
    case '/':
      return s === 'f32' ? fr(a / b) : idiv(s, a, b);
    case '%':
      return irem(s, a, b);
    case '&':
      return norm(s, a & b);
    case '|':
      return norm(s, a | b);
    case '^':
      return norm(s, a ^ b);
    case '<<':
      return norm(s, a << (b & 31));
    case '>>':
      return s === 'u32' ? wrapU(a >>> (b & 31)) : a >> (b & 31);
    default:
      throw new Error(op);
  }
}

function compare(op: string, a: number, b: number): number {
  switch (op) {
    case '<':
      return +(a < b);
    case '<=':
      return +(a <= b);
    case '>':
      return +(a > b);
    case '>=':
      return +(a >= b);
    case '===':
      return +(a === b);
    default:
      return +(a !== b);
  }
}

const magOf = (v: Value) => v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/** WGSL's `round`: halves to the even neighbour. */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  return d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
}

/**
 * The transcendental functions generated: the argument (`positive`: |e| + 1; a number k:
 * k·e/(|e| + 1), inside (-k, k)), the function, WGSL's stated accuracy for f32 (absolute), and
 * a bound on its slope near x.
 */
const TRANSCENDENTALS: Readonly<
  Record<
    string,
    {
      readonly argument: 'positive' | number;
      readonly f: (x: number) => number;
      readonly accuracy: (x: number, r: number) => number;
      readonly slope: (x: number, r: number) => number;
    }
  >
> = {
  'Math.sin': { argument: 3, f: Math.sin, accuracy: () => 2 ** -11, slope: () => 1 },
  'Math.cos': { argument: 3, f: Math.cos, accuracy: () => 2 ** -11, slope: () => 1 },
  'Math.exp': {
    argument: 4,
    f: Math.exp,
    accuracy: (x, r) => (3 + 2 * Math.abs(x)) * ulp(r),
    slope: (_, r) => 1.01 * Math.abs(r),
  },
  'Math.log': {
    argument: 'positive',
    f: Math.log,
    accuracy: (x, r) => (x >= 0.5 && x <= 2 ? 2 ** -21 : 3 * ulp(r)),
    slope: (x) => 1 / x,
  },
  // WGSL: 1 / inverseSqrt(x), 2 ULP and then 2.5.
  'Math.sqrt': {
    argument: 'positive',
    f: Math.sqrt,
    accuracy: (_, r) => 5 * ulp(r),
    slope: (x) => 0.5 / Math.sqrt(x),
  },
  'Math.atan': { argument: 4, f: Math.atan, accuracy: (_, r) => 4096 * ulp(r), slope: () => 1 },
};

/** Where the step functions of f32 jump, nearest x. */
const halfway = (x: number) => Math.floor(x) + 0.5;
const JUMPS: Readonly<Record<string, ((x: number) => number) | undefined>> = {
  'Math.floor': Math.round,
  'Math.ceil': Math.round,
  'Math.trunc': Math.round,
  'Math.round': halfway,
  round: halfway,
  'Math.sign': () => 0,
};

const BIT_BUILTINS = [
  'countOneBits',
  'reverseBits',
  'countLeadingZeros',
  'countTrailingZeros',
  'firstLeadingBit',
  'firstTrailingBit',
] as const;

/** A bit built-in (or Math.sign, Math.clz32) of a 32-bit integer, before wrapping to `s`. */
function intBuiltin(fn: string, s: 'i32' | 'u32', x: number): number {
  const trailing = (v: number) => 31 - Math.clz32(v & -v);
  switch (fn) {
    case 'countOneBits': {
      let n = 0;
      for (let v = x >>> 0; v !== 0; v = (v & (v - 1)) >>> 0) n++;
      return n;
    }
    case 'reverseBits': {
      let r = 0;
      for (let i = 0; i < 32; i++) r = (r << 1) | ((x >>> i) & 1);
      return r;
    }
    case 'countLeadingZeros':
    case 'Math.clz32':
      return Math.clz32(x);
    case 'countTrailingZeros':
      return x === 0 ? 32 : trailing(x);
    case 'firstTrailingBit':
      return x === 0 ? -1 : trailing(x);
    case 'firstLeadingBit': {
      // Signed: the highest bit that differs from the sign bit.
      const v = s === 'i32' && x < 0 ? ~x : x;
      return v === 0 ? -1 : 31 - Math.clz32(v);
    }
    default:
      return Math.sign(x);
  }
}

/** The DSL names generated code uses, for the import line of a module that holds it. */
export const GENERATED_NAMES = [
  'add',
  'all',
  'any',
  'bitcastU32',
  'clamp',
  ...BIT_BUILTINS,
  'eq',
  'f32',
  'ge',
  'gt',
  'i32',
  'le',
  'lt',
  'mul',
  'ne',
  'pack4xI8',
  'pack4xI8Clamp',
  'pack4xU8',
  'pack4xU8Clamp',
  'round',
  'saturate',
  'select',
  'sub',
  'u32',
  'unpack4xI8',
  'unpack4xU8',
  'unroll',
  'vec2b',
  'vec2f',
  'vec2i',
  'vec2u',
  'vec3b',
  'vec3f',
  'vec3i',
  'vec3u',
  'vec4b',
  'vec4f',
  'vec4i',
  'vec4u',
] as const;

/** The inputs generated code reads: a0..a3 (i32), b0..b3 (u32), c0..c3 (f32), p0, p1 (bool). */
export const INPUTS: ReadonlyMap<string, Type> = new Map<string, Type>([
  ...[0, 1, 2, 3].map((i): [string, Type] => [`a${i}`, T('i32')]),
  ...[0, 1, 2, 3].map((i): [string, Type] => [`b${i}`, T('u32')]),
  ...[0, 1, 2, 3].map((i): [string, Type] => [`c${i}`, T('f32')]),
  ...[0, 1].map((i): [string, Type] => [`p${i}`, T('bool')]),
]);

/** `import { ... } from '@syclts/dsl';` for generated code and the names in `extra`. */
export function dslImport(...extra: readonly string[]): string {
  const names = [...new Set([...GENERATED_NAMES, ...extra])].sort();
  return `import { ${names.join(', ')} } from '@syclts/dsl';`;
}

/** A small deterministic random source, seeded by fast-check. */
export class Rand {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    this.s ^= this.s << 13;
    this.s ^= this.s >>> 17;
    this.s ^= this.s << 5;
    return (this.s >>> 0) / 2 ** 32;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<X>(xs: readonly X[]): X {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export class Generator {
  /** Variables in scope, by name, with their types. */
  private readonly scope = new Map<string, Type>();
  /** Whether an f32 expression was generated. */
  usesFloat = false;

  constructor(
    private readonly r: Rand,
    inputs: ReadonlyMap<string, Type>,
  ) {
    for (const [k, t] of inputs) this.scope.set(k, t);
  }

  withVar<X>(name: string, type: Type, fn: () => X): X {
    this.scope.set(name, type);
    try {
      return fn();
    } finally {
      this.scope.delete(name);
    }
  }

  private varOf(type: Type): Expr | null {
    const names = [...this.scope].filter(([, t]) => same(t, type)).map(([n]) => n);
    if (names.length === 0) return null;
    const name = this.r.pick(names);
    return {
      type,
      text: name,
      literal: false,
      eval: (env) => ({
        v: env.vars.get(name)!,
        mag: magOf(env.vars.get(name)!),
        err: env.notes.errs.get(name) ?? 0,
      }),
    };
  }

  private literal(s: Scalar): Expr {
    if (s === 'f32') this.usesFloat = true;
    const r = this.r;
    const value =
      s === 'i32'
        ? r.pick([0, 1, 2, 3, 7, -1, -5, 100, -2147483648, 2147483647, 65535])
        : s === 'u32'
          ? r.pick([0, 1, 2, 3, 31, 255, 4294967295, 2147483648, 12345])
          : s === 'f32'
            ? r.pick([0.5, 1, 2, -1.5, 0.25, 3, -4, 10])
            : r.pick([0, 1]);
    const text = s === 'bool' ? (value ? 'true' : 'false') : String(value);
    return {
      type: T(s),
      text,
      literal: true,
      eval: () => ({ v: [value], mag: Math.abs(value), err: 0 }),
    };
  }

  /** A typed literal that is never abstract (safe anywhere). */
  private typedLiteral(s: Scalar): Expr {
    const lit = this.literal(s);
    if (s === 'bool') return lit;
    return { ...lit, text: `${s}(${lit.text})`, literal: false };
  }

  expr(type: Type, depth: number): Expr {
    if (type.s === 'f32') this.usesFloat = true;
    if (depth <= 0 || this.r.chance(0.15)) {
      return (
        this.varOf(type) ?? (type.n === 1 ? this.typedLiteral(type.s) : this.construct(type, 0))
      );
    }
    if (type.n > 1) return this.vectorExpr(type, depth);
    switch (type.s) {
      case 'bool':
        return this.boolExpr(depth);
      case 'f32':
        return this.floatExpr(depth);
      default:
        return this.intExpr(type.s, depth);
    }
  }

  /** `e` or a bare literal for the right-hand side of a binary operator (context types it). */
  private operand(type: Type, depth: number): Expr {
    return type.n === 1 && this.r.chance(0.3) ? this.literal(type.s) : this.expr(type, depth);
  }

  /**
   * `errorOf`: for an f32 result, a component's error bound from its operands and theirs (by
   * default stepError); a comparison of f32s notes near-equal rounded operands as fragile.
   */
  private binary(
    op: string,
    a: Expr,
    b: Expr,
    type: Type,
    f: (x: number, y: number) => number,
    text?: string,
    errorOf: (r: number, x: number, y: number, ex: number, ey: number) => number = (
      r,
      x,
      y,
      ex,
      ey,
    ) => stepError(op, r, x, y, ex, ey),
  ): Expr {
    const comparesFloats = a.type.s === 'f32' && type.s === 'bool';
    return {
      type,
      text: text ?? `(${a.text} ${op} ${b.text})`,
      literal: false,
      eval: (env) => {
        const x = a.eval(env);
        const y = b.eval(env);
        const n = type.n;
        let err = 0;
        const v = Array.from({ length: n }, (_, i) => {
          const [p, q] = [x.v[a.type.n === 1 ? 0 : i]!, y.v[b.type.n === 1 ? 0 : i]!];
          const r = f(p, q);
          if (comparesFloats) near(env, x.err + y.err, p, q);
          if (type.s === 'f32') err = Math.max(err, errorOf(r, p, q, x.err, y.err));
          return r;
        });
        return { v, mag: Math.max(x.mag, y.mag, magOf(v)), err };
      },
    };
  }

  /**
   * `jumpAt`: the function is a step function of an f32 argument (a truncation, a rounding, a
   * sign) whose result jumps at `jumpAt(x)`, the jump nearest x: a rounded argument near it
   * makes the evaluation fragile.
   */
  private call(
    fnText: string,
    args: Expr[],
    type: Type,
    f: (xs: number[]) => number,
    jumpAt?: (x: number) => number,
  ): Expr {
    return {
      type,
      text: `${fnText}(${args.map((a) => a.text).join(', ')})`,
      literal: false,
      eval: (env) => {
        const xs = args.map((a) => a.eval(env));
        // Past a truncation that did not jump, the value is the same integer everywhere.
        const err = jumpAt ? 0 : Math.max(...xs.map((x) => x.err));
        const v = Array.from({ length: type.n }, (_, i) => {
          const inputs = xs.map((x, j) => x.v[args[j]!.type.n === 1 ? 0 : i]!);
          if (jumpAt) near(env, xs[0]!.err, inputs[0]!, jumpAt(inputs[0]!));
          return f(inputs);
        });
        return { v, mag: Math.max(...xs.map((x) => x.mag), magOf(v)), err };
      },
    };
  }

  private intExpr(s: 'i32' | 'u32', depth: number): Expr {
    const t = T(s);
    const r = this.r;
    const kind = r.int(10);
    if (kind <= 2) {
      const op = r.pick(['+', '-', '*', '/', '%', '&', '|', '^']);
      // A constant zero divisor is a WGSL shader-creation error, so literals there are non-zero.
      let b = this.operand(t, depth - 1);
      while ((op === '/' || op === '%') && b.literal && b.text === '0')
        b = this.operand(t, depth - 1);
      return this.binary(op, this.expr(t, depth - 1), b, t, (x, y) => arith(op, s, x, y));
    }
    if (kind === 3) {
      const op = r.pick(['<<', '>>']);
      const a = this.expr(t, depth - 1);
      if (r.chance(0.5)) {
        const k = r.int(32);
        const jsOp = op === '>>' && s === 'u32' && r.chance(0.5) ? '>>>' : op;
        return this.binary(
          op,
          a,
          this.literal('u32'),
          t,
          (x) => arith(op, s, x, k),
          `(${a.text} ${jsOp} ${k})`,
        );
      }
      const b = this.expr(T('u32'), depth - 1);
      return this.binary(
        op,
        a,
        b,
        t,
        (x, y) => arith(op, s, x, y),
        `(${a.text} ${op} (${b.text} & 31))`,
      );
    }
    if (kind === 4) {
      const a = this.expr(t, depth - 1);
      if (s === 'i32' && r.chance(0.5))
        return { ...this.call('', [a], t, ([x]) => wrapI(-x!)), text: `(-${a.text})` };
      return { ...this.call('', [a], t, ([x]) => norm(s, ~x!)), text: `(~${a.text})` };
    }
    if (kind === 5) {
      const fn = r.pick(['Math.min', 'Math.max', 'Math.abs']);
      if (fn === 'Math.abs') {
        return this.call(fn, [this.expr(t, depth - 1)], t, ([x]) =>
          s === 'u32' ? x! : wrapI(Math.abs(x!)),
        );
      }
      const a = this.expr(t, depth - 1);
      const b = this.operand(t, depth - 1);
      return this.call(fn, [a, b], t, ([x, y]) =>
        fn === 'Math.min' ? Math.min(x!, y!) : Math.max(x!, y!),
      );
    }
    if (kind === 6) {
      const from = r.pick<Scalar>(s === 'i32' ? ['u32', 'f32', 'bool'] : ['i32', 'f32', 'bool']);
      const a = this.expr(T(from), depth - 1);
      return this.call(
        s,
        [a],
        t,
        ([x]) => {
          if (from === 'f32') {
            // WGSL clamps to the largest f32 values inside the integer range.
            const lo = s === 'i32' ? INT_MIN : 0;
            const hi = s === 'i32' ? 2 ** 31 - 128 : 2 ** 32 - 256;
            return Math.trunc(Math.min(hi, Math.max(lo, x!)));
          }
          return norm(s, x!);
        },
        from === 'f32' ? Math.round : undefined,
      );
    }
    if (kind === 7) return this.conditional(t, depth);
    if (kind === 8) {
      return s === 'u32' && r.chance(0.2) ? this.pack(depth) : this.integerBuiltin(s, depth);
    }
    const v = this.vectorExpr(T(s, r.pick([2, 3, 4] as const)), depth - 1);
    const c = r.int(v.type.n);
    return this.component(v, c);
  }

  /** pack4xI8 and its kin: a vec4i or vec4u's low bytes (clamped first), in a u32. */
  private pack(depth: number): Expr {
    const fn = this.r.pick(['pack4xI8', 'pack4xU8', 'pack4xI8Clamp', 'pack4xU8Clamp'] as const);
    const signed = fn.startsWith('pack4xI8');
    const v = this.vectorExpr(T(signed ? 'i32' : 'u32', 4), depth - 1);
    const [lo, hi] = fn.endsWith('Clamp')
      ? signed
        ? [-128, 127]
        : [0, 255]
      : [-Infinity, Infinity];
    return {
      type: T('u32'),
      text: `${fn}(${v.text})`,
      literal: false,
      eval: (env) => {
        const x = v.eval(env);
        const bytes = x.v.map((e) => Math.min(hi!, Math.max(lo!, e)) & 0xff);
        const w = wrapU(bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24));
        return { v: [w], mag: Math.max(x.mag, w), err: x.err };
      },
    };
  }

  /** unpack4xI8 or unpack4xU8: a u32's bytes, sign- or zero-extended. */
  private unpack(type: Type, depth: number): Expr {
    const signed = type.s === 'i32';
    const a = this.expr(T('u32'), depth - 1);
    return {
      type,
      text: `${signed ? 'unpack4xI8' : 'unpack4xU8'}(${a.text})`,
      literal: false,
      eval: (env) => {
        const x = a.eval(env);
        const v = [0, 8, 16, 24].map((k) =>
          signed ? (x.v[0]! << (24 - k)) >> 24 : (x.v[0]! >>> k) & 0xff,
        );
        return { v, mag: Math.max(x.mag, magOf(v)), err: x.err };
      },
    };
  }

  /** The table's integer built-ins: bit counts and searches, sign, clamp, Math.imul/clz32. */
  private integerBuiltin(s: 'i32' | 'u32', depth: number): Expr {
    const t = T(s);
    const fn = this.r.pick([
      ...BIT_BUILTINS,
      'clamp',
      s === 'i32' ? 'Math.sign' : 'Math.clz32',
      ...(s === 'i32' ? ['Math.imul'] : []),
    ]);
    if (fn === 'clamp') {
      // Bounds in order whatever they are, so constant ones never make WGSL refuse the call.
      const [a, b] = [this.expr(t, depth - 1), this.expr(t, depth - 1)];
      const lo = this.call('Math.min', [a, b], t, ([x, y]) => Math.min(x!, y!));
      const hi = this.call('Math.max', [a, b], t, ([x, y]) => Math.max(x!, y!));
      return this.call('clamp', [this.expr(t, depth - 1), lo, hi], t, ([x, l, h]) =>
        Math.min(Math.max(x!, l!), h!),
      );
    }
    if (fn === 'Math.imul') {
      const [a, b] = [this.expr(t, depth - 1), this.expr(t, depth - 1)];
      return this.call(fn, [a, b], t, ([x, y]) => Math.imul(x!, y!));
    }
    return this.call(fn, [this.expr(t, depth - 1)], t, ([x]) => norm(s, intBuiltin(fn, s, x!)));
  }

  private floatExpr(depth: number): Expr {
    const t = T('f32');
    const r = this.r;
    const kind = r.int(8);
    if (kind <= 2) {
      const op = r.pick(['+', '-', '*']);
      return this.binary(op, this.expr(t, depth - 1), this.operand(t, depth - 1), t, (x, y) =>
        arith(op, 'f32', x, y),
      );
    }
    if (kind === 3) return this.quotient(this.expr(t, depth - 1), this.expr(t, depth - 1));
    if (kind === 4) {
      const fn = r.pick([
        'Math.min',
        'Math.max',
        'Math.abs',
        'Math.floor',
        'Math.ceil',
        'Math.trunc',
        'Math.round',
        'Math.sign',
        'round',
        'saturate',
      ]);
      if (fn === 'Math.min' || fn === 'Math.max') {
        const a = this.expr(t, depth - 1);
        const b = this.operand(t, depth - 1);
        return this.call(fn, [a, b], t, ([x, y]) =>
          fn === 'Math.min' ? Math.min(x!, y!) : Math.max(x!, y!),
        );
      }
      const f = {
        'Math.abs': Math.abs,
        'Math.floor': Math.floor,
        'Math.ceil': Math.ceil,
        'Math.trunc': Math.trunc,
        'Math.round': Math.round,
        'Math.sign': Math.sign,
        round: roundHalfEven,
        saturate: (x: number) => Math.min(1, Math.max(0, x)),
      }[fn]!;
      return this.call(fn, [this.expr(t, depth - 1)], t, ([x]) => fr(f(x!)), JUMPS[fn]);
    }
    if (kind === 5) {
      // WGSL leaves the rounding of an integer that f32 cannot hold exactly to the
      // implementation (SwiftShader truncates, NVIDIA rounds to nearest), so the operand is cut
      // to 24 significant bits, where every integer converts exactly.
      const from = r.pick<Scalar>(['i32', 'u32']);
      const e = this.expr(T(from), depth - 1);
      const exact: Expr =
        from === 'i32'
          ? this.call('', [e], T('i32'), ([x]) => (x! << 8) >> 8)
          : this.call('', [e], T('u32'), ([x]) => (x! & 0xffffff) >>> 0);
      const text = from === 'i32' ? `((${e.text} << 8) >> 8)` : `(${e.text} & 16777215)`;
      return this.call('f32', [{ ...exact, text }], t, ([x]) => fr(x!));
    }
    if (kind === 7) return this.transcendental(depth);
    if (r.chance(0.5)) return this.conditional(t, depth);
    const v = this.vectorExpr(T('f32', r.pick([2, 3, 4] as const)), depth - 1);
    return this.component(v, r.int(v.type.n));
  }

  /** `a / (|b| + 1)`: division by (|e| + 1) keeps quotients finite. */
  private quotient(a: Expr, b: Expr): Expr {
    return this.binary(
      '/',
      a,
      b,
      T('f32'),
      (x, y) => fr(x / fr(Math.abs(y) + 1)),
      `(${a.text} / (Math.abs(${b.text}) + 1))`,
      // WGSL grants division 2.5 ULP, an exact quotient included (a GPU may multiply by the
      // reciprocal); the divisor |y| + 1 >= 1 may itself be rounded.
      (r, _, y, ex, ey) => {
        const d = Math.abs(y) + 1;
        return (ex + Math.abs(r) * (ey + rounding(fr(d), d))) / d + 2.5 * ulp(r);
      },
    );
  }

  /**
   * A transcendental `Math` function of an argument kept where WGSL states its accuracy (sin
   * and cos in [-π, π]) and the result finite: its error bound adds WGSL's accuracy to the
   * argument's error times the function's slope.
   */
  private transcendental(depth: number): Expr {
    const t = T('f32');
    const u = this.expr(t, depth - 1);
    const fn = this.r.pick(Object.keys(TRANSCENDENTALS));
    const spec = TRANSCENDENTALS[fn]!;
    const constant = (value: number): Expr => ({
      type: t,
      text: String(value),
      literal: true,
      eval: () => ({ v: [value], mag: value, err: 0 }),
    });
    const arg =
      spec.argument === 'positive'
        ? this.binary(
            '+',
            this.call('Math.abs', [u], t, ([x]) => Math.abs(x!)),
            constant(1),
            t,
            (x, y) => arith('+', 'f32', x, y),
          )
        : this.binary('*', this.quotient(u, u), constant(spec.argument), t, (x, y) =>
            arith('*', 'f32', x, y),
          );
    return {
      type: t,
      text: `${fn}(${arg.text})`,
      literal: false,
      eval: (env) => {
        const a = arg.eval(env);
        const x = a.v[0]!;
        const r = fr(spec.f(x));
        const err = spec.slope(x, r) * a.err + spec.accuracy(x, r) + ulp(r);
        return { v: [r], mag: Math.max(a.mag, Math.abs(r)), err };
      },
    };
  }

  private boolExpr(depth: number): Expr {
    const t = T('bool');
    const r = this.r;
    const kind = r.int(5);
    if (kind === 4) {
      const fn = r.pick(['all', 'any']);
      const cmp = this.vectorComparison(r.pick([2, 3, 4] as const), depth - 1);
      return {
        type: t,
        text: `${fn}(${cmp.text})`,
        literal: false,
        eval: (env) => {
          const c = cmp.eval(env);
          const v = [+(fn === 'all' ? c.v.every(Boolean) : c.v.some(Boolean))];
          return { v, mag: c.mag, err: 0 };
        },
      };
    }
    if (kind <= 1) {
      const s = r.pick<Scalar>(['i32', 'u32', 'f32']);
      const op = r.pick(['<', '<=', '>', '>=', '===', '!==']);
      return this.binary(op, this.expr(T(s), depth - 1), this.operand(T(s), depth - 1), t, (x, y) =>
        compare(op, x, y),
      );
    }
    if (kind === 2) {
      const op = r.pick(['&&', '||']);
      return this.binary(op, this.expr(t, depth - 1), this.expr(t, depth - 1), t, (x, y) =>
        op === '&&' ? +(x && y) : +(x || y),
      );
    }
    return this.not(depth);
  }

  /** `lt(a, b)` ... `ne(a, b)`: a component-wise comparison of numeric vectors. */
  private vectorComparison(n: 2 | 3 | 4, depth: number): Expr {
    const s = this.r.pick<Scalar>(['i32', 'u32', 'f32']);
    const fn = this.r.pick(['lt', 'le', 'gt', 'ge', 'eq', 'ne']);
    const op = { lt: '<', le: '<=', gt: '>', ge: '>=', eq: '===', ne: '!==' }[fn]!;
    const a = this.vectorExpr(T(s, n), depth);
    const b = this.vectorExpr(T(s, n), depth);
    return this.binary(
      op,
      a,
      b,
      T('bool', n),
      (x, y) => compare(op, x, y),
      `${fn}(${a.text}, ${b.text})`,
    );
  }

  private not(depth: number): Expr {
    const a = this.expr(T('bool'), depth - 1);
    return { ...this.call('', [a], T('bool'), ([x]) => +!x), text: `(!${a.text})` };
  }

  private conditional(t: Type, depth: number): Expr {
    const c = this.expr(T('bool'), depth - 1);
    const a = this.expr(t, depth - 1);
    const b = this.expr(t, depth - 1);
    return {
      type: t,
      text: `(${c.text} ? ${a.text} : ${b.text})`,
      literal: false,
      eval: (env) => {
        const cv = c.eval(env);
        const chosen = (cv.v[0] ? a : b).eval(env);
        return { v: chosen.v, mag: Math.max(cv.mag, chosen.mag), err: chosen.err };
      },
    };
  }

  private component(v: Expr, c: number): Expr {
    const letter = 'xyzw'[c]!;
    return {
      type: T(v.type.s),
      text: this.r.chance(0.5) ? `${v.text}.${letter}` : `${v.text}[${c}]!`,
      literal: false,
      eval: (env) => {
        const x = v.eval(env);
        return { v: [x.v[c]!], mag: x.mag, err: x.err };
      },
    };
  }

  private construct(type: Type, depth: number): Expr {
    const parts: Expr[] = [];
    let count = 0;
    while (count < type.n) {
      const room = type.n - count;
      const n =
        room >= 2 && this.r.chance(0.3)
          ? (this.r.pick([2, 3].filter((k) => k <= room)) as 2 | 3)
          : 1;
      const e = n === 1 ? this.expr(T(type.s), depth - 1) : this.expr(T(type.s, n), depth - 1);
      parts.push(e);
      count += n;
    }
    return {
      type,
      text: `${vecName(type)}(${parts.map((p) => p.text).join(', ')})`,
      literal: false,
      eval: (env) => {
        const xs = parts.map((p) => p.eval(env));
        const v = xs.flatMap((x) => x.v);
        return {
          v,
          mag: Math.max(...xs.map((x) => x.mag)),
          err: Math.max(...xs.map((x) => x.err)),
        };
      },
    };
  }

  private vectorExpr(type: Type, depth: number): Expr {
    if (type.s === 'f32') this.usesFloat = true;
    const r = this.r;
    if (depth <= 0) return this.construct(type, 0);
    const kind = r.int(5);
    if (kind === 0 || type.s === 'bool') return this.construct(type, depth);
    if (type.n === 4 && type.s !== 'f32' && r.chance(0.15)) return this.unpack(type, depth);
    if (kind === 4) {
      const cmp = this.vectorComparison(type.n as 2 | 3 | 4, depth - 1);
      const f = this.vectorExpr(type, depth - 1);
      const t = this.vectorExpr(type, depth - 1);
      return {
        type,
        text: `select(${f.text}, ${t.text}, ${cmp.text})`,
        literal: false,
        eval: (env) => {
          const [c, a, b] = [cmp.eval(env), f.eval(env), t.eval(env)];
          return {
            v: c.v.map((x, i) => (x ? b.v[i]! : a.v[i]!)),
            mag: Math.max(c.mag, a.mag, b.mag),
            err: Math.max(a.err, b.err),
          };
        },
      };
    }
    if (kind === 1) {
      const fn = r.pick(['add', 'sub', 'mul']);
      const op = { add: '+', sub: '-', mul: '*' }[fn]!;
      const a = this.vectorExpr(type, depth - 1);
      const b = r.chance(0.3) ? this.expr(T(type.s), depth - 1) : this.vectorExpr(type, depth - 1);
      return this.binary(
        op,
        a,
        b,
        type,
        (x, y) => arith(op, type.s, x, y),
        `${fn}(${a.text}, ${b.text})`,
      );
    }
    if (kind === 2) {
      const bigger = T(type.s, r.pick([2, 3, 4] as const));
      const src = this.vectorExpr(bigger, depth - 1);
      const idx = Array.from({ length: type.n }, () => r.int(bigger.n));
      return {
        type,
        text: `${src.text}.${idx.map((i) => 'xyzw'[i]).join('')}`,
        literal: false,
        eval: (env) => {
          const x = src.eval(env);
          return { v: idx.map((i) => x.v[i]!), mag: x.mag, err: x.err };
        },
      };
    }
    return this.conditional(type, depth);
  }
}

export interface Case {
  /** Statements of the case's block; it leaves its result in `r`. */
  readonly text: string;
  readonly type: Type;
  /** Whether an f32 value takes part anywhere (only such a case can be fragile). */
  readonly usesFloat: boolean;
  /**
   * The result, the largest magnitude met, and whether the inputs make it fragile: a rounded
   * f32 met a comparison or truncation so closely that a GPU may go the other way, so only
   * the result's type and the absence of a crash can be checked.
   */
  run(inputs: ReadonlyMap<string, Value>): {
    v: Value;
    mag: number;
    /** The result's f32 error bound (see `Eval.err`). */
    err: number;
    fragile: boolean;
  };
}

interface State extends Env {
  readonly vars: Map<string, Value>;
}

/** `r = x`: its value, and whether it now holds a rounded f32. */
function assign(st: State, x: Eval): void {
  st.vars.set('r', x.v);
  if (x.err > 0) st.notes.errs.set('r', x.err);
  else st.notes.errs.delete('r');
}

/** A case: `let r = e;` then a few statements that update r, ending with r's value. */
export function generateCase(rand: Rand, inputs: ReadonlyMap<string, Type>, depth: number): Case {
  const gen = new Generator(rand, inputs);
  const type = T(
    rand.pick<Scalar>(['i32', 'u32', 'f32', 'bool', 'i32', 'u32', 'f32']),
    rand.chance(0.25) ? rand.pick([2, 3, 4] as const) : 1,
  );
  const init = gen.expr(type, depth);
  type Step = {
    text: string;
    run(st: State, mag: number[]): 'ok' | 'break' | 'continue';
  };
  const steps: Step[] = [];
  const numeric = type.s !== 'bool' && type.n === 1;
  const assignStep = (): Step =>
    gen.withVar('r', type, () => {
      const e = gen.expr(type, depth - 1);
      if (numeric && type.s !== 'f32' && rand.chance(0.3)) {
        const op = rand.pick(['+', '-', '*', '^', '|']);
        const e2 = gen.expr(type, depth - 1);
        return {
          text: `r ${op}= ${e2.text};`,
          run: (st, mag) => {
            const x = e2.eval(st);
            mag.push(x.mag);
            st.vars.set('r', [arith(op, type.s, st.vars.get('r')![0]!, x.v[0]!)]);
            return 'ok';
          },
        };
      }
      return {
        text: `r = ${e.text};`,
        run: (st, mag) => {
          const x = e.eval(st);
          mag.push(x.mag);
          assign(st, x);
          return 'ok';
        },
      };
    });
  const count = rand.int(3);
  for (let k = 0; k < count; k++) {
    const kind = rand.int(4);
    if (kind === 0) {
      steps.push(assignStep());
    } else if (kind === 1) {
      const c = gen.withVar('r', type, () => gen.expr(T('bool'), depth - 1));
      const a = assignStep();
      const b = assignStep();
      steps.push({
        text: `if (${c.text}) {\n  ${a.text}\n} else {\n  ${b.text}\n}`,
        run: (st, mag) => {
          const x = c.eval(st);
          mag.push(x.mag);
          return (x.v[0] ? a : b).run(st, mag);
        },
      });
    } else if (kind === 2 && rand.chance(0.3)) {
      // Unrolled: the body written out once per value, the counter a constant in each copy.
      const trips = rand.int(4);
      const body = gen.withVar('k', T('u32'), () => assignStep());
      steps.push({
        text: `for (const k of unroll(${trips})) {\n  ${body.text}\n}`,
        run: (st, mag) => {
          for (let k = 0; k < trips; k++) {
            st.vars.set('k', [k]);
            body.run(st, mag);
          }
          st.vars.delete('k');
          return 'ok';
        },
      });
    } else if (kind === 2) {
      const trips = rand.int(4);
      const counter = rand.pick<Scalar>(['i32', 'u32']);
      const body = gen.withVar('k', T(counter), () => assignStep());
      const skip = gen.withVar('k', T(counter), () =>
        gen.withVar('r', type, () => gen.expr(T('bool'), 1)),
      );
      const useContinue = rand.chance(0.5);
      steps.push({
        text: `for (let k = ${counter}(0); k < ${trips}; k++) {\n  if (${skip.text}) {\n    ${useContinue ? 'continue' : 'break'};\n  }\n  ${body.text}\n}`,
        run: (st, mag) => {
          for (let k = 0; k < trips; k++) {
            st.vars.set('k', [k]);
            const s = skip.eval(st);
            mag.push(s.mag);
            if (s.v[0]) {
              if (useContinue) continue;
              break;
            }
            body.run(st, mag);
          }
          st.vars.delete('k');
          return 'ok';
        },
      });
    } else if (kind === 3 && rand.chance(0.5)) {
      const trips = rand.int(4);
      const body = gen.withVar('w', T('u32'), () => assignStep());
      const stop = gen.withVar('w', T('u32'), () =>
        gen.withVar('r', type, () => gen.expr(T('bool'), 1)),
      );
      steps.push({
        text: `{\n  let w = u32(0);\n  while (w < ${trips}) {\n    w++;\n    if (${stop.text}) {\n      break;\n    }\n    ${body.text}\n  }\n}`,
        run: (st, mag) => {
          let w = 0;
          while (w < trips) {
            w++;
            st.vars.set('w', [w]);
            const x = stop.eval(st);
            mag.push(x.mag);
            if (x.v[0]) break;
            body.run(st, mag);
          }
          st.vars.delete('w');
          return 'ok';
        },
      });
    } else if (numeric && type.s !== 'f32') {
      const op = rand.pick(['++', '--']);
      steps.push({
        text: `r${op};`,
        run: (st) => {
          st.vars.set('r', [norm(type.s, st.vars.get('r')![0]! + (op === '++' ? 1 : -1))]);
          return 'ok';
        },
      });
    } else {
      steps.push(assignStep());
    }
  }
  return {
    type,
    text: `let r = ${init.text};\n${steps.map((s) => s.text).join('\n')}`,
    usesFloat: gen.usesFloat,
    run: (inputValues) => {
      const st: State = {
        vars: new Map(inputValues),
        notes: { fragile: false, errs: new Map() },
      };
      const first = init.eval(st);
      const mag = [first.mag];
      assign(st, first);
      for (const s of steps) s.run(st, mag);
      const v = st.vars.get('r')!;
      const err = st.notes.errs.get('r') ?? 0;
      return { v, mag: Math.max(...mag, magOf(v)), err, fragile: st.notes.fragile };
    },
  };
}
