/**
 * Calls: device functions, DSL built-ins and math, item queries and the kernel handler.
 */
import {
  type DataType,
  type GroupFunctionName,
  sameType,
  type TextureFunctionName,
} from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import {
  BUILTINS,
  type Builtin,
  MATH_BUILTINS,
  resolveOverload,
} from '../../builtins/overloads.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expr, ItemQuery, UpdateStmt } from '../../ir/device-code.js';
import type { KernelParam, SymbolRef } from '../../ir/device-object.js';
import { type Expression, methodOf, unwrap } from '../ast.js';
import { DSL_TYPE_NAMES } from '../resolver/dsl-names.js';
import type { Entity } from '../resolver/module-scope.js';
import { F32, I32, scalarOf, scalarType, U32 } from '../resolver/types.js';
import { lowerIndexValue } from './access.js';
import { atomicParts, lowerAtomic } from './atomics.js';
import { ATOMIC_FUNCTIONS, VECTOR_OPERATORS } from './builtins.js';
import { lowerConstruct } from './composites.js';
import {
  constantOf,
  fail,
  type Lowering,
  type Node,
  spanOf,
  textOf,
  topEntity,
} from './context.js';
import {
  lowerBinary,
  lowerExpr,
  lowerUnary,
  lowerValue,
  lowerValueOf,
  splat,
} from './expressions.js';
import {
  GROUP_FUNCTION_NAMES,
  groupCall,
  lowerGroupBarrier,
  lowerGroupFunction,
  lowerGroupQuery,
  lowerJointScan,
} from './groups.js';
import { literalOf } from './literals.js';
import { lowerMatrixStatement, MATRIX_FUNCTION_NAMES, matrixFunction } from './matrices.js';
import type { LocalBinding } from './scope.js';
import {
  lowerTextureCall,
  lowerTextureMethod,
  lowerTextureStore,
  TEXTURE_FUNCTIONS,
  textureParam,
} from './textures.js';

/** A call's arguments, unless the call is optional or spreads them (both reported). */
function callArguments(cx: Lowering, node: CallExpression): Expression[] | null {
  if (node.optional) {
    return fail(cx, node, msg.optionalCall());
  }
  const args: Expression[] = [];
  for (const a of node.arguments) {
    if (a.type === 'SpreadElement') {
      return fail(cx, a, msg.spreadArgument());
    }
    args.push(a);
  }
  return args;
}

/** A call to a device function: its arguments lowered against its signature. */
function functionCall(
  cx: Lowering,
  entity: Extract<Entity, { kind: 'function' }>,
  args: readonly Expression[],
  node: CallExpression,
): { readonly callee: SymbolRef; readonly args: Expr[] } | null {
  const callee = unwrap(node.callee);
  const sig = entity.signature;
  if (args.length !== sig.params.length) {
    return fail(
      cx,
      node,
      msg.functionArguments(textOf(cx, callee), sig.params.length, args.length),
    );
  }
  const lowered: Expr[] = [];
  for (const [i, a] of args.entries()) {
    const param = sig.params[i]!;
    if (param === 'handler') {
      const arg = unwrap(a);
      if (arg.type !== 'Identifier' || cx.scopes.lookup(arg.name)?.kind !== 'handler') {
        return fail(cx, a, msg.handlerArgument(i + 1, textOf(cx, callee)));
      }
      continue;
    }
    const e = lowerValueOf(cx, a, param, { kind: 'argument', position: i + 1 });
    if (!e) return null;
    lowered.push(e);
  }
  if (entity.ref.kind === 'local') cx.calls.push({ name: entity.ref.name, node });
  return { callee: entity.ref, args: lowered };
}

/**
 * A call in statement position: a call that gives no value (a device function returning
 * nothing, `atomicStore`) is a statement of its own; any other call's value goes unused.
 */
