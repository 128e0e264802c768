/**
 * Work-groups and sub-groups: `item.getGroup()` and `item.getSubGroup()` (bound with `const`
 * or passed straight on), their id and range queries, and SYCL's group functions over them.
 */
import {
  type DataType,
  GROUP_FUNCTIONS,
  GROUP_OPERATORS,
  type GroupFunctionName,
  type GroupOperatorName,
  JOINT_COMPARISONS,
  type JointComparison,
} from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import type {
  Expr,
  GroupFunction,
  GroupScope,
  ItemQuery,
  UpdateStmt,
} from '../../ir/device-code.js';
import type { WorkgroupArrayDecl } from '../../ir/device-object.js';
import { type Expression, methodOf, unwrap } from '../ast.js';
import { BOOL, scalarOf, typeName, U32 } from '../resolver/types.js';
import {
  constantOf,
  fail,
  type Lowering,
  type Node,
  spanOf,
  textOf,
  topEntity,
} from './context.js';
import { lowerValue, lowerValueOf } from './expressions.js';

export const GROUP_FUNCTION_NAMES: ReadonlySet<string> = new Set(GROUP_FUNCTIONS);
export const GROUP_OPERATOR_NAMES: ReadonlySet<string> = new Set(GROUP_OPERATORS);

/** `item.getGroup()` or `item.getSubGroup()`: the group it gives, else null (not such a call). */
export function groupCall(cx: Lowering, node: Expression): GroupScope | null {
  const call = unwrap(node);
  if (call.type !== 'CallExpression' || call.arguments.length !== 0) return null;
  const m = methodOf(call.callee);
  if (m?.object.type !== 'Identifier' || cx.scopes.lookup(m.object.name)?.kind !== 'item') {
    return null;
  }
  return m.method === 'getGroup' ? 'workgroup' : m.method === 'getSubGroup' ? 'subgroup' : null;
}

/** `const g = item.getGroup()`: binds `name` to the group; false when `init` is no such call. */
export function declareGroup(cx: Lowering, name: string, init: Expression, node: Node): boolean {
  const scope = groupCall(cx, init);
  if (!scope) return false;
  if (!cx.kernel?.nd) {
    fail(cx, init, msg.groupsNeedNdRange(textOf(cx, init)));
  } else if (!cx.scopes.declare(name, { kind: 'group', scope })) {
    fail(cx, node, msg.alreadyDeclared(name));
  }
  return true;
}

/** The group a group function's first argument names. */
function groupArgument(cx: Lowering, node: Expression, fn: string): GroupScope | null {
  const direct = groupCall(cx, node);
  if (direct) return direct;
  const arg = unwrap(node);
  if (arg.type === 'Identifier') {
    const b = cx.scopes.lookup(arg.name);
    if (b?.kind === 'group') return b.scope;
  }
  return fail(cx, node, msg.notAGroup(fn, textOf(cx, node)));
}

const WORKGROUP_QUERIES: ReadonlyMap<string, ItemQuery> = new Map([
  ['getGroupId', 'groupId'],
  ['getLocalId', 'localId'],
  ['getLocalRange', 'localRange'],
  ['getGroupRange', 'groupRange'],
  ['getGroupLinearId', 'groupLinearId'],
  ['getLocalLinearId', 'localLinearId'],
  ['getLocalLinearRange', 'localLinearRange'],
  ['getGroupLinearRange', 'groupLinearRange'],
]);

const SUBGROUP_QUERIES: ReadonlyMap<string, ItemQuery> = new Map([
  ['getGroupId', 'subGroupId'],
  ['getLocalId', 'subGroupLocalId'],
  ['getLocalRange', 'subGroupLocalRange'],
  ['getMaxLocalRange', 'subGroupMaxLocalRange'],
  ['getGroupRange', 'subGroupRange'],
  ['getGroupLinearId', 'subGroupId'],
  ['getLocalLinearId', 'subGroupLocalId'],
  ['getLocalLinearRange', 'subGroupLocalRange'],
  ['getGroupLinearRange', 'subGroupRange'],
]);

const PER_DIMENSION: ReadonlySet<ItemQuery> = new Set([
  'groupId',
  'localId',
  'localRange',
  'groupRange',
]);

