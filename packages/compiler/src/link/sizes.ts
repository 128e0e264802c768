/** Workgroup sizes and workgroup array lengths: literals or integer specialization-constant leaves. */
import { evaluateSize, type SpecConstantLeaf, type SymbolicId } from '@syclts/dsl';
import type { Expr } from '../ir/device-code.js';
import type { SizeValue } from './linked-image.js';

export type LeafLookup = (
  symbolicId: SymbolicId,
  path: readonly (string | number)[],
) => SpecConstantLeaf | null;

/** The override-expression a size expression stands for, or null when it is not one. */
export function sizeValue(expr: Expr<SymbolicId>, leafOf: LeafLookup): SizeValue | null {
  if (expr.op === 'literal') {
    return typeof expr.value === 'number' && Number.isInteger(expr.value) && expr.value >= 0
      ? { kind: 'literal', value: expr.value }
      : null;
  }
  if (expr.op === 'binary') {
    const { operator } = expr;
    if (
      operator !== '+' &&
      operator !== '-' &&
      operator !== '*' &&
      operator !== '/' &&
      operator !== '%'
    )
      return null;
    const left = sizeValue(expr.left, leafOf);
    const right = sizeValue(expr.right, leafOf);
    return left && right ? { kind: 'binary', operator, left, right } : null;
  }
  const path: (string | number)[] = [];
  let e: Expr<SymbolicId> = expr;
  for (;;) {
    if (e.op === 'member') {
      path.unshift(e.member);
      e = e.base;
    } else if (e.op === 'index' && e.index.op === 'literal' && typeof e.index.value === 'number') {
      path.unshift(e.index.value);
      e = e.base;
    } else if (e.op === 'swizzle' && e.components.length === 1) {
      path.unshift('xyzw'.indexOf(e.components));
      e = e.base;
    } else break;
  }
  if (e.op !== 'specConstant') return null;
  const leaf = leafOf(e.ref, path);
  if (!leaf || (leaf.scalar !== 'i32' && leaf.scalar !== 'u32')) return null;
  return { kind: 'specConstant', symbolicId: e.ref, leafId: leaf.id, scalar: leaf.scalar };
}

/**
 * A size's value, each specialization-constant leaf valued by `leaf` (null: unknown, and so is
 * the size). A zero divisor gives 0: the front end refuses a constant one, and one that only a
 * constant's value makes zero fails pipeline creation, whatever is computed here.
 */
export function sizeOf<N extends number | null>(
  value: SizeValue,
  leaf: (symbolicId: SymbolicId, leafId: number) => N,
): number | N {
  let unknown = false;
  const n = evaluateSize(value, (symbolicId, leafId) => {
    const v = leaf(symbolicId, leafId);
    if (v === null) unknown = true;
    return v ?? 0;
  });
  return unknown ? (null as N) : n;
}

/** A size made of literals only, or null. */
export function literalSize(value: SizeValue): number | null {
  return sizeOf(value, () => null);
}

export function sizeLeaves(value: SizeValue): Extract<SizeValue, { kind: 'specConstant' }>[] {
  if (value.kind === 'specConstant') return [value];
  if (value.kind === 'binary') return [...sizeLeaves(value.left), ...sizeLeaves(value.right)];
  return [];
}
