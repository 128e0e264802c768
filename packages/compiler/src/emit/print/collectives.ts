/**
 * Group functions and sub-group queries as WGSL, in one of two lowerings of the same IR:
 * `subgroups` (WGSL's sub-group built-ins, the `subgroup_id` built-ins, workgroup memory only to
 * combine sub-groups) and `workgroup` (workgroup memory and barriers only, for devices without
 * sub-groups; a sub-group is then a run of min(32, N) items in local linear order, N the
 * work-group's size). Each function is a helper printed once per kernel, value type and
 * operator; the helpers a kernel uses share one workgroup array per value type, of N elements,
 * left as they found it for the next call by a barrier before they return.
 *
 * bool travels as u32 (0 or 1): `logicalAnd`/`logicalOr` are then `bitAnd`/`bitOr`, and
 * `anyOfGroup`, `allOfGroup`, `noneOfGroup` reductions by them.
 *
 * The joint algorithms over a workgroup array are helpers too, one per kernel, array (or pair
 * of arrays), function and operator, built on the work-group's reduce and scan helpers, so they
 * take either lowering as those do: each item combines a strided share of the array, then the
 * work-group reduces the shares; a scan goes chunk by chunk with a carry (the work-group's scan
 * of the chunk, then its last item's value broadcast). Each begins with a
 * barrier (elements written just before are seen) and a scan ends with one (its output is).
 */
import type { CollectiveLowering, DataType, GroupOperatorName, SymbolicId } from '@syclts/dsl';
import { scalarOf } from '../../builtins/evaluate.js';
import { groupIdentity, infinityBits } from '../../builtins/group-identity.js';
import type {
  Expr,
  GroupFunction,
  GroupScope,
  ItemQuery,
  UpdateStmt,
} from '../../ir/device-code.js';
import type { LinkedKernel } from '../../link/linked-image.js';
import { HELPER_PREFIX, type Namer } from '../../link/wgsl-names.js';
import type { BuiltinHelpers } from './helpers.js';
import { literal } from './literals.js';
import type { WgslTypes } from './types.js';

/**
 * The entry point's built-in values the helpers take, by lowering: as the entry point names them,
 * and as the helpers' parameters.
 */
const CONTEXT: Readonly<
  Record<CollectiveLowering, readonly (readonly [entry: string, param: string])[]>
> = {
  subgroups: [
    ['lindex', 'li'],
    ['sg_lid', 'sl'],
    ['sg_size', 'ss'],
    ['sg_id', 'si'],
    ['sg_count', 'sc'],
  ],
  workgroup: [['lindex', 'li']],
};
/** The values as a kernel passes them to a helper. */
const contextArgs = (l: CollectiveLowering) => CONTEXT[l].map(([entry]) => entry).join(', ');
/** The helpers' parameters that take them. */
const contextParams = (l: CollectiveLowering) =>
  CONTEXT[l].map(([, param]) => `${param}: u32`).join(', ');
/** The same values, passed on from inside a helper. */
const contextInside = (l: CollectiveLowering) => CONTEXT[l].map(([, param]) => param).join(', ');

/** A kernel's workgroup array, as a joint algorithm reads it: its WGSL name and length. */
export interface JointArray {
  readonly name: string;
  /** A u32 override-expression. */
  readonly length: string;
}

/** The entry point's parameters for the `subgroups` lowering (names reserved by the namer). */
export const SUBGROUP_BUILTINS = [
  '@builtin(subgroup_invocation_id) sg_lid: u32,',
  '@builtin(subgroup_size) sg_size: u32,',
  '@builtin(subgroup_id) sg_id: u32,',
  '@builtin(num_subgroups) sg_count: u32,',
] as const;

/** The operators left once bool is u32. */
type Combiner = Exclude<GroupOperatorName, 'logicalAnd' | 'logicalOr'>;

const SUBGROUP_REDUCE: Readonly<Record<Combiner, string>> = {
  plus: 'subgroupAdd',
  multiplies: 'subgroupMul',
  minimum: 'subgroupMin',
  maximum: 'subgroupMax',
  bitAnd: 'subgroupAnd',
  bitOr: 'subgroupOr',
  bitXor: 'subgroupXor',
};

export class GroupPrinter {
  readonly #helpers = new Map<string, { readonly name: string; readonly text: string }>();
  readonly #scratch = new Map<string, { readonly name: string; readonly text: string }>();
  #bits: string | null = null;

