/** Type descriptors compared by structure (memory layout itself is @syclts/dsl's ABI module). */
import type { DataType } from '@syclts/dsl';

/** Structural equality of type descriptors (accessor element checks). */
export function sameType(a: DataType, b: DataType): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
