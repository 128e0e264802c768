/**
 * Reductions (SYCL 2020 4.9.2), lowered at link time once the uniformity check has seen the
 * kernel as written. Each reduction variable becomes an accumulator per item that `combine`
 * folds into; at the end of the kernel every item of the work-group combines its accumulator
 * with a group reduce, and the leader writes the result to the work-group's element of an array
 * of partial results: the accessor of the variable's name, which the runtime binds to a buffer
 * of its own. A finishing kernel (`<kernel>~<variable>`, one work-group) then folds the partials,
 * in order, into the host's buffer. No float atomics: the order of combination is fixed by the
 * launch's shape, so a float result is the same from run to run.
 *
 * So that every item reaches the combining, the body runs inside a one-pass loop: a `return`
 * leaves it (through a flag from inside nested loops), and a basic kernel's items past the range
 * skip the body there instead of returning before it.
 *
 * A device function that combines (SYCL's `reduction(buffer, identity, combiner)`) is called in
 * place of the operator, and the work-group combines through workgroup memory in IR of its own: a
 * pairwise tree whose every step puts the lower item's value on the left, so the function need
 * not commute (a group reduce's sub-group built-ins know only SYCL's function objects).
 */
import type { DataType, GroupOperatorName, JsonValue, SymbolicId } from '@syclts/dsl';
import { scalarOf } from '../builtins/evaluate.js';
import { groupIdentity, infinityBits } from '../builtins/group-identity.js';
import { mapUpdateParts } from '../ir/children.js';
import type { Block, Expr, LetStmt, Stmt, UpdateStmt } from '../ir/device-code.js';
import type {
  KernelDecl,
  KernelParam,
  ReductionOperator,
  SizeExpr,
  WorkgroupArrayDecl,
} from '../ir/device-object.js';
import type { Span } from '../ir/span.js';
import { BASIC_WORKGROUP } from './image.js';
import type { ResolvedKernel, Use } from './resolve.js';

/** What the link step keeps of a lowered reduction variable (see `KernelInfo.reductions`). */
export interface LoweredReduction {
  readonly arg: string;
  readonly element: DataType;
  readonly extent: number | null;
  readonly operator: GroupOperatorName | { readonly fn: SymbolicId };
  readonly finisher: SymbolicId;
}

/** Items per work-group of a finishing kernel. */
export const FINISHER_WORKGROUP = 256;

const U32: DataType = { kind: 'scalar', scalar: 'u32' };
const BOOL: DataType = { kind: 'scalar', scalar: 'bool' };
const DONE = '#done';
const accumulator = (name: string) => `#acc_${name}`;
/** The workgroup array a combining device function's tree goes through. */
const scratch = (name: string) => `#tree_${name}`;

type Reduction = Extract<KernelParam<SymbolicId>, { kind: 'reduction' }>;
type Operator = ReductionOperator<SymbolicId>;

/**
 * `kernel` with its reductions lowered, and their finishing kernels; `kernel` itself (and no
 * finishers) when it has none.
 */
