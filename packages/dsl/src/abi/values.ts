/** Whole values in host-shareable memory, by their type's layout (see layout.ts). */
import type { DataType } from '../types/data-type.js';
import { type AddressSpace, scalarSize, strideOf, structLayout } from './layout.js';
import { type HostScalar, readScalar, writeScalar } from './scalars.js';

/** A value as the host holds it: scalars, arrays of values (vectors, flat column-major matrices), objects (structs). */
export type ShareableValue =
  | HostScalar
  | readonly ShareableValue[]
  | { readonly [field: string]: ShareableValue };

export function writeValue(
  view: DataView,
  offset: number,
  type: DataType,
  value: ShareableValue,
  space: AddressSpace,
): void {
  // Loops rather than forEach: this writes every launch's arguments.
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      writeScalar(view, offset, type.scalar, value as HostScalar);
      return;
    case 'vector': {
      const c = scalarSize(type.component);
      const items = value as readonly HostScalar[];
      for (let i = 0; i < items.length; i++) {
        writeScalar(view, offset + i * c, type.component, items[i]!);
      }
      return;
    }
    case 'matrix': {
      const column = type.rows === 2 ? 8 : 16;
      const items = value as readonly HostScalar[];
      for (let i = 0; i < items.length; i++) {
        const col = Math.floor(i / type.rows);
        writeScalar(view, offset + col * column + (i % type.rows) * 4, 'f32', items[i]!);
      }
      return;
    }
    case 'array': {
      const { element } = type;
      const stride = strideOf(element, space);
      const items = value as readonly ShareableValue[];
      for (let i = 0; i < items.length; i++) {
        if (element.kind === 'scalar') {
          writeScalar(view, offset + i * stride, element.scalar, items[i] as HostScalar);
        } else {
          writeValue(view, offset + i * stride, element, items[i]!, space);
        }
      }
      return;
    }
    case 'struct': {
      const { offsets } = structLayout(type, space);
      const record = value as { readonly [field: string]: ShareableValue };
      const { fields } = type;
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i]!;
        writeValue(view, offset + offsets[i]!, field.type, record[field.name]!, space);
      }
      return;
    }
  }
}

export function readValue(
  view: DataView,
  offset: number,
  type: DataType,
  space: AddressSpace,
): ShareableValue {
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return readScalar(view, offset, type.scalar);
    case 'vector': {
      const c = scalarSize(type.component);
      return Array.from({ length: type.size }, (_, i) =>
        readScalar(view, offset + i * c, type.component),
      );
    }
    case 'matrix': {
      const column = type.rows === 2 ? 8 : 16;
      return Array.from({ length: type.columns * type.rows }, (_, i) =>
        readScalar(view, offset + Math.floor(i / type.rows) * column + (i % type.rows) * 4, 'f32'),
      );
    }
    case 'array': {
      const stride = strideOf(type.element, space);
      return Array.from({ length: type.length }, (_, i) =>
        readValue(view, offset + i * stride, type.element, space),
      );
    }
    case 'struct': {
      const { offsets } = structLayout(type, space);
      return Object.fromEntries(
        type.fields.map((field, i) => [
          field.name,
          readValue(view, offset + offsets[i]!, field.type, space),
        ]),
      );
    }
  }
}
