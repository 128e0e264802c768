/**
 * Calls: device functions, DSL built-ins and math, item queries and the kernel handler.
 */
import type { DataType } from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import { mapChildren } from '../../ir/children.js';
import type { BinaryOperator, Expr, ItemQuery, UpdateStmt } from '../../ir/device-code.js';
import type { SymbolRef } from '../../ir/device-object.js';
import { type Expression, unwrap } from '../ast.js';
import { codes } from '../report.js';
import { DSL_TYPE_NAMES } from '../resolver/dsl-names.js';
import type { Entity } from '../resolver/module-scope.js';
import { F32, I32, scalarOf, scalarType, U32, withScalar } from '../resolver/types.js';
import { atomicParts, lowerAtomic } from './atomics.js';
import { ATOMIC_FUNCTIONS, BUILTINS, MATH_FUNCTIONS, VECTOR_OPERATORS } from './builtins.js';
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
import { literalOf } from './literals.js';

/** A call's arguments, unless the call is optional or spreads them (both reported). */
function callArguments(cx: Lowering, node: CallExpression): Expression[] | null {
  if (node.optional) {
    return fail(
      cx,
      codes.unsupportedSyntax,
      node,
      'optional calls are not supported in device code',
    );
  }
  const args: Expression[] = [];
  for (const a of node.arguments) {
    if (a.type === 'SpreadElement') {
      return fail(
        cx,
        codes.unsupportedSyntax,
        a,
        'spread arguments are not supported in device code',
      );
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
      codes.badCall,
      node,
      `\`${textOf(cx, callee)}\` takes ${sig.params.length} argument(s), not ${args.length}`,
    );
  }
  const lowered: Expr[] = [];
  for (const [i, a] of args.entries()) {
    const param = sig.params[i]!;
    if (param === 'handler') {
      const arg = unwrap(a);
      if (arg.type !== 'Identifier' || cx.scopes.lookup(arg.name)?.kind !== 'handler') {
        return fail(
          cx,
          codes.badCall,
          a,
          `argument ${i + 1} of \`${textOf(cx, callee)}\` is the kernel handler`,
          "pass the kernel's kh (or the kh parameter of the calling device function)",
        );
      }
      continue;
    }
    const e = lowerValueOf(cx, a, param, `argument ${i + 1}`);
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
  const entity = topEntity(cx, unwrap(node.callee));
  if (entity?.kind === 'function' && entity.signature.returns === null) {
    const args = callArguments(cx, node);
    const call = args && functionCall(cx, entity, args, node);
    return call && { kind: 'call', callee: call.callee, args: call.args, span };
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
  const callee = unwrap(node.callee);
  if (
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    callee.property.type === 'Identifier'
  ) {
    const method = callee.property.name;
    const object = unwrap(callee.object);
    if (object.type === 'Identifier') {
      const local = cx.scopes.lookup(object.name);
      if (local?.kind === 'item') return lowerItemQuery(cx, method, args, node);
      if (local?.kind === 'handler') return lowerHandlerCall(cx, method, args, node);
      if (!local && object.name === 'Math' && !cx.resolver.top.bindings.has('Math')) {
        return lowerMathCall(cx, method, args, node, expected);
      }
    }
  }
  const entity = topEntity(cx, callee);
  if (!entity) {
    return fail(
      cx,
      codes.badCall,
      node.callee,
      `\`${textOf(cx, node.callee)}\` cannot be called in device code`,
      'call a deviceFunction, a DSL built-in, a type constructor, or an item/handler method',
    );
  }
  switch (entity.kind) {
    case 'function': {
      const call = functionCall(cx, entity, args, node);
      if (!call) return null;
      const returns = entity.signature.returns;
      if (!returns) {
        return fail(cx, codes.typeMismatch, node, `\`${textOf(cx, node)}\` returns nothing`);
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
        cx.reporter.error(codes.badCall, node.callee, '', undefined, true);
        return null;
      }
      return fail(
        cx,
        cx.resolver.top.bindings.get(textOf(cx, callee))?.kind === 'import'
          ? codes.unresolvedImport
          : codes.badCall,
        node.callee,
        `\`${textOf(cx, callee)}\` cannot be called in device code: ${entity.why}`,
      );
    default:
      return fail(
        cx,
        codes.badCall,
        node.callee,
        `\`${textOf(cx, callee)}\` is a ${entity.kind}, which device code cannot call`,
      );
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
    if (args.length !== 2) return fail(cx, codes.badCall, node, `${name} takes 2 arguments`);
    return lowerBinary(cx, operator, args[0]!, args[1]!, node, expected);
  }
  if (name === 'neg') {
    if (args.length !== 1) return fail(cx, codes.badCall, node, 'neg takes 1 argument');
    return lowerUnary(cx, '-', args[0]!, node, expected);
  }
  if (ATOMIC_FUNCTIONS.has(name)) return lowerAtomic(cx, name, args, node);
  const builtin = BUILTINS.get(name);
  if (builtin) return lowerBuiltin(cx, name, args, node, expected);
  return fail(
    cx,
    codes.badCall,
    node.callee,
    `\`${name}\` from @syclts/dsl cannot be called in device code`,
  );
}

/** Calls a WGSL built-in from the table, concretising abstract arguments to the generic type. */
export function lowerBuiltin(
  cx: Lowering,
  name: string,
  args: Expression[],
  node: Node,
  expected?: DataType,
): Expr | null {
  const spec = BUILTINS.get(name)!;
  if (args.length !== spec.arity) {
    return fail(
      cx,
      codes.badCall,
      node,
      `${name} takes ${spec.arity} argument(s), not ${args.length}`,
    );
  }
  const lowered: (Expr | null)[] = args.map(() => null);
  let generic: DataType | undefined;
  for (const [i, a] of args.entries()) {
    if (spec.unified.includes(i) && constantOf(cx, a)) continue;
    const e = lowerValue(cx, a, spec.unified.includes(i) ? expected : undefined);
    if (!e) return null;
    lowered[i] = e;
    if (spec.unified.includes(i) && !generic) generic = e.type;
  }
  for (const i of spec.unified) {
    if (lowered[i]) continue;
    const c = constantOf(cx, args[i]!)!;
    const context =
      generic ??
      (expected && scalarOf(expected) && scalarOf(expected) !== 'bool'
        ? expected
        : scalarType(c.kind === 'number' && c.float ? 'f32' : spec.defaultScalar));
    const target = scalarType(scalarOf(context) ?? spec.defaultScalar);
    const e = literalOf(cx, c, target, args[i]!);
    if (!e) return null;
    lowered[i] = generic && generic.kind === 'vector' ? splat(e, generic) : e;
  }
  const final = lowered as Expr[];
  const t = spec.type(final.map((e) => e.type));
  if (!t.ok) return fail(cx, codes.typeMismatch, node, t.why);
  return { op: 'builtin', name: spec.wgsl, args: final, type: t.type, span: spanOf(cx, node) };
}

export function lowerMathCall(
  cx: Lowering,
  method: string,
  args: Expression[],
  node: CallExpression,
  expected?: DataType,
): Expr | null {
  const mapped = MATH_FUNCTIONS.get(method);
  if (mapped) return lowerBuiltin(cx, mapped, args, node, expected);
  switch (method) {
    case 'min':
    case 'max': {
      if (args.length < 2)
        return fail(cx, codes.badCall, node, `Math.${method} needs at least 2 arguments`);
      // Math.min(a, b, c) nests as min(min(a, b), c).
      let acc = lowerBuiltin(cx, method, [args[0]!, args[1]!], node, expected);
      for (const a of args.slice(2)) {
        if (!acc) return null;
        const next = lowerValueOf(cx, a, acc.type, `an argument of Math.${method}`);
        if (!next) return null;
        const nested: Expr = {
          op: 'builtin',
          name: method,
          args: [acc, next],
          type: acc.type,
          span: spanOf(cx, node),
        };
        acc = nested;
      }
      return acc;
    }
    case 'round':
      return lowerJsRound(cx, args, node, expected);
    case 'fround':
      return lowerConstruct(cx, F32, args, node);
    case 'imul': {
      if (args.length !== 2) return fail(cx, codes.badCall, node, 'Math.imul takes 2 arguments');
      const a = lowerValueOf(cx, args[0]!, I32, 'Math.imul’s arguments');
      const b = lowerValueOf(cx, args[1]!, I32, 'Math.imul’s arguments');
      if (!a || !b) return null;
      return { op: 'binary', operator: '*', left: a, right: b, type: I32, span: spanOf(cx, node) };
    }
    case 'clz32': {
      if (args.length !== 1) return fail(cx, codes.badCall, node, 'Math.clz32 takes 1 argument');
      const a = lowerValueOf(cx, args[0]!, U32, 'Math.clz32’s argument');
      if (!a) return null;
      return {
        op: 'builtin',
        name: 'countLeadingZeros',
        args: [a],
        type: U32,
        span: spanOf(cx, node),
      };
    }
    default:
      return fail(
        cx,
        codes.badCall,
        node.callee,
        `Math.${method} has no WGSL equivalent`,
        'see the DSL built-ins (sqrt, fma, mix, clamp, ...)',
      );
  }
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
    return fail(cx, codes.badBarrier, node, 'item.barrier() is a statement, not a value');
  }
  const query = (k.nd ? nd : basic).get(method);
  if (!query) {
    return fail(
      cx,
      codes.badMember,
      node.callee,
      `${k.nd ? 'an nd-item' : 'an item'} has no method \`${method}\``,
      `available: ${[...(k.nd ? nd : basic).keys()].join(', ')}${k.nd ? ', barrier' : ''}`,
    );
  }
  const linear = query === 'globalLinearId' || query === 'localLinearId';
  if (linear) {
    if (args.length !== 0) return fail(cx, codes.badCall, node, `${method}() takes no argument`);
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
    return fail(
      cx,
      codes.badCall,
      args[0] ?? node,
      `${method} takes a constant dimension from 0 to ${k.dimensions - 1}`,
    );
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
    return fail(
      cx,
      codes.badMember,
      node.callee,
      `the kernel handler has no method \`${method}\``,
      'write kh.getSpecializationConstant(id)',
    );
  }
  const id = args[0];
  const entity = id && args.length === 1 ? topEntity(cx, id) : undefined;
  if (entity?.kind !== 'specConstant') {
    const why = entity?.kind === 'opaque' ? `: ${entity.why}` : '';
    return fail(
      cx,
      entity?.kind === 'opaque' ? codes.unresolvedImport : codes.badCall,
      id ?? node,
      `getSpecializationConstant takes a specializationId declared at top level${why}`,
    );
  }
  return { op: 'specConstant', ref: entity.ref, type: entity.type, span: spanOf(cx, node) };
}

/**
 * `Math.round`: JavaScript rounds halves toward +Infinity, WGSL's round() to even, and
 * floor(x + 0.5) is wrong where x + 0.5 rounds (0.49999997, odd integers from 2^23 to 2^24).
 * `select(f, f + 1, x - f >= 0.5)` with f = floor(x) is exact in f32: x - f is exact whenever
 * it decides the result. It reads x three times, so x must have no effects and stay small (a
 * nested Math.round would triple the WGSL at each level).
 */
function lowerJsRound(
  cx: Lowering,
  args: Expression[],
  node: CallExpression,
  expected?: DataType,
): Expr | null {
  if (args.length !== 1) return fail(cx, codes.badCall, node, 'Math.round takes 1 argument');
  const floor = lowerBuiltin(cx, 'floor', [args[0]!], node, expected);
  if (floor?.op !== 'builtin') return null;
  const x = floor.args[0]!;
  const why =
    printedSize(x, ROUND_ARGUMENT_LIMIT) > ROUND_ARGUMENT_LIMIT
      ? `is too large to repeat (over ${ROUND_ARGUMENT_LIMIT} operations)`
      : hasEffects(x)
        ? 'contains a call or an atomic'
        : null;
  if (why) {
    return fail(
      cx,
      codes.badCall,
      args[0]!,
      `Math.round reads its argument three times, and this one ${why}`,
      `compute the argument first: const v = ${textOf(cx, args[0]!)}; then Math.round(v)`,
    );
  }
  const span = floor.span;
  const scalar = scalarType(scalarOf(x.type)!);
  const constant = (value: number): Expr => {
    const c: Expr = { op: 'literal', value, type: scalar, span };
    return x.type.kind === 'vector' ? splat(c, x.type) : c;
  };
  const binary = (operator: BinaryOperator, left: Expr, right: Expr, type: DataType): Expr => ({
    op: 'binary',
    operator,
    left,
    right,
    type,
    span,
  });
  const up = binary('>=', binary('-', x, floor, x.type), constant(0.5), withScalar(x.type, 'bool'));
  return {
    op: 'select',
    condition: up,
    whenTrue: binary('+', floor, constant(1), x.type),
    whenFalse: floor,
    type: x.type,
    span,
  };
}

/** How large an argument Math.round repeats: its WGSL stays within three times this. */
const ROUND_ARGUMENT_LIMIT = 64;

/** How many nodes `e` prints as (shared ones each time), counting no further than `limit`. */
function printedSize(e: Expr, limit: number): number {
  let n = 1;
  mapChildren(e, (c) => {
    if (n <= limit) n += printedSize(c, limit - n);
    return c;
  });
  return n;
}

function hasEffects(e: Expr): boolean {
  if (e.op === 'call' || e.op === 'atomic') return true;
  let found = false;
  mapChildren(e, (c) => {
    found ||= hasEffects(c);
    return c;
  });
  return found;
}
