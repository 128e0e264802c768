/**
 * The atomic built-ins and the places they take.
 */
import type { DataType } from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import type { Expr } from '../../ir/device-code.js';
import type { Expression } from '../ast.js';
import { codes } from '../report.js';
import { BOOL, scalarType, typeName } from '../resolver/types.js';
import { rootOf } from './access.js';
import { fail, type Lowering, readOnlyAccessor, spanOf, topEntity, VOID } from './context.js';
import { lowerExpr, lowerValueOf } from './expressions.js';

/** An lvalue of atomic type, for the atomic built-ins. */
export function lowerAtomicPointer(cx: Lowering, node: Expression): Expr | null {
  const entity = topEntity(cx, node);
  const e: Expr | null =
    entity?.kind === 'deviceGlobal'
      ? { op: 'deviceGlobal', ref: entity.ref, type: entity.type, span: spanOf(cx, node) }
      : lowerExpr(cx, node);
  if (!e) return null;
  if (e.type.kind !== 'atomic') {
    return fail(
      cx,
      codes.badAtomic,
      node,
      `atomic functions need an atomic(i32) or atomic(u32) place, not ${typeName(e.type)}`,
      'declare the accessor element, device global or workgroup array with atomic(u32)',
    );
  }
  const root = rootOf(e);
  if (root.op === 'param' && readOnlyAccessor(cx, root.name)) {
    return fail(cx, codes.badAtomic, node, 'atomics need a read_write accessor');
  }
  return e;
}

export function lowerAtomic(
  cx: Lowering,
  name: string,
  args: Expression[],
  node: CallExpression,
): Expr | null {
  const arity = name === 'atomicLoad' ? 1 : name === 'atomicCompareExchangeWeak' ? 3 : 2;
  if (args.length !== arity) {
    return fail(cx, codes.badCall, node, `${name} takes ${arity} argument(s), not ${args.length}`);
  }
  const pointer = lowerAtomicPointer(cx, args[0]!);
  if (pointer?.type.kind !== 'atomic') return null;
  const scalar = scalarType(pointer.type.scalar);
  const rest: Expr[] = [];
  for (const a of args.slice(1)) {
    const e = lowerValueOf(cx, a, scalar, `an operand of ${name}`);
    if (!e) return null;
    rest.push(e);
  }
  const type: DataType =
    name === 'atomicStore'
      ? VOID
      : name === 'atomicCompareExchangeWeak'
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
    args: rest,
    type,
    span: spanOf(cx, node),
  };
}
