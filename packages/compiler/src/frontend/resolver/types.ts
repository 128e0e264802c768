/** Plain data type values and the WGSL typing rules the front end needs. */
import type {
  DataType,
  MatrixDim,
  ScalarName,
  ScalarType,
  StructField,
  VectorSize,
  VectorType,
} from '@syclts/dsl';

export { typeName } from '@syclts/dsl';

export const scalarType = <S extends ScalarName>(scalar: S): ScalarType<S> => ({
  kind: 'scalar',
  scalar,
});
export const BOOL = scalarType('bool');
export const I32 = scalarType('i32');
export const U32 = scalarType('u32');
export const F32 = scalarType('f32');

export const vectorType = (component: ScalarName, size: VectorSize): VectorType => ({
  kind: 'vector',
  component,
  size,
});

export const matrixType = (columns: MatrixDim, rows: MatrixDim): DataType => ({
  kind: 'matrix',
  component: 'f32',
  columns,
  rows,
});

export const arrayType = (element: DataType, length: number): DataType => ({
  kind: 'array',
  element,
  length,
});

export const structType = (fields: readonly StructField[]): DataType => ({
  kind: 'struct',
  fields,
});

/** The scalar of a scalar or vector type, else null. */
export function scalarOf(type: DataType): ScalarName | null {
  if (type.kind === 'scalar') return type.scalar;
  if (type.kind === 'vector') return type.component;
  return null;
}

export const isInteger = (s: ScalarName | null): s is 'i32' | 'u32' => s === 'i32' || s === 'u32';
export const isFloat = (s: ScalarName | null): s is 'f32' | 'f16' => s === 'f32' || s === 'f16';
export const isNumeric = (s: ScalarName | null): boolean => isInteger(s) || isFloat(s);

/** Same shape (scalar or vector of the same size) with another component scalar. */
export function withScalar(type: DataType, scalar: ScalarName): DataType {
  return type.kind === 'vector' ? vectorType(scalar, type.size) : scalarType(scalar);
}

/** Whether values of the type can live in storage memory the host shares (no bool). */
export function hostShareable(type: DataType): boolean {
  switch (type.kind) {
    case 'scalar':
      return type.scalar !== 'bool';
    case 'vector':
      return type.component !== 'bool';
    case 'matrix':
    case 'atomic':
      return true;
    case 'array':
      return hostShareable(type.element);
    case 'struct':
      return type.fields.every((f) => hostShareable(f.type));
  }
}

export function containsAtomic(type: DataType): boolean {
  switch (type.kind) {
    case 'atomic':
      return true;
    case 'array':
      return containsAtomic(type.element);
    case 'struct':
      return type.fields.some((f) => containsAtomic(f.type));
    default:
      return false;
  }
}
