import type { Expr } from './device-code.js';

/** The parts of a joint matrix load's or store's memory, or null where it is no such memory. */
export function matrixMemoryParts<R>(memory: Expr<R>): {
  readonly root: Extract<Expr<R>, { readonly op: 'param' | 'workgroupArray' }>;
  readonly index: Expr<R> | null;
} | null {
  if (memory.type.kind !== 'array') return null;
  const index = memory.op === 'index' ? memory.index : null;
  const root = memory.op === 'index' ? memory.base : memory;
  if (root.op !== 'param' && root.op !== 'workgroupArray') return null;
  return { root, index };
}