export function lowerReductions(kernel: ResolvedKernel): {
  readonly kernel: ResolvedKernel;
  readonly finishers: readonly ResolvedKernel[];
} {
  const { decl } = kernel;
  const reductions = decl.params.filter((p): p is Reduction => p.kind === 'reduction');
  if (reductions.length === 0) return { kernel, finishers: [] };
  const span = decl.span;
  const b = new Builder(span);
  const lowered = reductions.map((r) => ({
    arg: r.name,
    element: r.element,
    extent: r.extent,
    operator: r.operator.kind === 'known' ? r.operator.name : { fn: r.operator.fn },
    finisher: `${kernel.id}~${r.name}`,
  }));
  const rewrite = new BodyRewrite(b, new Map(reductions.map((r) => [r.name, r])));
  const guard: Stmt<SymbolicId>[] =
    decl.range.kind === 'basic'
      ? [
          b.when(
            Array.from({ length: decl.range.dimensions }, (_, d) =>
              b.binary('>=', b.item('globalId', d), b.item('globalRange', d), BOOL),
            ).reduce((a, c) => b.binary('||', a, c, BOOL)),
            [{ kind: 'break', span }],
          ),
        ]
      : [];
  const inner = rewrite.block(decl.body, 0);
  const items = workgroupItems(decl);
  const body: Block<SymbolicId> = [
    ...reductions.flatMap((r) => startAccumulator(b, r)),
    ...(rewrite.usesDone ? [b.let(DONE, BOOL, b.literal(false, BOOL), true)] : []),
    {
      kind: 'while',
      condition: b.literal(true, BOOL),
      body: [...guard, ...inner, { kind: 'break', span }],
      span,
    },
    ...reductions.flatMap((r) => epilogue(b, r, items)),
  ];
  const trees = reductions
    .filter((r) => r.operator.kind === 'function')
    .map((r) => treeArray(b, r, scratch(r.name), items));
  const main: ResolvedKernel = {
    ...kernel,
    decl: {
      ...decl,
      params: decl.params.map((p) =>
        p.kind === 'reduction'
          ? {
              kind: 'accessor',
              name: p.name,
              element: p.element,
              access: 'read_write',
              span: p.span,
            }
          : p,
      ),
      workgroupArrays: [...decl.workgroupArrays, ...trees],
      body,
    },
    reductions: lowered,
  };
  const finishers = reductions.map((r, i) => finisher(kernel, r, lowered[i]!.finisher));
  return { kernel: main, finishers };
}

/** An item's accumulator (a span's: one per value), at the identity. */
function startAccumulator(b: Builder, r: Reduction): Stmt<SymbolicId>[] {
  const name = accumulator(r.name);
  if (r.extent === null) return [b.let(name, r.element, identity(b, r), true)];
  const values: DataType = { kind: 'array', element: r.element, length: r.extent };
  return [
    b.let(name, values, { op: 'construct', args: [], type: values, span: b.span }, true),
    ...eachValue(b, r, `${name}_k`, (k) => [
      b.assign(b.index(b.local(name, values), k!, r.element), identity(b, r)),
    ]),
  ];
}

/** An item's accumulator of the value `k` (null: the reduction's one value). */
function accumulatorAt(b: Builder, r: Reduction, k: Expr<SymbolicId> | null): Expr<SymbolicId> {
  const name = accumulator(r.name);
  if (k === null) return b.local(name, r.element);
  const values: DataType = { kind: 'array', element: r.element, length: r.extent! };
  return b.index(b.local(name, values), k, r.element);
}

/**
 * `body` once for a reduction of one value (given null), or in a loop over a span's values
 * (given the counter `name`, a u32): the bound is a literal, so a group function inside is
 * reached by every item.
 */
function eachValue(
  b: Builder,
  r: Reduction,
  name: string,
  body: (k: Expr<SymbolicId> | null) => Block<SymbolicId>,
): Stmt<SymbolicId>[] {
  if (r.extent === null) return [...body(null)];
  const k = b.local(name, U32);
  return [
    b.loop(
      b.let(name, U32, b.literal(0, U32), true),
      b.binary('<', k, b.literal(r.extent, U32), BOOL),
      k,
      b.literal(1, U32),
      body(k),
    ),
  ];
}

/**
 * The work-group's combination of the accumulators (of each value of a span), written by its
 * leader to its partials: `[group]`, or a span's `[group * extent + k]`.
 */
function epilogue(b: Builder, r: Reduction, items: SizeExpr<SymbolicId>): Stmt<SymbolicId>[] {
  const total = `#total_${r.name}`;
  return eachValue(b, r, `#k_${r.name}`, (k) => {
    const group = b.item('groupLinearId', 0);
    const at =
      k === null
        ? group
        : b.binary('+', b.binary('*', group, b.literal(r.extent!, U32), U32), k, U32);
    const combined = groupCombine(b, r, accumulatorAt(b, r, k), total, scratch(r.name), items);
    return [
      ...combined.stmts,
      b.ifLeader([b.assign(b.index(b.param(r.name, r.element), at, r.element), combined.total)]),
    ];
  });
}

/**
 * The work-group's combination of each item's `x`, for its leader: a group reduce (every item
 * calls it) for SYCL's function objects, bound to `total`; for a device function, a pairwise tree
 * in the workgroup array `tree` of `items` elements (each step combines items 2s apart, the lower
 * on the left, after a barrier), whose first element the leader reads: it wrote it last.
 */
