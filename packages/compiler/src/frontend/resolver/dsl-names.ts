/** What the names exported by `@syclts/dsl` mean to the compiler. */
import type { DataType, MatrixDim, ScalarName, VectorSize } from '@syclts/dsl';
import { matrixType, scalarType, vectorType } from './types.js';

const SCALARS: readonly ScalarName[] = ['bool', 'i32', 'u32', 'f32', 'f16'];
const VECTOR_SUFFIX: Record<ScalarName, string> = {
  bool: 'b',
  i32: 'i',
  u32: 'u',
  f32: 'f',
  f16: 'h',
};

/** `f32`, `vec3f`, `mat4x4f`, ...: names that are a type (and, in device code, its constructor). */
export const DSL_TYPE_NAMES: ReadonlyMap<string, DataType> = (() => {
  const names = new Map<string, DataType>();
  for (const s of SCALARS) {
    names.set(s, scalarType(s));
    for (const n of [2, 3, 4] as const) names.set(`vec${n}${VECTOR_SUFFIX[s]}`, vectorType(s, n));
  }
  for (const c of [2, 3, 4] as const) {
    for (const r of [2, 3, 4] as const) names.set(`mat${c}x${r}f`, matrixType(c, r));
  }
  return names;
})();

export const DECLARATIONS: ReadonlySet<string> = new Set([
  'specializationId',
  'deviceGlobal',
  'kernel',
  'deviceFunction',
]);

export const isVectorSize = (n: number): n is VectorSize => n === 2 || n === 3 || n === 4;
export const isMatrixDim = (n: number): n is MatrixDim => n === 2 || n === 3 || n === 4;