  constructor(
    readonly lowering: CollectiveLowering,
    private readonly namer: Namer,
    private readonly types: WgslTypes,
    readonly builtins: BuiltinHelpers,
  ) {}

  /** The helper functions and workgroup arrays used so far. */
  declarations(): string[] {
    return [
      ...(this.#bits === null
        ? []
        : [`fn ${this.#bits}(b: u32) -> f32 { return bitcast<f32>(b); }`]),
      ...[...this.#scratch.values()].map((s) => s.text),
      ...[...this.#helpers.values()].map((h) => h.text),
    ];
  }

  /** A sub-group query, `size` the work-group's item count as a u32 expression. */
  query(kernel: LinkedKernel, query: ItemQuery, size: string): string {
    if (this.lowering === 'subgroups') {
      switch (query) {
        case 'subGroupId':
          return 'sg_id';
        case 'subGroupLocalId':
          return 'sg_lid';
        case 'subGroupLocalRange':
          return `min(sg_size, ${size} - sg_id * sg_size)`;
        case 'subGroupMaxLocalRange':
          return 'sg_size';
        default:
          return 'sg_count';
      }
    }
    const s = fallbackSize(kernel, size);
    switch (query) {
      case 'subGroupId':
        return `(lindex / ${s})`;
      case 'subGroupLocalId':
        return `(lindex % ${s})`;
      case 'subGroupLocalRange':
        return `min(${s}, ${size} - lindex / ${s} * ${s})`;
      case 'subGroupMaxLocalRange':
        return s;
      default:
        return `((${size} + ${s} - 1u) / ${s})`;
    }
  }

  /**
   * A group function's call: `args` printed, `size` the work-group's item count as a u32
   * expression. bool values go in and come out as u32.
   */
  call(
    kernel: LinkedKernel,
    e: Expr<SymbolicId> & { op: 'group' },
    args: readonly string[],
    size: string,
  ): string {
    const [x, extra] = args as [string, string | undefined];
    const context = contextArgs(this.lowering);
    if (e.fn === 'any' || e.fn === 'all' || e.fn === 'none') {
      const op: Combiner = e.fn === 'all' ? 'bitAnd' : 'bitOr';
      const name = this.#helper(kernel, e.scope, 'reduce', op, U32, false, size);
      const r = `${name}(select(0u, 1u, ${x}), ${context})`;
      return e.fn === 'none' ? `(${r} == 0u)` : `(${r} != 0u)`;
    }
    const bool = scalarOf(e.type) === 'bool';
    const type = bool ? U32 : e.type;
    const op: Combiner | null =
      e.operator === 'logicalAnd' ? 'bitAnd' : e.operator === 'logicalOr' ? 'bitOr' : e.operator;
    const scans = e.fn === 'reduce' || e.fn === 'exclusiveScan' || e.fn === 'inclusiveScan';
    const name = this.#helper(kernel, e.scope, e.fn, op, type, scans && extra !== undefined, size);
    const value = (v: string) => (bool ? `select(0u, 1u, ${v})` : v);
    const call = `${name}(${[value(x), ...(extra === undefined ? [] : [scans ? value(extra) : extra])].join(', ')}, ${context})`;
    return bool ? `(${call} != 0u)` : call;
  }

  /**
   * `jointReduce`, `jointAny`, `jointAll`, `jointNone` over `array`: each item combines the
   * elements `li`, `li + N`, `li + 2N`, ... of the array, then the work-group's reduce combines
   * the items' parts. `extra` is the printed init or compared value.
   */
  joint(
    kernel: LinkedKernel,
    e: Expr<SymbolicId> & { op: 'group' },
    array: JointArray,
    extra: string | undefined,
    size: string,
  ): string {
    const context = contextArgs(this.lowering);
    const element = e.args[0]!.type.kind === 'array' ? e.args[0]!.type.element : e.type;
    const bool = scalarOf(element) === 'bool';
    const predicate = e.fn !== 'jointReduce';
    const type = bool || predicate ? U32 : element;
    const op: Combiner = predicate
      ? e.fn === 'jointAll'
        ? 'bitAnd'
        : 'bitOr'
      : e.operator === 'logicalAnd'
        ? 'bitAnd'
        : e.operator === 'logicalOr'
          ? 'bitOr'
          : e.operator!;
    const t = this.types.type(type, 'group');
    const key = `${kernel.launchName}|${e.fn}|${op}|${e.comparison}|${array.name}|${extra !== undefined}`;
    let name = this.#helpers.get(key)?.name;
    if (!name) {
      name = this.namer.call(
        `${HELPER_PREFIX}${kernel.launchName}_${e.fn}${predicate ? '' : `_${op}`}_${array.name}`,
      );
      const parts = new Parts(this, kernel, type, t, op, size);
      const reduce = this.#helper(kernel, 'workgroup', 'reduce', op, type, false, size);
      const read = e.comparison
        ? `select(0u, 1u, ${array.name}[i] ${e.comparison} v)`
        : bool
          ? `select(0u, 1u, ${array.name}[i])`
          : `${array.name}[i]`;
      // The compared value has the (numeric) element type.
      const params = [
        ...(extra === undefined
          ? []
          : [e.comparison ? `v: ${this.types.type(element, 'group')}` : `init: ${t}`]),
        contextParams(this.lowering),
      ];
      const text = [
        `fn ${name}(${params.join(', ')}) -> ${t} {`,
        // Elements written just before the call are seen.
        '  workgroupBarrier();',
        `  var x = ${parts.identity()};`,
        `  for (var i = li; i < ${array.length}; i += ${size}) { x = ${parts.combine('x', read)}; }`,
        `  let r = ${reduce}(x, ${contextInside(this.lowering)});`,
        `  return ${extra !== undefined && !e.comparison ? parts.combine('init', 'r') : 'r'};`,
        '}',
      ].join('\n');
      this.#helpers.set(key, { name, text });
    }
    const value = (v: string) => (bool && !e.comparison ? `select(0u, 1u, ${v})` : v);
    const call = `${name}(${[...(extra === undefined ? [] : [value(extra)]), context].join(', ')})`;
    if (e.fn === 'jointNone') return `(${call} == 0u)`;
    return bool || predicate ? `(${call} != 0u)` : call;
  }

  /**
   * A joint scan from `input` into `output` (the same length): the array in chunks of N
   * elements, each scanned by the work-group's scan and put after the carry of the chunks
   * before it, the carry then extended by the chunk's total (the last item's inclusive value,
   * broadcast). `init` is printed.
   */
  jointScan(
    kernel: LinkedKernel,
    s: UpdateStmt<SymbolicId> & { kind: 'jointScan' },
    input: JointArray,
    output: JointArray,
    init: string | null,
    size: string,
  ): string {
    const context = contextArgs(this.lowering);
    const element = s.input.type.kind === 'array' ? s.input.type.element : s.input.type;
    const bool = scalarOf(element) === 'bool';
    const type = bool ? U32 : element;
    const op: Combiner =
      s.operator === 'logicalAnd' ? 'bitAnd' : s.operator === 'logicalOr' ? 'bitOr' : s.operator;
    const t = this.types.type(type, 'group');
    const key = `${kernel.launchName}|joint_${s.fn}|${op}|${input.name}|${output.name}|${init !== null}`;
    let name = this.#helpers.get(key)?.name;
    if (!name) {
      name = this.namer.call(
        `${HELPER_PREFIX}${kernel.launchName}_${s.fn === 'exclusiveScan' ? 'jointExclusiveScan' : 'jointInclusiveScan'}_${op}_${input.name}${input.name === output.name ? '' : `_${output.name}`}`,
      );
      const parts = new Parts(this, kernel, type, t, op, size);
      const scan = this.#helper(kernel, 'workgroup', s.fn, op, type, false, size);
      // The chunk's total: the last item's inclusive value (items past the end add the identity).
      const broadcast = this.#helper(kernel, 'workgroup', 'broadcast', null, type, false, size);
      const inside = contextInside(this.lowering);
      const last = s.fn === 'inclusiveScan' ? 'part' : parts.combine('part', 'x');
      const n = input.length;
      const load = bool ? `select(0u, 1u, ${input.name}[i])` : `${input.name}[i]`;
      const combined = parts.combine('carry', 'part');
      const text = [
        `fn ${name}(${[...(init === null ? [] : [`init: ${t}`]), contextParams(this.lowering)].join(', ')}) {`,
        // Elements written just before the call are seen.
        '  workgroupBarrier();',
        `  var carry = ${init === null ? parts.identity() : 'init'};`,
        `  for (var base = 0u; base < ${n}; base += ${size}) {`,
        '    let i = base + li;',
        `    var x = ${parts.identity()};`,
        `    if (i < ${n}) { x = ${load}; }`,
        `    let part = ${scan}(x, ${inside});`,
        `    let total = ${broadcast}(${last}, ${size} - 1u, ${inside});`,
        `    if (i < ${n}) { ${output.name}[i] = ${bool ? `${combined} != 0u` : combined}; }`,
        `    carry = ${parts.combine('carry', 'total')};`,
        '  }',
        // The output is seen by every item after the call.
        '  workgroupBarrier();',
        '}',
      ].join('\n');
      this.#helpers.set(key, { name, text });
    }
    const value = init === null ? [] : [bool ? `select(0u, 1u, ${init})` : init];
    return `${name}(${[...value, context].join(', ')})`;
  }

  #helper(
    kernel: LinkedKernel,
    scope: GroupScope,
    fn: GroupFunction,
    op: Combiner | null,
    type: DataType,
    init: boolean,
    size: string,
  ): string {
    const t = this.types.type(type, 'group');
    const key = `${kernel.launchName}|${scope}|${fn}|${op}|${t}|${init}`;
    const known = this.#helpers.get(key);
    if (known) return known.name;
    const name = this.namer.call(
      `${HELPER_PREFIX}${kernel.launchName}_${scope}_${fn}${op ? `_${op}` : ''}_${t.replace(/\W+/g, '')}`,
    );
    const parts = new Parts(this, kernel, type, t, op, size);
    const body =
      scope === 'subgroup'
        ? this.lowering === 'subgroups'
          ? parts.subgroupNative(fn)
          : parts.subgroupInWorkgroup(fn)
        : this.lowering === 'subgroups'
          ? parts.workgroupWithSubgroups(fn)
          : parts.workgroupOnly(fn);
    const params = [
      `x: ${t}`,
      ...(init ? [`init: ${t}`] : []),
      ...(fn === 'reduce' || fn.endsWith('Scan') ? [] : ['k: u32']),
      contextParams(this.lowering),
    ];
    const result = init ? parts.combine('init', 'r') : 'r';
    const text = [
      `fn ${name}(${params.join(', ')}) -> ${t} {`,
      ...body.map((line) => `  ${line}`),
      `  return ${result};`,
      '}',
    ].join('\n');
    this.#helpers.set(key, { name, text });
    return name;
  }

  /** The kernel's workgroup array of `t`, N elements. */
  scratch(kernel: LinkedKernel, t: string, size: string): string {
    const key = `${kernel.launchName}|${t}`;
    const known = this.#scratch.get(key);
    if (known) return known.name;
    const name = this.namer.call(
      `${HELPER_PREFIX}${kernel.launchName}_scratch_${t.replace(/\W+/g, '')}`,
    );
    this.#scratch.set(key, { name, text: `var<workgroup> ${name}: array<${t}, ${size}>;` });
    return name;
  }

  /** An f32 from its bits, through a call: WGSL refuses infinities in constant expressions. */
  bits(): string {
    this.#bits ??= this.namer.call(`${HELPER_PREFIX}f32_from_bits`);
    return this.#bits;
  }

  /** The helper of the sub-group function `fn` (for a work-group's helper built on it). */
  subgroupHelper(
    kernel: LinkedKernel,
    fn: GroupFunction,
    op: Combiner,
    type: DataType,
    size: string,
  ): string {
    return this.#helper(kernel, 'subgroup', fn, op, type, false, size);
  }
}

const U32: DataType = { kind: 'scalar', scalar: 'u32' };

/** The emulated sub-group size: the kernel's required one, else min(32, N). */
function fallbackSize(kernel: LinkedKernel, size: string): string {
  const required = kernel.decl.subGroupSize;
  if (required !== undefined) return `${required}u`;
  const n = /^(\d+)u$/.exec(size);
  return n ? `${Math.min(32, Number(n[1]))}u` : `min(32u, ${size})`;
}

/** The lines of one helper's body; each leaves its result in `r`. */
class Parts {
  constructor(
    private readonly printer: GroupPrinter,
    private readonly kernel: LinkedKernel,
    private readonly type: DataType,
    private readonly t: string,
    private readonly op: Combiner | null,
    private readonly size: string,
  ) {}