export function lowerCallStatement(cx: Lowering, node: CallExpression): UpdateStmt | null {
  const span = spanOf(cx, node);
  const reducer = reducerCall(cx, node);
  if (reducer) {
    const { param, method } = reducer;
    if (method !== 'combine') return fail(cx, node.callee, msg.reductionMethod(param.name, method));
    if (node.arguments.length !== 1)
      return fail(cx, node, msg.builtinArguments('combine', 1, node.arguments.length));
    const index = spanIndex(cx, param, reducer.index, node);
    if (index === undefined) return null;
    const value = lowerValueOf(cx, node.arguments[0] as Expression, param.element, {
      kind: 'argument',
      position: 1,
      callee: `${param.name}${reducer.index ? '[i]' : ''}.combine`,
    });
    return value && { kind: 'combine', reduction: param.name, index, value, span };
  }
  const texture = textureMethod(cx, node);
  if (texture) {
    const args = callArguments(cx, node);
    const lowered = args && lowerTextureMethod(cx, texture.param, texture.method, args, node, true);
    if (!lowered) return null;
    return 'kind' in lowered ? lowered : { kind: 'expr', expr: lowered, span };
  }
  const entity = topEntity(cx, unwrap(node.callee));
  if (entity?.kind === 'dsl' && entity.name === 'textureStore') {
    const args = callArguments(cx, node);
    return args && lowerTextureStore(cx, args, node);
  }
  if (entity?.kind === 'function' && entity.signature.returns === null) {
    const args = callArguments(cx, node);
    const call = args && functionCall(cx, entity, args, node);
    return call && { kind: 'call', callee: call.callee, args: call.args, span };
  }
  if (entity?.kind === 'dsl' && entity.name === 'groupBarrier') {
    const args = callArguments(cx, node);
    return args && lowerGroupBarrier(cx, args, node);
  }
  if (
    entity?.kind === 'dsl' &&
    (entity.name === 'jointExclusiveScan' || entity.name === 'jointInclusiveScan')
  ) {
    const args = callArguments(cx, node);
    return args && lowerJointScan(cx, entity.name, args, node);
  }
  const matrix = matrixFunction(cx, node);
  if (matrix) {
    return matrix === 'jointMatrix'
      ? fail(cx, node, msg.matrixFunctionAsValue(matrix))
      : lowerMatrixStatement(cx, matrix, node);
  }
  if (entity?.kind === 'dsl' && entity.name === 'atomicStore') {
    const args = callArguments(cx, node);
    const parts = args && atomicParts(cx, entity.name, args, node);
    return (
      parts && { kind: 'atomicStore', pointer: parts.pointer, value: parts.operands[0]!, span }
    );
  }
  const e = lowerExpr(cx, node);
  return e && { kind: 'expr', expr: e, span };
}

export function lowerCall(cx: Lowering, node: CallExpression, expected?: DataType): Expr | null {
  const args = callArguments(cx, node);
  if (!args) return null;
  const reducer = reducerCall(cx, node);
  if (reducer) {
    return reducer.method === 'combine'
      ? fail(cx, node, msg.combineAsValue())
      : fail(cx, node.callee, msg.reductionMethod(reducer.param.name, reducer.method));
  }
  const callee = unwrap(node.callee);
  if (
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    callee.property.type === 'Identifier'
  ) {
    const method = callee.property.name;
    const object = unwrap(callee.object);
    const texture = textureParam(cx, object);
    if (texture) {
      return lowerTextureMethod(cx, texture, method, args, node, false) as Expr | null;
    }
    const group = groupCall(cx, object);
    if (group && cx.kernel?.nd) return lowerGroupQuery(cx, group, method, args, node);
    if (object.type === 'Identifier') {
      const local = cx.scopes.lookup(object.name);
      if (local?.kind === 'item') return lowerItemQuery(cx, method, args, node);
      if (local?.kind === 'group') return lowerGroupQuery(cx, local.scope, method, args, node);
      if (local?.kind === 'handler') return lowerHandlerCall(cx, method, args, node);
      if (!local && object.name === 'Math' && !cx.resolver.top.bindings.has('Math')) {
        return lowerMathCall(cx, method, args, node, expected);
      }
    }
  }
  const entity = topEntity(cx, callee);
  if (!entity) {
    return fail(cx, node.callee, msg.notCallable(textOf(cx, node.callee)));
  }
  switch (entity.kind) {
    case 'function': {
      const call = functionCall(cx, entity, args, node);
      if (!call) return null;
      const returns = entity.signature.returns;
      if (!returns) {
        return fail(cx, node, msg.returnsNothing(textOf(cx, node)));
      }
      return { op: 'call', ...call, type: returns, span: spanOf(cx, node) };
    }
    case 'type':
      return lowerConstruct(cx, entity.type, args, node);
    case 'dsl':
      return lowerDslCall(cx, entity.name, args, node, expected);
    case 'opaque':
      // A type alias that does not evaluate: its own errors, at their place.
      if (entity.badType && cx.resolver.reportBadType(entity.badType)) {
        cx.reporter.alreadyReported();
        return null;
      }
      return fail(
        cx,
        node.callee,
        msg.uncallableName(
          textOf(cx, callee),
          entity.why,
          cx.resolver.top.bindings.get(textOf(cx, callee))?.kind === 'import',
        ),
      );
    default:
      return fail(cx, node.callee, msg.declarationNotCallable(textOf(cx, callee), entity.kind));
  }
}

