import type {
  ArrayType,
  AtomicType,
  DataType,
  IntegerScalarName,
  MatrixDim,
  MatrixType,
  ScalarName,
  ScalarType,
  StructShape,
  StructType,
  VectorSize,
  VectorType,
} from './data-type.js';

function scalar<S extends ScalarName>(name: S): ScalarType<S> {
  return Object.freeze({ kind: 'scalar', scalar: name });
}

export const bool = scalar('bool');
export const i32 = scalar('i32');
export const u32 = scalar('u32');
export const f32 = scalar('f32');
export const f16 = scalar('f16');

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

export function struct<F extends StructShape>(shape: F): StructType<F> {
  const fields = Object.entries(shape).map(([name, type]) => Object.freeze({ name, type }));
  return Object.freeze({ kind: 'struct', fields: Object.freeze(fields) });
}

export function atomic<S extends IntegerScalarName>(type: ScalarType<S>): AtomicType<S> {
  return Object.freeze({ kind: 'atomic', scalar: type.scalar });
}
