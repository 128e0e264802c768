/**
 * Places device code reads and writes: a variable's cell (locals, workgroup arrays), host-
 * shareable memory (accessors, device globals, laid out by the ABI module), or a value that
 * cannot be written (value arguments, specialization constants).
 */
import { type DataType, scalarSize, strideOf, structLayout } from '@syclts/dsl';
import { copyOf, load, store, type Value } from './values.js';

export interface Cell {
  value: Value;
}

export type Place =
  | {
      readonly kind: 'cell';
      readonly cell: Cell;
      readonly path: readonly number[];
      readonly type: DataType;
    }
  | {
      readonly kind: 'memory';
      readonly view: DataView;
      readonly offset: number;
      readonly type: DataType;
    }
  | { readonly kind: 'constant'; readonly value: Value; readonly type: DataType }
  /** Several components of a vector place, in swizzle order. */
  | {
      readonly kind: 'swizzle';
      readonly base: Place;
      readonly components: readonly number[];
      readonly type: DataType;
    };

export function read(place: Place): Value {
  switch (place.kind) {
    case 'cell':
      return copyOf(walk(place.cell.value, place.path));
    case 'memory':
      return load(place.view, place.offset, place.type);
    case 'constant':
      return copyOf(place.value);
    case 'swizzle': {
      const base = read(place.base) as Value[];
      return place.components.map((c) => base[c]!);
    }
  }
}

/** Writes `value` to `place`; false when the place cannot be written. */
export function write(place: Place, value: Value): boolean {
  switch (place.kind) {
    case 'cell': {
      if (place.path.length === 0) {
        place.cell.value = copyOf(value);
        return true;
      }
      const parent = walk(place.cell.value, place.path.slice(0, -1)) as Value[];
      parent[place.path.at(-1)!] = copyOf(value);
      return true;
    }
    case 'memory':
      store(place.view, place.offset, place.type, value);
      return true;
    case 'constant':
      return false;
    case 'swizzle': {
      const base = read(place.base) as Value[];
      place.components.forEach((c, i) => {
        base[c] = (value as Value[])[i]!;
      });
      return write(place.base, base);
    }
  }
}

function walk(value: Value, path: readonly number[]): Value {
  let v = value;
  for (const i of path) v = (v as Value[])[i]!;
  return v;
}

/** How many elements the place holds when it is an array (runtime-sized ones by their memory). */
export function lengthOf(place: Place): number {
  const { type } = place;
  if (type.kind === 'vector') return type.size;
  if (type.kind === 'matrix') return type.columns;
  if (type.kind !== 'array') return 0;
  if (type.length > 0 || place.kind !== 'memory') return type.length;
  return Math.floor((place.view.byteLength - place.offset) / strideOf(type.element));
}

/** Element `i` (already checked in bounds) of an array, vector or matrix place, or field `i` of a struct. */
export function child(place: Place, i: number, type: DataType): Place {
  switch (place.kind) {
    case 'cell':
      return { kind: 'cell', cell: place.cell, path: [...place.path, i], type };
    case 'constant':
      return { kind: 'constant', value: (place.value as Value[])[i]!, type };
    case 'memory':
      return {
        kind: 'memory',
        view: place.view,
        offset: place.offset + offsetOf(place.type, i),
        type,
      };
    case 'swizzle':
      return child(place.base, place.components[i]!, type);
  }
}

function offsetOf(type: DataType, i: number): number {
  switch (type.kind) {
    case 'array':
      return i * strideOf(type.element);
    case 'vector':
      return i * scalarSize(type.component);
    case 'matrix':
      return i * (type.rows === 2 ? 8 : 16);
    case 'struct':
      return structLayout(type).offsets[i]!;
    default:
      return 0;
  }
}