function groupCombine(
  b: Builder,
  r: Reduction,
  x: Expr<SymbolicId>,
  total: string,
  tree: string,
  items: SizeExpr<SymbolicId>,
): { readonly stmts: Stmt<SymbolicId>[]; readonly total: Expr<SymbolicId> } {
  const t = r.element;
  if (r.operator.kind === 'known') {
    return {
      stmts: [b.let(total, t, b.groupReduce(r.operator.name, x), false)],
      total: b.local(total, t),
    };
  }
  const slot = (i: Expr<SymbolicId>) => b.index(b.workgroupArray(tree, t, items), i, t);
  const lid = b.item('localLinearId', 0);
  const n = b.item('localLinearRange', 0);
  const s = b.local(`${tree}_s`, U32);
  const two = b.binary('*', b.literal(2, U32), s, U32);
  const combines = b.binary(
    '&&',
    b.binary(
      '==',
      b.binary('&', lid, b.binary('-', two, b.literal(1, U32), U32), U32),
      b.literal(0, U32),
      BOOL,
    ),
    b.binary('<', b.binary('+', lid, s, U32), n, BOOL),
    BOOL,
  );
  const partner = b.binary('+', lid, s, U32);
  const stmts: Stmt<SymbolicId>[] = [
    // The leader may still be reading the array's last use (a span's previous value).
    { kind: 'barrier', scope: 'workgroup', span: b.span },
    b.assign(slot(lid), x),
    {
      kind: 'for',
      init: b.let(`${tree}_s`, U32, b.literal(1, U32), true),
      condition: b.binary('<', s, n, BOOL),
      update: { kind: 'assign', target: s, operator: '=', value: two, span: b.span },
      body: [
        { kind: 'barrier', scope: 'workgroup', span: b.span },
        b.when(combines, [b.assign(slot(lid), combine(b, r.operator, slot(lid), slot(partner)))]),
      ],
      span: b.span,
    },
  ];
  return { stmts, total: slot(b.literal(0, U32)) };
}

/** A kernel's items per work-group, as a workgroup array's length. */
function workgroupItems(decl: KernelDecl<SymbolicId>): SizeExpr<SymbolicId> {
  const b = new Builder(decl.span);
  if (decl.range.kind === 'basic') {
    const [x, y, z] = BASIC_WORKGROUP[decl.range.dimensions];
    return b.literal(x * y * z, U32);
  }
  // The front end gives each size as a u32 (an i32 specialization constant converted).
  return decl.range.workgroupSize.reduce((product, size) => b.binary('*', product, size, U32));
}

function treeArray(
  b: Builder,
  r: Reduction,
  name: string,
  items: SizeExpr<SymbolicId>,
): WorkgroupArrayDecl<SymbolicId> {
  return { name, element: r.element, length: items, span: b.span };
}

/**
 * One work-group of FINISHER_WORKGROUP items: each folds a run of the partials (strided for a
 * function object, consecutive for a device function), the work-group combines them, and the
 * leader writes the result into `target[0]` (a span's into `target[k]`, value by value), combined
 * with what it held when `keep` is set.
 */
