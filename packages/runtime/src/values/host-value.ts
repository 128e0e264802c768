/**
 * Host values of data types (`HostValue<T>`): checked against the type at run time, and kept in
 * a canonical form (a fresh copy, scalars as the device sees them) so that stored values cannot
 * be changed behind the runtime's back and equal values compare equal. The copy is read-only by
 * its type, not frozen: no caller ever holds it (reads hand out copies, see `thaw`), and freezing
 * an array costs about as much as checking nine values.
 */
import type { DataType, ScalarName } from '@syclts/dsl';
import { checkScalar, type ScalarValue, show, ValueError } from './scalars.js';

/** A canonical host value: a scalar, or read-only arrays/objects of canonical values. */
export type CanonicalValue =
  | ScalarValue
  | readonly CanonicalValue[]
  | { readonly [field: string]: CanonicalValue };

/**
 * Checks `value` against `type` and returns its canonical form; throws ValueError. `memory`: the
 * value is stored, not a constant or an argument (see checkScalar).
 */
export function canonicalize(
  type: DataType,
  value: unknown,
  path = 'value',
  memory = false,
): CanonicalValue {
  try {
    return canonical(type, value, memory);
  } catch (error) {
    if (!(error instanceof ValueError)) throw error;
    throw new ValueError(`${path}${error.path}`, error.reason);
  }
}

/**
 * The canonical form; a ValueError's path is relative to `value` ('' for the value itself), so
 * that no path text is built unless something is wrong (this runs on every launch).
 */
function canonical(type: DataType, value: unknown, memory: boolean): CanonicalValue {
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return checkScalar(type.scalar, value, '', memory);
    case 'vector':
      return scalars(value, type.size, type.component, memory);
    case 'matrix':
      return scalars(value, type.columns * type.rows, 'f32', memory);
    case 'array':
      return type.element.kind === 'scalar'
        ? scalars(value, type.length, type.element.scalar, memory)
        : elements(value, type.length, type.element, memory);
    case 'struct': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ValueError(
          '',
          `expected an object with fields ${fieldList(type)}, got ${show(value)}`,
        );
      }
      const record = value as Record<string, unknown>;
      const names = new Set(type.fields.map((f) => f.name));
      const extra = Object.keys(record).find((key) => !names.has(key));
      if (extra !== undefined) throw new ValueError(`.${extra}`, 'is not a field of the struct');
      const result: Record<string, CanonicalValue> = {};
      for (const field of type.fields) {
        if (!(field.name in record)) throw new ValueError(`.${field.name}`, 'is missing');
        try {
          result[field.name] = canonical(field.type, record[field.name], memory);
        } catch (error) {
          if (!(error instanceof ValueError)) throw error;
          throw new ValueError(`.${field.name}${error.path}`, error.reason);
        }
      }
      return result;
    }
  }
}

/** A list of scalars (a vector, a matrix, an array of scalars): one loop, no callback per leaf. */
function scalars(
  value: unknown,
  length: number,
  scalar: ScalarName,
  memory: boolean,
): readonly ScalarValue[] {
  const list = listOf(value, length);
  const out = new Array<ScalarValue>(length);
  let i = 0;
  try {
    for (; i < length; i++) out[i] = checkScalar(scalar, list[i], '', memory);
  } catch (error) {
    throw at(i, error);
  }
  return out;
}

function elements(
  value: unknown,
  length: number,
  element: DataType,
  memory: boolean,
): readonly CanonicalValue[] {
  const list = listOf(value, length);
  const out = new Array<CanonicalValue>(length);
  let i = 0;
  try {
    for (; i < length; i++) out[i] = canonical(element, list[i], memory);
  } catch (error) {
    throw at(i, error);
  }
  return out;
}

function listOf(value: unknown, length: number): ArrayLike<unknown> {
  if (!isArrayLike(value)) {
    throw new ValueError('', `expected an array of ${length} elements, got ${show(value)}`);
  }
  if (value.length !== length) {
    throw new ValueError('', `expected ${length} elements, got ${value.length}`);
  }
  return value;
}

/** A ValueError of element `index`, placed inside the list. */
function at(index: number, error: unknown): unknown {
  return error instanceof ValueError
    ? new ValueError(`[${index}]${error.path}`, error.reason)
    : error;
}

/** An array or a typed array (not a DataView): what a vector, matrix or array value may be. */
export function isArrayLike(value: unknown): value is ArrayLike<unknown> {
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
