/**
 * Initial values of declarations (a specialization constant's default, a device global's
 * initial contents) follow SYCL's value initialisation: what is not given is zero. Arrays may
 * list fewer elements than their length and structs may leave fields out, as C++'s
 * `int f[5] = {5}` and aggregate initialisation do; scalars, vectors and matrices are given whole.
 */
import { strideOf, structLayout } from '../abi/layout.js';
import { type HostScalar, writeScalar } from '../abi/scalars.js';
import { type ShareableValue, writeValue } from '../abi/values.js';
import type { JsonValue } from '../image/program.js';
import type { ArrayType, DataType, HostValue, StructType } from './data-type.js';

/** What a declaration may be initialised with: a host value, with trailing elements and fields optional. */
export type InitialValue<T extends DataType> =
  T extends ArrayType<infer E>
    ? readonly InitialValue<E>[]
    : T extends StructType<infer F>
      ? { readonly [K in keyof F]?: InitialValue<F[K]> }
      : HostValue<T>;

/** The value a declaration without an initial value has: zero, false, or composites of those. */
export function zeroValue<T extends DataType>(type: T): HostValue<T>;
export function zeroValue(type: DataType): unknown {
  switch (type.kind) {
    case 'scalar':
      return type.scalar === 'bool' ? false : 0;
    case 'atomic':
      return 0;
    case 'vector':
      return Array.from({ length: type.size }, () => (type.component === 'bool' ? false : 0));
    case 'matrix':
      return Array.from({ length: type.columns * type.rows }, () => 0);
    case 'array':
      return Array.from({ length: type.length }, () => zeroValue(type.element));
    case 'struct':
      return Object.fromEntries(type.fields.map((f) => [f.name, zeroValue(f.type)]));
  }
}

/**
 * The whole host value of a (possibly partial) initial value: missing array elements and struct
 * fields become zero, at every depth. Whatever does not have the shape of an array or struct is
 * returned as it is, for the value checks that follow to report.
 */
export function completeValue<T extends DataType>(type: T, value: InitialValue<T>): HostValue<T>;
export function completeValue(type: DataType, value: unknown): unknown {
  if (type.kind === 'array' && Array.isArray(value) && value.length <= type.length) {
    return Array.from({ length: type.length }, (_, i) =>
      i < value.length ? completeValue(type.element, value[i]) : zeroValue(type.element),
    );
  }
  if (
    type.kind === 'struct' &&
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value)
  ) {
    const given = value as Record<string, unknown>;
    const known = new Set(type.fields.map((f) => f.name));
    const extra = Object.keys(given).filter((k) => !known.has(k));
    const whole: Record<string, unknown> = Object.fromEntries(
      type.fields.map((f) => [
        f.name,
        f.name in given ? completeValue(f.type, given[f.name] as never) : zeroValue(f.type),
      ]),
    );
    // Unknown fields stay, so that the value check names them.
    for (const k of extra) whole[k] = given[k];
    return whole;
  }
  return value;
}

/**
 * Writes a device global's initial value as the image format keeps it (see `DeviceGlobalInfo`)
 * into zero-filled memory: only the elements and fields it lists, so that a large global given
 * a few values costs as much as those values.
 */
export function writeInitialValue(
  view: DataView,
  offset: number,
  type: DataType,
  value: JsonValue,
): void {
  if (value === null) return;
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      writeScalar(view, offset, type.scalar, value as HostScalar);
      return;
    case 'vector':
    case 'matrix':
      writeValue(view, offset, type, value as ShareableValue, 'storage');
      return;
    case 'array': {
      const stride = strideOf(type.element);
      const items = value as readonly JsonValue[];
      for (let i = 0; i < items.length; i++) {
        writeInitialValue(view, offset + i * stride, type.element, items[i]!);
      }
      return;
    }
    case 'struct': {
      const { offsets } = structLayout(type);
      const record = value as { readonly [field: string]: JsonValue };
      for (const [i, field] of type.fields.entries()) {
        if (Object.hasOwn(record, field.name)) {
          writeInitialValue(view, offset + offsets[i]!, field.type, record[field.name]!);
        }
      }
      return;
    }
  }
}