export function lowerDslCall(
  cx: Lowering,
  name: string,
  args: Expression[],
  node: CallExpression,
  expected?: DataType,
): Expr | null {
  const type = DSL_TYPE_NAMES.get(name);
  if (type) return lowerConstruct(cx, type, args, node);
  const operator = VECTOR_OPERATORS.get(name);
  if (operator) {
    if (args.length !== 2) return fail(cx, node, msg.takesTwoArguments(name));
    return lowerBinary(cx, operator, args[0]!, args[1]!, node, 'function', expected);
  }
  if (name === 'neg') {
    if (args.length !== 1) return fail(cx, node, msg.negArguments());
    return lowerUnary(cx, '-', args[0]!, node, 'function', expected);
  }
  if (ATOMIC_FUNCTIONS.has(name)) return lowerAtomic(cx, name, args, node);
  if (TEXTURE_FUNCTIONS.has(name)) {
    return lowerTextureCall(cx, name as TextureFunctionName, args, node);
  }
  if (GROUP_FUNCTION_NAMES.has(name)) {
    return lowerGroupFunction(cx, name as GroupFunctionName, args, node, expected);
  }
  if (MATRIX_FUNCTION_NAMES.has(name)) return fail(cx, node, msg.matrixFunctionAsValue(name));
  const builtin = BUILTINS.get(name);
  if (builtin && builtin.entry.dsl !== false) {
    return lowerBuiltin(cx, builtin, name, args, node, expected);
  }
  return fail(cx, node.callee, msg.dslNotCallable(name));
}

/**
 * Calls a built-in of the table (`shown` is how the source names it), concretising abstract
 * arguments to the generic type T, then resolving the overload from the arguments' types.
 */
export function lowerBuiltin(
  cx: Lowering,
  builtin: Builtin,
  shown: string,
  args: Expression[],
  node: Node,
  expected?: DataType,
): Expr | null {
  if (args.length !== builtin.arity) {
    return fail(cx, node, msg.builtinArguments(shown, builtin.arity, args.length));
  }
  const unified = builtin.unified;
  const lowered: (Expr | null)[] = args.map(() => null);
  let generic: DataType | undefined;
  for (const [i, a] of args.entries()) {
    if (unified.includes(i) && constantOf(cx, a)) continue;
    const concrete = builtin.concrete[i];
    const e = concrete
      ? lowerValueOf(cx, a, scalarType(concrete), {
          kind: 'argument',
          position: i + 1,
          callee: shown,
        })
      : lowerValue(cx, a, unified.includes(i) ? expected : undefined);
    if (!e) return null;
    lowered[i] = e;
    if (unified.includes(i) && !generic) generic = e.type;
  }
  for (const i of unified) {
    if (lowered[i]) continue;
    const c = constantOf(cx, args[i]!)!;
    const context =
      generic ??
      (expected && scalarOf(expected) && scalarOf(expected) !== 'bool'
        ? expected
        : scalarType(c.kind === 'number' && c.float ? 'f32' : builtin.defaultScalar));
    const target = scalarType(scalarOf(context) ?? builtin.defaultScalar);
    const e = literalOf(cx, c, target, args[i]!);
    if (!e) return null;
    lowered[i] = generic && generic.kind === 'vector' ? splat(e, generic) : e;
  }
  const final = lowered as Expr[];
  const types = final.map((e) => e.type);
  const type = resolveOverload(builtin, types);
  if (!type) return fail(cx, node, msg.noOverload(builtin, shown, types));
  return { op: 'builtin', name: builtin.wgsl, args: final, type, span: spanOf(cx, node) };
}

