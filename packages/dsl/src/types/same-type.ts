/** Structural equality of data types (struct fields by name and order). */
import type { DataType } from './data-type.js';

export function sameType(a: DataType, b: DataType): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case 'scalar':
      return b.kind === 'scalar' && a.scalar === b.scalar;
    case 'vector':
      return b.kind === 'vector' && a.component === b.component && a.size === b.size;
    case 'matrix':
      return b.kind === 'matrix' && a.columns === b.columns && a.rows === b.rows;
    case 'array':
      return b.kind === 'array' && a.length === b.length && sameType(a.element, b.element);
    case 'struct':
      return (
        b.kind === 'struct' &&
        a.fields.length === b.fields.length &&
        a.fields.every((f, i) => {
          const g = b.fields[i];
          return g !== undefined && g.name === f.name && sameType(f.type, g.type);
        })
      );
    case 'atomic':
      return b.kind === 'atomic' && a.scalar === b.scalar;
  }
}
