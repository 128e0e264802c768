/**
 * Initial values of declarations (a specialization constant's default, a device global's
 * initial contents) follow SYCL's value initialisation: what is not given is zero. Arrays may
 * list fewer elements than their length and structs may leave fields out, as C++'s
 * `int f[5] = {5}` and aggregate initialisation do; scalars, vectors and matrices are given whole.
 */
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
