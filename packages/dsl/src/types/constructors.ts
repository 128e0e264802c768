import type { DeviceValue } from '../device/values.js';
import type {
  ArrayType,
  AtomicScalarName,
  AtomicType,
  DataType,
  MatrixDim,
  MatrixType,
  ScalarName,
  ScalarType,
  StructShape,
  StructType,
  VectorSize,
  VectorType,
} from './data-type.js';

/**
 * A scalar type that is also its WGSL conversion, so device code writes `f32(i)` or `u32(x)`.
 * On the host the conversion follows WGSL for values of the source types; `toJSON` keeps the
 * serialised form that of a plain descriptor.
 */
export type ScalarConversion<S extends ScalarName> = ScalarType<S> &
  ((value: number | boolean) => S extends 'bool' ? boolean : number);

function scalar<S extends ScalarName>(
  name: S,
  convert: (value: number) => number | boolean,
): ScalarConversion<S> {
  const descriptor = { kind: 'scalar', scalar: name } as const;
  const fn = (value: number | boolean) => convert(Number(value));
  return Object.freeze(
    Object.assign(fn, descriptor, { toJSON: () => descriptor }),
  ) as unknown as ScalarConversion<S>;
}

const saturate = (x: number, lo: number, hi: number) =>
  Number.isNaN(x) ? 0 : Math.trunc(Math.min(hi, Math.max(lo, x)));

export const bool = scalar('bool', (x) => x !== 0);
export const i32 = scalar('i32', (x) =>
  Number.isInteger(x) ? x | 0 : saturate(x, -(2 ** 31), 2 ** 31 - 1),
);
export const u32 = scalar('u32', (x) =>
  Number.isInteger(x) ? x >>> 0 : saturate(x, 0, 2 ** 32 - 1),
);
export const f32 = scalar('f32', Math.fround);
export const f16 = scalar('f16', (x) => x);

export function vec<S extends ScalarName, N extends VectorSize>(
  component: ScalarType<S>,
  size: N,
): VectorType<S, N> {
  return Object.freeze({ kind: 'vector', component: component.scalar, size });
}

export function mat<C extends MatrixDim, R extends MatrixDim>(
  columns: C,
  rows: R,
): MatrixType<C, R> {
  return Object.freeze({ kind: 'matrix', component: 'f32', columns, rows });
}

export function array<E extends DataType, N extends number>(
  element: E,
  length: N,
): ArrayType<E, N> {
  return Object.freeze({ kind: 'array', element, length });
}

/** A struct type that is also its constructor in device code: `Particle({ mass: 1, ... })`. */
export type StructConstructor<F extends StructShape> = StructType<F> &
  ((value: DeviceValue<StructType<F>>) => DeviceValue<StructType<F>>);

export function struct<F extends StructShape>(shape: F): StructConstructor<F> {
  const fields = Object.freeze(
    Object.entries(shape).map(([name, type]) => Object.freeze({ name, type })),
  );
  const descriptor = { kind: 'struct', fields } as const;
  const construct = () => {
    throw new Error('struct constructors are device code: call them inside a kernel');
  };
  return Object.freeze(
    Object.assign(construct, descriptor, { toJSON: () => descriptor }),
  ) as unknown as StructConstructor<F>;
}

/**
 * An atomic of i32, u32 or f32, for accessor elements, workgroup arrays and device globals. WGSL
 * has no `atomic<f32>`: an `atomic(f32)` is held as the bits of an `atomic<u32>`, and its add,
 * sub, min and max are compare-exchange loops (docs/device-code.md, "Atomics").
 */
export function atomic<S extends AtomicScalarName>(type: ScalarType<S>): AtomicType<S> {
  return Object.freeze({ kind: 'atomic', scalar: type.scalar });
}