  combine(a: string, b: string): string {
    const i32 = scalarOf(this.type) === 'i32';
    switch (this.op!) {
      case 'plus':
        return `(${a} + ${b})`;
      case 'multiplies':
        return `(${a} * ${b})`;
      case 'minimum':
        return i32
          ? `${this.printer.builtins.call('i32_min', this.type)}(${a}, ${b})`
          : `min(${a}, ${b})`;
      case 'maximum':
        return i32
          ? `${this.printer.builtins.call('i32_max', this.type)}(${a}, ${b})`
          : `max(${a}, ${b})`;
      case 'bitAnd':
        return `(${a} & ${b})`;
      case 'bitOr':
        return `(${a} | ${b})`;
      case 'bitXor':
        return `(${a} ^ ${b})`;
    }
  }

  identity(): string {
    const s = scalarOf(this.type);
    const value = groupIdentity(this.op!, s);
    return typeof value === 'number' && !Number.isFinite(value)
      ? `${this.t}(${this.printer.bits()}(${infinityBits(value)}u))`
      : `${this.t}(${literal(value, s)})`;
  }

  /** Sub-groups of the device. `lr`: the items in this sub-group. */
  subgroupNative(fn: GroupFunction): string[] {
    const lr = `let lr = min(ss, ${this.size} - si * ss);`;
    switch (fn) {
      case 'reduce':
        return [`let r = ${SUBGROUP_REDUCE[this.op!]}(x);`];
      case 'inclusiveScan':
        if (this.op === 'plus') return ['let r = subgroupInclusiveAdd(x);'];
        if (this.op === 'multiplies') return ['let r = subgroupInclusiveMul(x);'];
        return this.#shuffleScan('r');
      case 'exclusiveScan':
        if (this.op === 'plus') return ['let r = subgroupExclusiveAdd(x);'];
        if (this.op === 'multiplies') return ['let r = subgroupExclusiveMul(x);'];
        return [
          ...this.#shuffleScan('v'),
          'let up = subgroupShuffleUp(v, 1u);',
          `let r = select(up, ${this.identity()}, sl == 0u);`,
        ];
      case 'broadcast':
      case 'select':
        return [lr, 'let r = subgroupShuffle(x, select(sl, k, k < lr));'];
      case 'shiftLeft':
        return [lr, 'let r = subgroupShuffle(x, select(sl, sl + k, k < lr - sl));'];
      case 'shiftRight':
        return ['let r = subgroupShuffle(x, select(sl, sl - k, k <= sl));'];
      case 'permuteXor':
        return [lr, 'let j = sl ^ k;', 'let r = subgroupShuffle(x, select(sl, j, j < lr));'];
      default:
        throw new Error(`group function ${fn} has no sub-group helper`);
    }
  }

