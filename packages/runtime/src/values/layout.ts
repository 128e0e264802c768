/**
 * Host-shareable memory layout of WGSL types (see WEBGPU-NOTES: storage and uniform rules), and
 * the encoding of canonical host values into it. Device globals and accessor elements use the
 * storage rules; the `launch` uniform the uniform rules.
 */
import type { DataType, StructType } from '@syclts/dsl';
import type { CanonicalValue } from './host-value.js';
import { readScalar, type ScalarValue, scalarSize, writeScalar } from './scalars.js';

export type AddressSpace = 'storage' | 'uniform';

export function alignOf(type: DataType, space: AddressSpace): number {
  switch (type.kind) {
    case 'scalar':
      return scalarSize(type.scalar);
    case 'atomic':
      return 4;
    case 'vector': {
      const c = scalarSize(type.component);
      return type.size === 2 ? 2 * c : 4 * c;
    }
    case 'matrix':
      return type.rows === 2 ? 8 : 16;
    case 'array': {
      const a = alignOf(type.element, space);
      return space === 'uniform' ? roundUp(16, a) : a;
    }
    case 'struct': {
      const a = Math.max(...type.fields.map((f) => alignOf(f.type, space)));
      return space === 'uniform' ? roundUp(16, a) : a;
    }
  }
}

export function sizeOf(type: DataType, space: AddressSpace): number {
  switch (type.kind) {
    case 'scalar':
      return scalarSize(type.scalar);
    case 'atomic':
      return 4;
    case 'vector':
      return type.size * scalarSize(type.component);
    case 'matrix':
      return type.columns * (type.rows === 2 ? 8 : 16);
    case 'array':
      return type.length * strideOf(type.element, space);
    case 'struct':
      return structLayout(type, space).size;
  }
}

/** Distance between consecutive elements of an array of `element`. */
export function strideOf(element: DataType, space: AddressSpace): number {
  const stride = roundUp(alignOf(element, space), sizeOf(element, space));
  return space === 'uniform' ? roundUp(16, stride) : stride;
}

function structLayout(
  type: StructType,
  space: AddressSpace,
): { offsets: readonly number[]; size: number } {
  const offsets: number[] = [];
  let end = 0;
  let previousWasStruct = false;
  for (const field of type.fields) {
    let align = alignOf(field.type, space);
    if (space === 'uniform' && previousWasStruct) align = Math.max(align, 16);
    const offset = roundUp(align, end);
    offsets.push(offset);
    end = offset + sizeOf(field.type, space);
    previousWasStruct = field.type.kind === 'struct';
  }
  return { offsets, size: roundUp(alignOf(type, space), end) };
}

export function writeValue(
  view: DataView,
  offset: number,
  type: DataType,
  value: CanonicalValue,
  space: AddressSpace,
): void {
  switch (type.kind) {
    case 'scalar':
      writeScalar(view, offset, type.scalar, value as ScalarValue);
      return;
    case 'atomic':
      writeScalar(view, offset, type.scalar, value as ScalarValue);
      return;
    case 'vector': {
      const c = scalarSize(type.component);
      (value as readonly ScalarValue[]).forEach((v, i) => {
        writeScalar(view, offset + i * c, type.component, v);
      });
      return;
    }
    case 'matrix': {
      const column = type.rows === 2 ? 8 : 16;
      (value as readonly ScalarValue[]).forEach((v, i) => {
        const col = Math.floor(i / type.rows);
        writeScalar(view, offset + col * column + (i % type.rows) * 4, 'f32', v);
      });
      return;
    }
    case 'array': {
      const stride = strideOf(type.element, space);
      (value as readonly CanonicalValue[]).forEach((v, i) => {
        writeValue(view, offset + i * stride, type.element, v, space);
      });
      return;
    }
    case 'struct': {
      const { offsets } = structLayout(type, space);
      const record = value as { readonly [field: string]: CanonicalValue };
      type.fields.forEach((field, i) => {
        writeValue(view, offset + offsets[i]!, field.type, record[field.name]!, space);
      });
      return;
    }
  }
}

/** The host value stored at `offset` (what `copy` from a device global returns per element). */
export function readValue(
  view: DataView,
  offset: number,
  type: DataType,
  space: AddressSpace,
): CanonicalValue {
  switch (type.kind) {
    case 'scalar':
      return readScalar(view, offset, type.scalar);
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

export function roundUp(multiple: number, value: number): number {
  return Math.ceil(value / multiple) * multiple;
}

/** Structural equality of type descriptors (accessor element checks). */
export function sameType(a: DataType, b: DataType): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
