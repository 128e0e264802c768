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
} from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type {
  Expr,
  GroupFunction,
  GroupScope,
  ItemQuery,
  UpdateStmt,
} from '../../ir/device-code.js';
import { type Expression, unwrap } from '../ast.js';
import { BOOL, scalarOf, U32 } from '../resolver/types.js';
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
  const callee = unwrap(call.callee);
  if (
    callee.type !== 'MemberExpression' ||
    callee.computed ||
    callee.property.type !== 'Identifier'
  ) {
    return null;
  }
  const object = unwrap(callee.object);
  if (object.type !== 'Identifier' || cx.scopes.lookup(object.name)?.kind !== 'item') return null;
  if (callee.property.name === 'getGroup') return 'workgroup';
  if (callee.property.name === 'getSubGroup') return 'subgroup';
  return null;
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

/** What each DSL group function is in the IR. */
const FUNCTIONS: Readonly<Record<Exclude<GroupFunctionName, 'groupBarrier'>, GroupFunction>> = {
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
  const fn = FUNCTIONS[name];
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
    return p && { op: 'group', scope, fn, operator: null, args: [p], type: BOOL, span };
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
      index && { op: 'group', scope, fn, operator: null, args: [x, index], type: x.type, span }
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
  return { op: 'group', scope, fn, operator, args: out, type: x.type, span };
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