  /** Hillis-Steele over the sub-group, by shuffles (WGSL scans only add and multiply). */
  #shuffleScan(v: string): string[] {
    return [
      `var ${v} = x;`,
      'for (var d = 1u; d < ss; d = d << 1u) {',
      `  let y = subgroupShuffleUp(${v}, d);`,
      `  if (sl >= d) { ${v} = ${this.combine('y', v)}; }`,
      '}',
    ];
  }

  /** Sub-groups kept in workgroup memory: runs of min(32, N) items. */
  subgroupInWorkgroup(fn: GroupFunction): string[] {
    const s = fallbackSize(this.kernel, this.size);
    const m = this.printer.scratch(this.kernel, this.t, this.size);
    const c = (a: string, b: string) => this.combine(a, b);
    const compute = (): string[] => {
      switch (fn) {
        case 'reduce':
          return [
            `var r = ${m}[base];`,
            `for (var i = 1u; i < lr; i++) { r = ${c('r', `${m}[base + i]`)}; }`,
          ];
        case 'inclusiveScan':
          return [
            `var r = ${m}[base];`,
            `for (var i = 1u; i <= sl; i++) { r = ${c('r', `${m}[base + i]`)}; }`,
          ];
        case 'exclusiveScan':
          return [
            `var r = ${this.identity()};`,
            `for (var i = 0u; i < sl; i++) { r = ${c('r', `${m}[base + i]`)}; }`,
          ];
        case 'broadcast':
        case 'select':
          return [`let r = ${m}[base + select(sl, k, k < lr)];`];
        case 'shiftLeft':
          return [`let r = ${m}[base + select(sl, sl + k, k < lr - sl)];`];
        case 'shiftRight':
          return [`let r = ${m}[base + select(sl, sl - k, k <= sl)];`];
        case 'permuteXor':
          return ['let j = sl ^ k;', `let r = ${m}[base + select(sl, j, j < lr)];`];
        default:
          throw new Error(`group function ${fn} has no sub-group helper`);
      }
    };
    return [
      `let base = li / ${s} * ${s};`,
      'let sl = li - base;',
      `let lr = min(${s}, ${this.size} - base);`,
      `${m}[li] = x;`,
      'workgroupBarrier();',
      ...compute(),
      'workgroupBarrier();',
    ];
  }