/** `g.getLocalId(0)`, `sg.getLocalRange()`, `g.leader()`, ... */
export function lowerGroupQuery(
  cx: Lowering,
  scope: GroupScope,
  method: string,
  args: readonly Expression[],
  node: CallExpression,
): Expr | null {
  const span = spanOf(cx, node);
  const queries = scope === 'workgroup' ? WORKGROUP_QUERIES : SUBGROUP_QUERIES;
  if (method === 'leader') {
    if (args.length !== 0) return fail(cx, node, msg.takesNoArgument(method));
    const id: ItemQuery = scope === 'workgroup' ? 'localLinearId' : 'subGroupLocalId';
    return {
      op: 'binary',
      operator: '==',
      left: { op: 'item', query: id, dimension: 0, type: U32, span },
      right: { op: 'literal', value: 0, type: U32, span },
      type: BOOL,
      span,
    };
  }
  const query = queries.get(method);
  if (!query) {
    return fail(cx, node.callee, msg.noGroupMethod(scope, method, [...queries.keys(), 'leader']));
  }
  if (!PER_DIMENSION.has(query)) {
    if (args.length !== 0) return fail(cx, node, msg.takesNoArgument(method));
    return { op: 'item', query, dimension: 0, type: U32, span };
  }
  const dims = cx.kernel!.dimensions;
  const c = args.length === 1 ? constantOf(cx, args[0]!) : null;
  if (
    c?.kind !== 'number' ||
    c.float ||
    !Number.isInteger(c.value) ||
    c.value < 0 ||
    c.value >= dims
  ) {
    return fail(cx, args[0] ?? node, msg.dimensionArgument(method, dims));
  }
  return { op: 'item', query, dimension: c.value, type: U32, span };
}

/** The joint algorithms, over a workgroup array. */
type JointName = Extract<GroupFunctionName, `joint${string}`>;

/** What each DSL group function is in the IR. */
const FUNCTIONS: Readonly<
  Record<Exclude<GroupFunctionName, 'groupBarrier' | JointName>, GroupFunction>
> = {
  reduceOverGroup: 'reduce',
  exclusiveScanOverGroup: 'exclusiveScan',
  inclusiveScanOverGroup: 'inclusiveScan',
  groupBroadcast: 'broadcast',
  anyOfGroup: 'any',
  allOfGroup: 'all',
  noneOfGroup: 'none',
  shiftGroupLeft: 'shiftLeft',
  shiftGroupRight: 'shiftRight',
  permuteGroupByXor: 'permuteXor',
  selectFromGroup: 'select',
};

const SUBGROUP_ONLY: ReadonlySet<GroupFunction> = new Set([
  'shiftLeft',
  'shiftRight',
  'permuteXor',
  'select',
]);

/** The scalars each operator combines (vectors of them too, except bool). */
const OPERATOR_SCALARS: Readonly<Record<GroupOperatorName, readonly string[]>> = {
  plus: ['i32', 'u32', 'f32'],
  multiplies: ['i32', 'u32', 'f32'],
  minimum: ['i32', 'u32', 'f32'],
  maximum: ['i32', 'u32', 'f32'],
  bitAnd: ['i32', 'u32'],
  bitOr: ['i32', 'u32'],
  bitXor: ['i32', 'u32'],
  logicalAnd: ['bool'],
  logicalOr: ['bool'],
};

/** Whether `operator` combines values of `type` (bool for the logical ones, numbers for the rest). */
export function operatorCombines(operator: GroupOperatorName, type: DataType): boolean {
  return OPERATOR_SCALARS[operator].includes(scalarOf(type) ?? '');
}

/** Whether group functions take values of `type`: i32, u32, f32 scalars and vectors, bool. */
function groupValueType(type: DataType): boolean {
  const s = scalarOf(type);
  return (
    (type.kind === 'scalar' && s !== 'f16') ||
    (type.kind === 'vector' && s !== 'bool' && s !== 'f16')
  );
}