function finisher(kernel: ResolvedKernel, r: Reduction, id: SymbolicId): ResolvedKernel {
  const span = r.span;
  const b = new Builder(span);
  const t = r.element;
  const acc = b.local('acc', t);
  const i = b.local('i', U32);
  const count = b.param('count', U32);
  const items = b.literal(FINISHER_WORKGROUP, U32);
  const lid = b.item('localLinearId', 0);
  // Each value of a span in turn: its partials are every `extent`-th, from `k`.
  const body = eachValue(b, r, 'k', (k) => {
    const partial =
      k === null ? i : b.binary('+', b.binary('*', i, b.literal(r.extent!, U32), U32), k, U32);
    const target = b.index(b.param('target', t), k ?? b.literal(0, U32), t);
    const fold = [
      b.assign(acc, combine(b, r.operator, acc, b.index(b.param('partials', t), partial, t))),
    ];
    const combined = groupCombine(b, r, acc, 'total', '#tree', items);
    return [
      b.let('acc', t, identity(b, r), true),
      ...(r.operator.kind === 'known'
        ? [b.loop(b.let('i', U32, lid, true), b.binary('<', i, count, BOOL), i, items, fold)]
        : ordered(b, lid, count, i, fold)),
      ...combined.stmts,
      b.ifLeader([
        b.when(
          b.binary('!=', b.param('keep', U32), b.literal(0, U32), BOOL),
          [b.assign(target, combine(b, r.operator, target, combined.total))],
          [b.assign(target, combined.total)],
        ),
      ]),
    ];
  });
  const decl: KernelDecl<SymbolicId> = {
    name: `${kernel.decl.name}~${r.name}`,
    range: { kind: 'nd', dimensions: 1, workgroupSize: [items] },
    params: [
      { kind: 'accessor', name: 'partials', element: t, access: 'read', span },
      { kind: 'accessor', name: 'target', element: t, access: 'read_write', span },
      { kind: 'value', name: 'count', type: U32, span },
      { kind: 'value', name: 'keep', type: U32, span },
    ],
    workgroupArrays: r.operator.kind === 'known' ? [] : [treeArray(b, r, '#tree', items)],
    body,
    span,
    // A combiner's tree holds 256 values: a wide type needs the limits its kernel declares.
    ...(kernel.decl.requiredLimits ? { requiredLimits: kernel.decl.requiredLimits } : {}),
  };
  const uses: Use[] =
    r.operator.kind === 'known' ? [] : [{ kind: 'function', id: r.operator.fn, span }];
  return { id, module: kernel.module, decl, uses };
}

/**
 * A device function's partials folded in order: each item a run of consecutive ones (the
 * work-group's tree then keeps the runs in order), so the function need not commute.
 */
function ordered(
  b: Builder,
  lid: Expr<SymbolicId>,
  count: Expr<SymbolicId>,
  i: Expr<SymbolicId>,
  fold: Block<SymbolicId>,
): Stmt<SymbolicId>[] {
  const run = b.local('run', U32);
  const one = b.literal(1, U32);
  const per = b.binary(
    '/',
    b.binary('+', count, b.literal(FINISHER_WORKGROUP - 1, U32), U32),
    b.literal(FINISHER_WORKGROUP, U32),
    U32,
  );
  const end: Expr<SymbolicId> = {
    op: 'builtin',
    name: 'min',
    args: [count, b.binary('*', b.binary('+', lid, one, U32), run, U32)],
    type: U32,
    span: b.span,
  };
  return [
    b.let('run', U32, per, false),
    b.loop(
      b.let('i', U32, b.binary('*', lid, run, U32), true),
      b.binary('<', i, end, BOOL),
      i,
      one,
      fold,
    ),
  ];
}

/** `a op b` as the IR writes it. */
function combine(
  b: Builder,
  operator: Operator,
  x: Expr<SymbolicId>,
  y: Expr<SymbolicId>,
): Expr<SymbolicId> {
  if (operator.kind === 'function') {
    return { op: 'call', callee: operator.fn, args: [x, y], type: x.type, span: b.span };
  }
  switch (operator.name) {
    case 'plus':
      return b.binary('+', x, y, x.type);
    case 'multiplies':
      return b.binary('*', x, y, x.type);
    case 'bitAnd':
    case 'logicalAnd':
      return b.binary('&', x, y, x.type);
    case 'bitOr':
    case 'logicalOr':
      return b.binary('|', x, y, x.type);
    case 'bitXor':
      return b.binary('^', x, y, x.type);
    case 'minimum':
      return { op: 'builtin', name: 'min', args: [x, y], type: x.type, span: b.span };
    case 'maximum':
      return { op: 'builtin', name: 'max', args: [x, y], type: x.type, span: b.span };
  }
}