  /** A work-group's function on sub-groups: each sub-group's part, combined in workgroup memory. */
  workgroupWithSubgroups(fn: GroupFunction): string[] {
    if (fn === 'broadcast') return this.workgroupOnly(fn);
    const m = this.printer.scratch(this.kernel, this.t, this.size);
    const reduce = this.printer.subgroupHelper(
      this.kernel,
      'reduce',
      this.op!,
      this.type,
      this.size,
    );
    const context = contextInside('subgroups');
    const lines = [
      `let part = ${reduce}(x, ${context});`,
      `if (sl == 0u) { ${m}[si] = part; }`,
      'workgroupBarrier();',
    ];
    if (fn === 'reduce') {
      // One item combines the parts, and every item reads its result uniformly.
      return [
        ...lines,
        'if (li == 0u) {',
        `  var t = ${m}[0];`,
        `  for (var i = 1u; i < sc; i++) { t = ${this.combine('t', `${m}[i]`)}; }`,
        `  ${m}[0] = t;`,
        '}',
        `let r = workgroupUniformLoad(&${m}[0]);`,
      ];
    }
    const scan = this.printer.subgroupHelper(this.kernel, fn, this.op!, this.type, this.size);
    return [
      ...lines,
      `var before = ${this.identity()};`,
      `for (var i = 0u; i < si; i++) { before = ${this.combine('before', `${m}[i]`)}; }`,
      'workgroupBarrier();',
      `let r = ${this.combine('before', `${scan}(x, ${context})`)};`,
    ];
  }

