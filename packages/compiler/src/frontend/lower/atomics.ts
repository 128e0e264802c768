/**
 * The atomic built-ins and the places they take.
 */
import type { DataType } from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expr } from '../../ir/device-code.js';
import type { Expression } from '../ast.js';
import { BOOL, scalarType } from '../resolver/types.js';
import { rootOf } from './access.js';
import {
  fail,
  type Lowering,
  type Node,
  readOnlyAccessor,
  spanOf,
  textOf,
  topEntity,
} from './context.js';
import { lowerExpr, lowerValueOf } from './expressions.js';

/** The atomic built-ins that only integers have: an `atomic(f32)` has no bits to combine. */
const BIT_OPERATIONS: ReadonlySet<string> = new Set(['atomicAnd', 'atomicOr', 'atomicXor']);

/** An lvalue of atomic type, for the atomic built-ins. */
export function lowerAtomicPointer(cx: Lowering, node: Expression): Expr | null {
  const entity = topEntity(cx, node);
  const e: Expr | null =
    entity?.kind === 'deviceGlobal'
      ? { op: 'deviceGlobal', ref: entity.ref, type: entity.type, span: spanOf(cx, node) }
      : lowerExpr(cx, node);
  if (!e) return null;
  if (e.type.kind !== 'atomic') {
    return fail(cx, node, msg.notAnAtomicPlace(e.type));
  }
  const root = rootOf(e);
  if (root.op === 'param' && readOnlyAccessor(cx, root.name)) {
    return fail(cx, node, msg.atomicsNeedReadWrite());
  }
  return e;
}

/** An atomic built-in's place and operands, checked against its arity and the place's type. */
export function atomicParts(
  cx: Lowering,
  name: string,
  args: readonly Expression[],
  node: CallExpression,
): { readonly pointer: Expr; readonly operands: Expr[]; readonly scalar: DataType } | null {
  const arity = name === 'atomicLoad' ? 1 : name === 'atomicCompareExchangeWeak' ? 3 : 2;
  if (args.length !== arity) {
    return fail(cx, node, msg.builtinArguments(name, arity, args.length));
  }
  const pointer = lowerAtomicPointer(cx, args[0]!);
  if (pointer?.type.kind !== 'atomic') return null;
  if (pointer.type.scalar === 'f32' && BIT_OPERATIONS.has(name)) {
    return fail(cx, node, msg.atomicBitsOnF32(name, textOf(cx, args[0]!)));
  }
  const scalar = scalarType(pointer.type.scalar);
  const operands: Expr[] = [];
  for (const a of args.slice(1)) {
    const e = lowerValueOf(cx, a, scalar, { kind: 'operand', callee: name });
    if (!e) return null;
    operands.push(e);
  }
  return { pointer, operands, scalar };
}

/** An atomic built-in that gives a value; `atomicStore` gives none and is only a statement. */
export function lowerAtomic(
  cx: Lowering,
  name: string,
  args: Expression[],
  node: CallExpression,
): Expr | null {
  if (name === 'atomicStore') {
    return fail(cx, node, msg.returnsNothing(textOf(cx, node)));
  }
  const parts = atomicParts(cx, name, args, node);
  if (!parts) return null;
  const { pointer, operands, scalar } = parts;
  const type: DataType =
    name === 'atomicCompareExchangeWeak'
      ? {
          kind: 'struct',
          fields: [
            { name: 'old_value', type: scalar },
            { name: 'exchanged', type: BOOL },
          ],
        }
      : scalar;
  return {
    op: 'atomic',
    fn: name as Extract<Expr, { op: 'atomic' }>['fn'],
    pointer,
    args: operands,
    type,
    span: spanOf(cx, node),
  };
}

/** An atomic read or written as a plain value: atomics go through the atomic built-ins. */
export function plainAtomic(cx: Lowering, node: Node, use: 'read' | 'write'): null {
  const text = textOf(cx, node);
  return fail(cx, node, use === 'read' ? msg.atomicRead(text) : msg.atomicWrite(text));
}