/** The operator's identity for the variable's type; ±Infinity through a call (WGSL refuses it as a constant). */
function identity(b: Builder, r: Reduction): Expr<SymbolicId> {
  const { operator } = r;
  if (operator.identity !== null) return constant(b, operator.identity, r.element);
  if (operator.kind === 'function')
    throw new Error('link: a combining function without an identity');
  const scalar: DataType = { kind: 'scalar', scalar: scalarOf(r.element) };
  const v = groupIdentity(operator.name, scalar.scalar);
  const value: Expr<SymbolicId> =
    typeof v === 'number' && !Number.isFinite(v)
      ? {
          op: 'builtin',
          name: 'f32_from_bits',
          args: [b.literal(infinityBits(v), U32)],
          type: scalar,
          span: b.span,
        }
      : b.literal(v, scalar);
  return r.element.kind === 'vector'
    ? {
        op: 'construct',
        args: Array.from({ length: r.element.size }, () => value),
        type: r.element,
        span: b.span,
      }
    : value;
}

/** A folded constant (the JSON `checkDefault` made of it, complete) as IR of its type. */
function constant(b: Builder, value: JsonValue, type: DataType): Expr<SymbolicId> {
  const list = (
    values: readonly JsonValue[],
    typeOf: (i: number) => DataType,
  ): Expr<SymbolicId> => ({
    op: 'construct',
    args: values.map((v, i) => constant(b, v, typeOf(i))),
    type,
    span: b.span,
  });
  switch (type.kind) {
    case 'scalar':
      // ±Infinity (an f32 identity) as its bits: WGSL refuses an infinite constant.
      return typeof value === 'string'
        ? {
            op: 'builtin',
            name: 'f32_from_bits',
            args: [b.literal(infinityBits(value === 'Infinity' ? 1 : -1), U32)],
            type,
            span: b.span,
          }
        : b.literal(value as number | boolean, type);
    case 'vector':
      return list(value as JsonValue[], () => ({ kind: 'scalar', scalar: type.component }));
    case 'matrix':
      return list(value as JsonValue[], () => ({ kind: 'scalar', scalar: 'f32' }));
    case 'array':
      return list(value as JsonValue[], () => type.element);
    case 'struct': {
      const fields = value as { readonly [name: string]: JsonValue };
      return list(
        type.fields.map((f) => fields[f.name]!),
        (i) => type.fields[i]!.type,
      );
    }
    case 'atomic':
      throw new Error('link: a reduction of atomics');
  }
}

/** The kernel's body inside the one-pass loop: returns leave it, combines fold. */
class BodyRewrite {
  usesDone = false;

  constructor(
    private readonly b: Builder,
    private readonly reductions: ReadonlyMap<string, Reduction>,
  ) {}

  /** `loops`: how many loops of the body enclose the block. */
  block(block: Block<SymbolicId>, loops: number): Block<SymbolicId> {
    return block.flatMap((s) => this.stmt(s, loops));
  }

  stmt(s: Stmt<SymbolicId>, loops: number): Stmt<SymbolicId>[] {
    const { span } = s;
    switch (s.kind) {
      case 'return':
        if (loops === 0) return [{ kind: 'break', span }];
        this.usesDone = true;
        return [
          this.b.assign(this.b.local(DONE, BOOL), this.b.literal(true, BOOL)),
          { kind: 'break', span },
        ];
      case 'if':
        return [
          this.b.when(
            s.condition,
            this.block(s.then, loops),
            s.else && this.block(s.else, loops),
            span,
          ),
        ];
      case 'block':
        return [{ ...s, body: this.block(s.body, loops) }];
      case 'while':
      case 'for': {
        const before = this.usesDone;
        this.usesDone = false;
        const body = this.block(s.body, loops + 1);
        const loop: Stmt<SymbolicId> =
          s.kind === 'for'
            ? {
                ...s,
                body,
                init: s.init?.kind === 'combine' ? this.update(s.init) : s.init,
                update: s.update && this.update(s.update),
              }
            : { ...s, body };
        const returned = this.usesDone;
        this.usesDone ||= before;
        if (!returned) return [loop];
        return [loop, this.b.when(this.b.local(DONE, BOOL), [{ kind: 'break', span }])];
      }
      case 'combine': {
        if (!s.index) return [this.update(s)];
        // The index read once, in a block of its own (several combines may share a block).
        const name = `#at_${s.reduction}`;
        const at = this.b.local(name, U32);
        return [
          {
            kind: 'block',
            body: [this.b.let(name, U32, s.index, false), this.update({ ...s, index: at })],
            span,
          },
        ];
      }
      default:
        return [s];
    }
  }

