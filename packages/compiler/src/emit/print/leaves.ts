/**
 * A composite value written as a WGSL constructor of its scalar leaves, depth-first, members in
 * declaration order, matrices column by column (the order of `leavesOf`): the native variant
 * rebuilds a constant from its leaf overrides, the emulated one from its record's words.
 */
import type { DataType } from '@syclts/dsl';
import type { Storage, WgslTypes } from './types.js';

export function fromLeaves(
  type: DataType,
  hint: string,
  types: WgslTypes,
  storage: Storage,
  leaf: () => string,
): string {
  const build = (t: DataType, name: string): string => {
    switch (t.kind) {
      case 'scalar':
      case 'atomic':
        return leaf();
      case 'vector':
      case 'matrix': {
        const n = t.kind === 'vector' ? t.size : t.columns * t.rows;
        return `${types.type(t, name, storage)}(${Array.from({ length: n }, leaf).join(', ')})`;
      }
      case 'array':
        return `${types.type(t, name, storage)}(${Array.from({ length: t.length }, () => build(t.element, name)).join(', ')})`;
      case 'struct':
        return `${types.type(t, name, storage)}(${t.fields.map((f) => build(f.type, `${name}_${f.name}`)).join(', ')})`;
    }
  };
  return build(type, hint);
}