  /** A work-group's function in workgroup memory: a tree for reduce, Hillis-Steele for scans. */
  workgroupOnly(fn: GroupFunction): string[] {
    const m = this.printer.scratch(this.kernel, this.t, this.size);
    const n = this.size;
    const start = [`${m}[li] = x;`, 'workgroupBarrier();'];
    switch (fn) {
      case 'reduce': {
        // The tree's first stride, the largest power of two below N: a literal where N is one
        // (the driver can unroll the loop), else found at run time from a copy of N, which keeps
        // the arithmetic out of constant evaluation.
        const literal = /^(\d+)u$/.exec(n);
        const first = literal ? 2 ** Math.ceil(Math.log2(Number(literal[1]))) / 2 : null;
        const stride =
          first === null
            ? [`var n = ${n};`, 'var s = 1u;', 'while (s * 2u < n) { s = s * 2u; }']
            : [`const n = ${n};`, `var s = ${Math.floor(first)}u;`];
        return [
          ...start,
          ...stride,
          'for (; s > 0u; s = s >> 1u) {',
          `  if (li < s && li + s < n) { ${m}[li] = ${this.combine(`${m}[li]`, `${m}[li + s]`)}; }`,
          '  workgroupBarrier();',
          '}',
          `let r = workgroupUniformLoad(&${m}[0]);`,
        ];
      }
      case 'inclusiveScan':
      case 'exclusiveScan':
        return [
          ...start,
          `for (var d = 1u; d < ${n}; d = d << 1u) {`,
          `  var y = ${m}[li];`,
          `  if (li >= d) { y = ${this.combine(`${m}[li - d]`, 'y')}; }`,
          '  workgroupBarrier();',
          `  ${m}[li] = y;`,
          '  workgroupBarrier();',
          '}',
          ...(fn === 'inclusiveScan'
            ? [`let r = ${m}[li];`]
            : [`var r = ${this.identity()};`, `if (li > 0u) { r = ${m}[li - 1u]; }`]),
          'workgroupBarrier();',
        ];
      case 'broadcast':
        return [`${m}[li] = x;`, `let r = workgroupUniformLoad(&${m}[min(k, ${n} - 1u)]);`];
      default:
        throw new Error(`group function ${fn} has no work-group helper`);
    }
  }
}
