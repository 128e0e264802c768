import type { DataType } from './data-type.js';

/** A data type as WGSL spells it (structs shown by their fields), for messages and listings. */
export function typeName(type: DataType): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar;
    case 'vector':
      return `vec${type.size}<${type.component}>`;
    case 'matrix':
      return `mat${type.columns}x${type.rows}<f32>`;
    case 'array':
      return `array<${typeName(type.element)}, ${type.length}>`;
    case 'struct':
      return `struct { ${type.fields.map((f) => `${f.name}: ${typeName(f.type)}`).join(', ')} }`;
    case 'atomic':
      return `atomic<${type.scalar}>`;
  }
}