/** A call of a group function (other than `groupBarrier`, a statement). */
export function lowerGroupFunction(
  cx: Lowering,
  name: GroupFunctionName,
  args: readonly Expression[],
  node: CallExpression,
  expected?: DataType,
): Expr | null {
  if (name === 'groupBarrier') return fail(cx, node, msg.barrierAsValue());
  if (name.startsWith('joint')) return lowerJointFunction(cx, name as JointName, args, node);
  const fn = FUNCTIONS[name as Exclude<GroupFunctionName, 'groupBarrier' | JointName>];
  const span = spanOf(cx, node);
  if (!cx.kernel?.nd) return fail(cx, node, msg.groupsNeedNdRange(name));
  const scans = fn === 'reduce' || fn === 'exclusiveScan' || fn === 'inclusiveScan';
  const predicate = fn === 'any' || fn === 'all' || fn === 'none';
  const arities = scans
    ? [3, 4]
    : predicate
      ? [2]
      : fn === 'broadcast'
        ? [2, 3]
        : fn.startsWith('shift')
          ? [2, 3]
          : [3];
  if (!arities.includes(args.length))
    return fail(cx, node, msg.groupFunctionArguments(name, arities, args.length));
  const scope = groupArgument(cx, args[0]!, name);
  if (!scope) return null;
  if (scope === 'workgroup' && SUBGROUP_ONLY.has(fn)) {
    return fail(cx, args[0]!, msg.subGroupOnly(name));
  }
  if (predicate) {
    const p = lowerValueOf(cx, args[1]!, BOOL, { kind: 'argument', position: 2, callee: name });
    return (
      p && {
        op: 'group',
        scope,
        fn,
        operator: null,
        comparison: null,
        args: [p],
        type: BOOL,
        span,
      }
    );
  }
  const x = lowerValue(cx, args[1]!, expected);
  if (!x) return null;
  if (!groupValueType(x.type)) return fail(cx, args[1]!, msg.groupValueType(name, x.type));
  if (!scans) {
    const index =
      args[2] === undefined
        ? ({ op: 'literal', value: fn === 'broadcast' ? 0 : 1, type: U32, span } as const)
        : lowerValueOf(cx, args[2], U32, { kind: 'argument', position: 3, callee: name });
    return (
      index && {
        op: 'group',
        scope,
        fn,
        operator: null,
        comparison: null,
        args: [x, index],
        type: x.type,
        span,
      }
    );
  }
  // inclusiveScanOverGroup(g, x, op, init); the others (g, x, init, op).
  const opIndex = args.length === 3 || fn === 'inclusiveScan' ? 2 : 3;
  const operator = groupOperator(cx, args[opIndex]!, name);
  if (!operator) return null;
  if (!operatorCombines(operator, x.type)) {
    return fail(cx, args[1]!, msg.groupOperatorType(name, operator, x.type));
  }
  const out: Expr[] = [x];
  if (args.length === 4) {
    const initNode = args[opIndex === 2 ? 3 : 2]!;
    const init = lowerValueOf(cx, initNode, x.type, {
      kind: 'argument',
      position: opIndex === 2 ? 4 : 3,
      callee: name,
    });
    if (!init) return null;
    out.push(init);
  }
  return { op: 'group', scope, fn, operator, comparison: null, args: out, type: x.type, span };
}

function groupOperator(cx: Lowering, node: Expression, fn: string): GroupOperatorName | null {
  const entity = topEntity(cx, unwrap(node));
  if (entity?.kind === 'dsl' && GROUP_OPERATOR_NAMES.has(entity.name)) {
    return entity.name as GroupOperatorName;
  }
  return fail(cx, node, msg.notAGroupOperator(fn, textOf(cx, node)));
}

/** `groupBarrier(g)`: a work-group barrier. */
export function lowerGroupBarrier(
  cx: Lowering,
  args: readonly Expression[],
  node: CallExpression,
): UpdateStmt | null {
  if (!cx.kernel?.nd) return fail(cx, node, msg.groupsNeedNdRange('groupBarrier'));
  if (args.length !== 1)
    return fail(cx, node, msg.groupFunctionArguments('groupBarrier', [1], args.length));
  const scope = groupArgument(cx, args[0]!, 'groupBarrier');
  if (!scope) return null;
  if (scope === 'subgroup') return fail(cx, args[0]!, msg.subGroupBarrier());
  return { kind: 'barrier', scope: 'workgroup', span: spanOf(cx, node) };
}

