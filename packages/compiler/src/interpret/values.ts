/**
 * Values of device code as the interpreter holds them, and their host-shareable encoding.
 * Scalars are numbers (bool a boolean), vectors arrays of scalars, matrices arrays of columns,
 * arrays arrays of elements, structs arrays of fields in declaration order. Values are
 * mutable only through a place (see places.ts); reading a place copies it.
 */
import {
  type DataType,
  f16Round,
  readValue,
  type ScalarName,
  type ShareableValue,
  writeValue,
} from '@syclts/dsl';

export type Scalar = number | boolean;
export type Value = Scalar | Value[];

/** Device code broke a rule WGSL leaves undefined, or uses what the interpreter cannot run. */
export class InterpretError extends Error {
  constructor(
    message: string,
    readonly module: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${module}:${line}:${column}: ${message}`);
    this.name = 'InterpretError';
  }
}

/** `x` as a value of `scalar`: wrapped to 32 bits, or rounded to the float's precision. */
export function toScalar(scalar: ScalarName, x: Scalar): Scalar {
  switch (scalar) {
    case 'bool':
      return Boolean(x);
    case 'i32':
      return Number(x) | 0;
    case 'u32':
      return Number(x) >>> 0;
    case 'f32':
      return Math.fround(Number(x));
    case 'f16':
      return f16Round(Number(x));
  }
}

export function zeroOf(type: DataType): Value {
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return type.kind === 'scalar' && type.scalar === 'bool' ? false : 0;
    case 'vector':
      return Array.from({ length: type.size }, () => (type.component === 'bool' ? false : 0));
    case 'matrix':
      return Array.from({ length: type.columns }, () => new Array<number>(type.rows).fill(0));
    case 'array':
      return Array.from({ length: type.length }, () => zeroOf(type.element));
    case 'struct':
      return type.fields.map((f) => zeroOf(f.type));
  }
}

export function copyOf(v: Value): Value {
  return Array.isArray(v) ? v.map(copyOf) : v;
}

/** A host value (as the ABI module reads and writes them) as an interpreter value of `type`. */
export function fromShareable(type: DataType, v: ShareableValue): Value {
  switch (type.kind) {
    case 'scalar':
      return toScalar(type.scalar, v as Scalar);
    case 'atomic':
      return toScalar(type.scalar, v as Scalar);
    case 'vector':
      return (v as readonly Scalar[]).map((x) => toScalar(type.component, x));
    case 'matrix': {
      const flat = v as readonly number[];
      return Array.from({ length: type.columns }, (_, c) =>
        Array.from({ length: type.rows }, (_, r) => Math.fround(flat[c * type.rows + r] ?? 0)),
      );
    }
    case 'array':
      return (v as readonly ShareableValue[]).map((x) => fromShareable(type.element, x));
    case 'struct': {
      const record = v as { readonly [field: string]: ShareableValue };
      return type.fields.map((f) => fromShareable(f.type, record[f.name]!));
    }
  }
}

export function toShareable(type: DataType, v: Value): ShareableValue {
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return v as Scalar;
    case 'vector':
      return v as Scalar[];
    case 'matrix':
      return (v as number[][]).flat();
    case 'array':
      return (v as Value[]).map((x) => toShareable(type.element, x));
    case 'struct': {
      const fields = v as Value[];
      return Object.fromEntries(
        type.fields.map((f, i) => [f.name, toShareable(f.type, fields[i]!)]),
      );
    }
  }
}

/** Reads a value of `type` at `offset` of host-shareable storage memory. */
export function load(view: DataView, offset: number, type: DataType): Value {
  return fromShareable(type, readValue(view, offset, type, 'storage'));
}

export function store(view: DataView, offset: number, type: DataType, v: Value): void {
  writeValue(view, offset, type, toShareable(type, v), 'storage');
}