export function lowerMathCall(
  cx: Lowering,
  method: string,
  args: Expression[],
  node: CallExpression,
  expected?: DataType,
): Expr | null {
  const builtin = MATH_BUILTINS.get(method);
  const shown = `Math.${method}`;
  if (builtin?.entry.variadic && args.length > 2) {
    // Math.min(a, b, c) nests as min(min(a, b), c).
    let acc = lowerBuiltin(cx, builtin, shown, [args[0]!, args[1]!], node, expected);
    for (const a of args.slice(2)) {
      if (!acc) return null;
      const next = lowerValueOf(cx, a, acc.type, { kind: 'anArgument', callee: shown });
      if (!next) return null;
      acc = {
        op: 'builtin',
        name: builtin.wgsl,
        args: [acc, next],
        type: acc.type,
        span: spanOf(cx, node),
      };
    }
    return acc;
  }
  if (builtin) return lowerBuiltin(cx, builtin, shown, args, node, expected);
  switch (method) {
    case 'fround':
      return lowerConstruct(cx, F32, args, node);
    case 'imul': {
      if (args.length !== 2) return fail(cx, node, msg.takesTwoArguments('Math.imul'));
      const a = lowerValueOf(cx, args[0]!, I32, 'imulArguments');
      const b = lowerValueOf(cx, args[1]!, I32, 'imulArguments');
      if (!a || !b) return null;
      return { op: 'binary', operator: '*', left: a, right: b, type: I32, span: spanOf(cx, node) };
    }
    default:
      return fail(cx, node.callee, msg.noWgslMath(method));
  }
}

type ReductionParam = Extract<KernelParam, { kind: 'reduction' }>;

/**
 * The element a combine folds into: null for a reduction of one value, the index (a u32) into a
 * span reduction; undefined when that is wrong (reported).
 */
function spanIndex(
  cx: Lowering,
  param: ReductionParam,
  node: Expression | null,
  call: CallExpression,
): Expr | null | undefined {
  if (param.extent === null) {
    if (!node) return null;
    fail(cx, call.callee, msg.notASpan(param.name));
    return undefined;
  }
  if (!node) {
    fail(cx, call.callee, msg.spanCombineWhole(param.name));
    return undefined;
  }
  const spanned: DataType = { kind: 'array', element: param.element, length: param.extent };
  const index = lowerIndexValue(cx, node, spanned, param.extent);
  if (!index) return undefined;
  // An integer scalar (lowerIndexValue sees to it): i32 converted.
  return sameType(index.type, U32)
    ? index
    : { op: 'construct', args: [index], type: U32, span: index.span };
}

/**
 * `sum.method(...)` where `sum` is a kernel's reduction variable (bound whole or through `args`),
 * or `bins[i].method(...)` with `i` the index into a span reduction.
 */