/** What the joint algorithms that give a value are in the IR. */
const JOINT_FUNCTIONS: Readonly<
  Record<Exclude<JointName, 'jointExclusiveScan' | 'jointInclusiveScan'>, GroupFunction>
> = {
  jointReduce: 'jointReduce',
  jointAnyOf: 'jointAny',
  jointAllOf: 'jointAll',
  jointNoneOf: 'jointNone',
};

const JOINT_COMPARISON_SET: ReadonlySet<string> = new Set(JOINT_COMPARISONS);

/** A joint algorithm's workgroup array: its IR expression and its declaration. */
interface JointArray {
  readonly expr: Expr & { op: 'workgroupArray' };
  readonly decl: WorkgroupArrayDecl;
}

/** The declaration a workgroup array argument names: `tile` or `local.tile`. */
function arrayDecl(cx: Lowering, node: Expression): WorkgroupArrayDecl | null {
  const n = unwrap(node);
  if (n.type === 'Identifier') {
    const b = cx.scopes.lookup(n.name);
    return b?.kind === 'workgroupArray' ? b.decl : null;
  }
  if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier') {
    const root = unwrap(n.object);
    const b = root.type === 'Identifier' ? cx.scopes.lookup(root.name) : undefined;
    const member = b?.kind === 'members' ? b.members.get(n.property.name) : undefined;
    return member?.kind === 'workgroupArray' ? member.decl : null;
  }
  return null;
}

function jointArray(cx: Lowering, node: Expression, fn: string): JointArray | null {
  const e = lowerValue(cx, node);
  if (!e) return null;
  const decl = e.op === 'workgroupArray' ? arrayDecl(cx, node) : null;
  if (e.op !== 'workgroupArray' || !decl) {
    return fail(cx, node, msg.jointNotAnArray(fn, textOf(cx, node)));
  }
  if (!groupValueType(decl.element)) return fail(cx, node, msg.jointArrayType(fn, decl.element));
  return { expr: e, decl };
}

/** The start of every joint algorithm: an nd-range kernel, the arity, the work-group. */
function jointStart(
  cx: Lowering,
  name: JointName,
  args: readonly Expression[],
  node: CallExpression,
  arities: readonly number[],
): boolean {
  const problem: [Node, Message] | null = !cx.kernel?.nd
    ? [node, msg.groupsNeedNdRange(name)]
    : !arities.includes(args.length)
      ? [node, msg.groupFunctionArguments(name, arities, args.length)]
      : null;
  if (problem) {
    fail(cx, ...problem);
    return false;
  }
  const scope = groupArgument(cx, args[0]!, name);
  if (scope === 'subgroup') fail(cx, args[0]!, msg.jointOverSubGroup(name));
  return scope === 'workgroup';
}

/** `jointReduce`, `jointAnyOf`, `jointAllOf`, `jointNoneOf` (the scans are statements). */
function lowerJointFunction(
  cx: Lowering,
  name: JointName,
  args: readonly Expression[],
  node: CallExpression,
): Expr | null {
  if (name === 'jointExclusiveScan' || name === 'jointInclusiveScan') {
    return fail(cx, node, msg.jointScanAsValue(name));
  }
  const fn = JOINT_FUNCTIONS[name];
  const span = spanOf(cx, node);
  const reduce = fn === 'jointReduce';
  if (!jointStart(cx, name, args, node, reduce ? [3, 4] : [2, 4])) return null;
  const array = jointArray(cx, args[1]!, name);
  if (!array) return null;
  const element = array.decl.element;
  if (reduce) {
    // jointReduce(g, array, op) or (g, array, init, op).
    const opNode = args[args.length - 1]!;
    const operator = groupOperator(cx, opNode, name);
    if (!operator) return null;
    if (!OPERATOR_SCALARS[operator].includes(scalarOf(element) ?? '')) {
      return fail(cx, args[1]!, msg.groupOperatorType(name, operator, element));
    }
    const out: Expr[] = [array.expr];
    if (args.length === 4) {
      const init = lowerValueOf(cx, args[2]!, element, {
        kind: 'argument',
        position: 3,
        callee: name,
      });
      if (!init) return null;
      out.push(init);
    }
    return {
      op: 'group',
      scope: 'workgroup',
      fn,
      operator,
      comparison: null,
      args: out,
      type: element,
      span,
    };
  }
  // jointAnyOf(g, flags) over bool, or (g, array, comparison, value) over i32, u32, f32.
  const compared = args.length === 4;
  const bool = element.kind === 'scalar' && element.scalar === 'bool';
  const numeric = element.kind === 'scalar' && !bool;
  if (compared ? !numeric : !bool) {
    return fail(cx, args[1]!, msg.jointPredicateArray(name, element, compared));
  }
  if (!compared) {
    return {
      op: 'group',
      scope: 'workgroup',
      fn,
      operator: null,
      comparison: null,
      args: [array.expr],
      type: BOOL,
      span,
    };
  }
  const c = unwrap(args[2]!);
  if (c.type !== 'Literal' || typeof c.value !== 'string' || !JOINT_COMPARISON_SET.has(c.value)) {
    return fail(cx, args[2]!, msg.jointComparison(name, textOf(cx, args[2]!)));
  }
  const value = lowerValueOf(cx, args[3]!, element, {
    kind: 'argument',
    position: 4,
    callee: name,
  });
  if (!value) return null;
  return {
    op: 'group',
    scope: 'workgroup',
    fn,
    operator: null,
    comparison: c.value as JointComparison,
    args: [array.expr, value],
    type: BOOL,
    span,
  };
}