  update(s: UpdateStmt<SymbolicId>): UpdateStmt<SymbolicId> {
    if (s.kind !== 'combine') return mapUpdateParts(s, (e) => e);
    const r = this.reductions.get(s.reduction)!;
    // A span's index is a local bound just before (a statement), or free of side effects (a
    // loop's initializer or update, as the front end sees to): read twice, it names one element.
    const acc = accumulatorAt(this.b, r, s.index);
    return {
      kind: 'assign',
      target: acc,
      operator: '=',
      value: combine(this.b, r.operator, acc, s.value),
      span: s.span,
    };
  }
}

/** IR nodes at one span. */
class Builder {
  constructor(readonly span: Span) {}

  literal(value: number | boolean, type: DataType): Expr<SymbolicId> {
    return { op: 'literal', value, type, span: this.span };
  }

  local(name: string, type: DataType): Expr<SymbolicId> {
    return { op: 'local', name, type, span: this.span };
  }

  param(name: string, element: DataType): Expr<SymbolicId> {
    return { op: 'param', name, type: { kind: 'array', element, length: 0 }, span: this.span };
  }

  item(
    query: 'globalId' | 'globalRange' | 'groupLinearId' | 'localLinearId' | 'localLinearRange',
    dimension: number,
  ): Expr<SymbolicId> {
    return { op: 'item', query, dimension, type: U32, span: this.span };
  }

  index(base: Expr<SymbolicId>, index: Expr<SymbolicId>, type: DataType): Expr<SymbolicId> {
    return { op: 'index', base, index, type, span: this.span };
  }

  binary(
    operator: Extract<Expr<SymbolicId>, { op: 'binary' }>['operator'],
    left: Expr<SymbolicId>,
    right: Expr<SymbolicId>,
    type: DataType,
  ): Expr<SymbolicId> {
    return { op: 'binary', operator, left, right, type, span: this.span };
  }

  /** `for (init; condition; counter += step) body`. */
  loop(
    init: LetStmt<SymbolicId>,
    condition: Expr<SymbolicId>,
    counter: Expr<SymbolicId>,
    step: Expr<SymbolicId>,
    body: Block<SymbolicId>,
  ): Stmt<SymbolicId> {
    return {
      kind: 'for',
      init,
      condition,
      update: { kind: 'assign', target: counter, operator: '+=', value: step, span: this.span },
      body,
      span: this.span,
    };
  }

  workgroupArray(name: string, element: DataType, length: SizeExpr<SymbolicId>): Expr<SymbolicId> {
    return {
      op: 'workgroupArray',
      name,
      type: { kind: 'array', element, length: length.op === 'literal' ? Number(length.value) : 0 },
      span: this.span,
    };
  }

  groupReduce(operator: GroupOperatorName, x: Expr<SymbolicId>): Expr<SymbolicId> {
    return {
      op: 'group',
      scope: 'workgroup',
      fn: 'reduce',
      operator,
      comparison: null,
      args: [x],
      type: x.type,
      span: this.span,
    };
  }

  let(name: string, type: DataType, init: Expr<SymbolicId>, mutable: boolean): LetStmt<SymbolicId> {
    return { kind: 'let', name, mutable, type, init, span: this.span };
  }

  assign(
    target: Expr<SymbolicId>,
    value: Expr<SymbolicId>,
  ): Stmt<SymbolicId> & UpdateStmt<SymbolicId> {
    return { kind: 'assign', target, operator: '=', value, span: this.span };
  }

  when(
    condition: Expr<SymbolicId>,
    then: Block<SymbolicId>,
    otherwise: Block<SymbolicId> | null = null,
    span = this.span,
  ): Stmt<SymbolicId> {
    return { kind: 'if', condition, then, else: otherwise, span };
  }

  ifLeader(then: Block<SymbolicId>): Stmt<SymbolicId> {
    return this.when(
      this.binary('==', this.item('localLinearId', 0), this.literal(0, U32), BOOL),
      then,
    );
  }
}