function reducerCall(
  cx: Lowering,
  node: CallExpression,
): {
  readonly param: ReductionParam;
  readonly method: string;
  readonly index: Expression | null;
} | null {
  const m = methodOf(node.callee);
  if (!m) return null;
  const indexed = m.object.type === 'MemberExpression' && m.object.computed ? m.object : null;
  const object = indexed ? unwrap(indexed.object) : m.object;
  let binding: LocalBinding | undefined;
  if (object.type === 'Identifier') {
    binding = cx.scopes.lookup(object.name);
  } else if (
    object.type === 'MemberExpression' &&
    !object.computed &&
    object.property.type === 'Identifier' &&
    unwrap(object.object).type === 'Identifier'
  ) {
    const whole = cx.scopes.lookup((unwrap(object.object) as { name: string }).name);
    binding = whole?.kind === 'members' ? whole.members.get(object.property.name) : undefined;
  }
  return binding?.kind === 'kernelArg' && binding.param.kind === 'reduction'
    ? {
        param: binding.param,
        method: m.method,
        index: indexed ? (indexed.property as Expression) : null,
      }
    : null;
}

export function lowerItemQuery(
  cx: Lowering,
  method: string,
  args: Expression[],
  node: CallExpression,
): Expr | null {
  const k = cx.kernel!;
  const basic = new Map<string, ItemQuery>([
    ['getId', 'globalId'],
    ['getRange', 'globalRange'],
    ['getLinearId', 'globalLinearId'],
  ]);
  const nd = new Map<string, ItemQuery>([
    ['getGlobalId', 'globalId'],
    ['getGlobalRange', 'globalRange'],
    ['getLocalId', 'localId'],
    ['getLocalRange', 'localRange'],
    ['getGroup', 'groupId'],
    ['getGroupRange', 'groupRange'],
    ['getGlobalLinearId', 'globalLinearId'],
    ['getLocalLinearId', 'localLinearId'],
  ]);
  if (method === 'barrier') {
    return fail(cx, node, msg.barrierAsValue());
  }
  if (k.nd && args.length === 0 && (method === 'getGroup' || method === 'getSubGroup')) {
    return fail(cx, node, msg.groupAsValue(textOf(cx, node)));
  }
  const query = (k.nd ? nd : basic).get(method);
  if (!query) {
    const methods = k.nd ? [...nd.keys(), 'getSubGroup'] : [...basic.keys()];
    return fail(cx, node.callee, msg.noItemMethod(method, k.nd, methods));
  }
  const linear = query === 'globalLinearId' || query === 'localLinearId';
  if (linear) {
    if (args.length !== 0) return fail(cx, node, msg.takesNoArgument(method));
    return { op: 'item', query, dimension: 0, type: U32, span: spanOf(cx, node) };
  }
  const c = args.length === 1 ? constantOf(cx, args[0]!) : null;
  if (
    c?.kind !== 'number' ||
    c.float ||
    c.value < 0 ||
    c.value >= k.dimensions ||
    !Number.isInteger(c.value)
  ) {
    return fail(cx, args[0] ?? node, msg.dimensionArgument(method, k.dimensions));
  }
  return { op: 'item', query, dimension: c.value, type: U32, span: spanOf(cx, node) };
}

export function lowerHandlerCall(
  cx: Lowering,
  method: string,
  args: Expression[],
  node: CallExpression,
): Expr | null {
  if (method !== 'getSpecializationConstant') {
    return fail(cx, node.callee, msg.noHandlerMethod(method));
  }
  const id = args[0];
  const entity = id && args.length === 1 ? topEntity(cx, id) : undefined;
  if (entity?.kind !== 'specConstant') {
    return fail(
      cx,
      id ?? node,
      msg.specConstantArgument(entity?.kind === 'opaque' ? entity.why : undefined),
    );
  }
  return { op: 'specConstant', ref: entity.ref, type: entity.type, span: spanOf(cx, node) };
}

/** `t.read(...)`/`t.write(...)` and other method calls on a texture argument. */
function textureMethod(cx: Lowering, node: CallExpression) {
  const callee = unwrap(node.callee);
  if (callee.type !== 'MemberExpression' || callee.computed) return null;
  if (callee.property.type !== 'Identifier') return null;
  const param = textureParam(cx, callee.object);
  return param && { param, method: callee.property.name };
}
