/**
 * Host values of data types (`HostValue<T>`): checked against the type at run time, and kept in
 * a canonical form (a fresh, deeply frozen copy, scalars as the device sees them) so that stored
 * values cannot be changed behind the runtime's back and equal values compare equal.
 */
import type { DataType } from '@syclts/dsl';
import { checkScalar, type ScalarValue, show, ValueError } from './scalars.js';

/** A canonical host value: a scalar, or frozen arrays/objects of canonical values. */
export type CanonicalValue =
  | ScalarValue
  | readonly CanonicalValue[]
  | { readonly [field: string]: CanonicalValue };

/** Checks `value` against `type` and returns its canonical form; throws ValueError. */
export function canonicalize(type: DataType, value: unknown, path = 'value'): CanonicalValue {
  switch (type.kind) {
    case 'scalar':
      return checkScalar(type.scalar, value, path);
    case 'atomic':
      return checkScalar(type.scalar, value, path);
    case 'vector':
      return tuple(value, type.size, path, (v, p) => checkScalar(type.component, v, p));
    case 'matrix':
      return tuple(value, type.columns * type.rows, path, (v, p) => checkScalar('f32', v, p));
    case 'array':
      return tuple(value, type.length, path, (v, p) => canonicalize(type.element, v, p));
    case 'struct': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ValueError(
          path,
          `expected an object with fields ${fieldList(type)}, got ${show(value)}`,
        );
      }
      const record = value as Record<string, unknown>;
      const names = new Set(type.fields.map((f) => f.name));
      const extra = Object.keys(record).find((key) => !names.has(key));
      if (extra !== undefined)
        throw new ValueError(`${path}.${extra}`, 'is not a field of the struct');
      const result: Record<string, CanonicalValue> = {};
      for (const field of type.fields) {
        if (!(field.name in record)) throw new ValueError(`${path}.${field.name}`, 'is missing');
        result[field.name] = canonicalize(field.type, record[field.name], `${path}.${field.name}`);
      }
      return Object.freeze(result);
    }
  }
}

function tuple(
  value: unknown,
  length: number,
  path: string,
  element: (value: unknown, path: string) => CanonicalValue,
): readonly CanonicalValue[] {
  if (!isArrayLike(value)) {
    throw new ValueError(path, `expected an array of ${length} elements, got ${show(value)}`);
  }
  if (value.length !== length) {
    throw new ValueError(path, `expected ${length} elements, got ${value.length}`);
  }
  return Object.freeze(Array.from({ length }, (_, i) => element(value[i], `${path}[${i}]`)));
}

function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

function fieldList(type: Extract<DataType, { kind: 'struct' }>): string {
  return `{${type.fields.map((f) => f.name).join(', ')}}`;
}

/** The scalar at `path` (field names and indices) inside a canonical value. */
export function leafAt(value: CanonicalValue, path: readonly (string | number)[]): ScalarValue {
  let current: unknown = value;
  for (const step of path) {
    current = (current as Record<string | number, unknown>)[step];
  }
  if (typeof current !== 'number' && typeof current !== 'boolean') {
    throw new Error(`leafAt: no scalar at [${path.join(', ')}]`);
  }
  return current;
}

/** A mutable copy for callers (get* APIs return values the caller may change freely). */
export function thaw(value: CanonicalValue): unknown {
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: CanonicalValue) => thaw(v));
  return Object.fromEntries(
    Object.entries(value as Record<string, CanonicalValue>).map(([k, v]) => [k, thaw(v)]),
  );
}