/** Whether two workgroup arrays have one length: the same literal, or the same factors. */
function sameLength(a: WorkgroupArrayDecl, b: WorkgroupArrayDecl): boolean {
  const shape = (d: WorkgroupArrayDecl) =>
    JSON.stringify(d.length, (key, value) => (key === 'span' ? undefined : value));
  return shape(a) === shape(b);
}

/**
 * `jointExclusiveScan(g, input, output, op)` / `(g, input, output, init, op)` and
 * `jointInclusiveScan(g, input, output, op)` / `(g, input, output, op, init)`: a statement.
 */
export function lowerJointScan(
  cx: Lowering,
  name: 'jointExclusiveScan' | 'jointInclusiveScan',
  args: readonly Expression[],
  node: CallExpression,
): UpdateStmt | null {
  if (!jointStart(cx, name, args, node, [4, 5])) return null;
  const input = jointArray(cx, args[1]!, name);
  const output = input && jointArray(cx, args[2]!, name);
  if (!input || !output) return null;
  const element = input.decl.element;
  const inputType = workgroupArrayText(cx, args[1]!, input.decl);
  const outputType = workgroupArrayText(cx, args[2]!, output.decl);
  if (
    JSON.stringify(element) !== JSON.stringify(output.decl.element) ||
    !sameLength(input.decl, output.decl)
  ) {
    return fail(cx, args[2]!, msg.jointScanArrays(name, inputType, outputType));
  }
  const fn = name === 'jointExclusiveScan' ? 'exclusiveScan' : 'inclusiveScan';
  // The inclusive scan takes (op, init), the exclusive one (init, op), as SYCL's do.
  const opIndex = args.length === 4 || fn === 'inclusiveScan' ? 3 : 4;
  const operator = groupOperator(cx, args[opIndex]!, name);
  if (!operator) return null;
  if (!OPERATOR_SCALARS[operator].includes(scalarOf(element) ?? '')) {
    return fail(cx, args[1]!, msg.groupOperatorType(name, operator, element));
  }
  let init: Expr | null = null;
  if (args.length === 5) {
    const initIndex = opIndex === 3 ? 4 : 3;
    init = lowerValueOf(cx, args[initIndex]!, element, {
      kind: 'argument',
      position: initIndex + 1,
      callee: name,
    });
    if (!init) return null;
  }
  return {
    kind: 'jointScan',
    fn,
    operator,
    input: input.expr,
    output: output.expr,
    init,
    span: spanOf(cx, node),
  };
}

/** How a diagnostic names a workgroup array: `` `local.xs` (64 × f32) ``. */
function workgroupArrayText(cx: Lowering, node: Expression, decl: WorkgroupArrayDecl): string {
  const length =
    decl.length.op === 'literal' ? String(decl.length.value) : 'a specialization-constant length';
  return `\`${textOf(cx, node)}\` (${length} × ${typeName(decl.element)})`;
}
