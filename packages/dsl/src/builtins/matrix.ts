/**
 * SYCL's `joint_matrix` (the `sycl_ext_oneapi_matrix` extension): a small matrix that a whole
 * sub-group holds and works on together, multiplied on the GPU's matrix units where the device
 * has them. In device code of nd-range kernels only; every item of the sub-group calls each
 * function together (the build checks the control flow is uniform). The compiler lowers them to
 * WGSL's subgroup-matrix built-ins where the device offers the shape, and to plain WGSL where
 * the device has no subgroup matrices (both from one build). On the host they throw.
 */
import type { SubGroup } from '../device/kernel-scope.js';
import type { DeviceArray } from '../device/values.js';
import type { ScalarType } from '../types/data-type.js';

/** What a matrix is for in `d = a × b + c`: SYCL's `use::a`, `use::b`, `use::accumulator`. */
export const MATRIX_USES = ['a', 'b', 'accumulator'] as const;
export type MatrixUse = (typeof MATRIX_USES)[number];

/** How a matrix lies in memory: element (r, c) at `offset + r * stride + c`, or `+ c * stride + r`. */
export const MATRIX_LAYOUTS = ['rowMajor', 'colMajor'] as const;
export type MatrixLayout = (typeof MATRIX_LAYOUTS)[number];

/** The element types of joint matrices. */
export type MatrixElementName = 'f16' | 'f32' | 'i32' | 'u32';

/** The element-wise operations `jointMatrixApply` takes: `element <op> value`. */
export const MATRIX_SCALAR_OPERATORS = ['+', '-', '*'] as const;
export type MatrixScalarOperator = (typeof MATRIX_SCALAR_OPERATORS)[number];

/**
 * SYCL's `joint_matrix<sub_group, T, use, Rows, Cols, layout>`: a value device code holds in a
 * local only (not in memory, not passed to functions, not chosen by `?:`). The accumulator's
 * layout is given where it is loaded and stored (SYCL's `layout::dynamic`).
 */
export interface JointMatrix<
  U extends MatrixUse,
  S extends MatrixElementName,
  R extends number,
  C extends number,
  L extends MatrixLayout | 'dynamic',
> {
  /** Phantom: never present at run time. */
  readonly __jointMatrix?: {
    readonly use: U;
    readonly element: S;
    readonly rows: R;
    readonly columns: C;
    readonly layout: L;
  };
}

/** An accumulator of `S` elements, `R` by `C`. */
export type Accumulator<
  S extends MatrixElementName,
  R extends number,
  C extends number,
> = JointMatrix<'accumulator', S, R, C, 'dynamic'>;

/**
 * Where a matrix is loaded from and stored to: a kernel's accessor (`args.a`) or workgroup array
 * (`local.tile`) of the matrix's element type.
 */
export type MatrixMemory = { readonly [index: number]: number } | DeviceArray<number>;

/** The joint-matrix functions the compiler knows, by their DSL names. */
export const MATRIX_FUNCTIONS = [
  'jointMatrix',
  'jointMatrixFill',
  'jointMatrixLoad',
  'jointMatrixStore',
  'jointMatrixMad',
  'jointMatrixApply',
] as const;
export type MatrixFunctionName = (typeof MATRIX_FUNCTIONS)[number];

function deviceOnly(name: string): never {
  throw new Error(`${name} is device code: call it inside an nd-range kernel`);
}
const matrixFunction = (name: MatrixFunctionName) => (() => deviceOnly(name)) as never;

/**
 * A new matrix of the sub-group, every element zero. `rows` and `columns` are constants;
 * `layout` (a and b only, row-major by default) is how `jointMatrixLoad` reads it.
 */
export const jointMatrix: {
  <S extends MatrixElementName, R extends number, C extends number>(
    sg: SubGroup,
    use: 'accumulator',
    element: ScalarType<S>,
    rows: R,
    columns: C,
  ): Accumulator<S, R, C>;
  <
    U extends 'a' | 'b',
    S extends MatrixElementName,
    R extends number,
    C extends number,
    L extends MatrixLayout = 'rowMajor',
  >(
    sg: SubGroup,
    use: U,
    element: ScalarType<S>,
    rows: R,
    columns: C,
    layout?: L,
  ): JointMatrix<U, S, R, C, L>;
} = matrixFunction('jointMatrix');

/** Sets every element of `m` to `value` (SYCL's `joint_matrix_fill`). */
export const jointMatrixFill: <
  U extends MatrixUse,
  S extends MatrixElementName,
  R extends number,
  C extends number,
  L extends MatrixLayout | 'dynamic',
>(
  sg: SubGroup,
  m: JointMatrix<U, S, R, C, L>,
  value: number,
) => void = matrixFunction('jointMatrixFill');

/**
 * Loads `m` from `memory` at `offset` (elements), rows (or columns, column-major) `stride`
 * elements apart (SYCL's `joint_matrix_load`); an accumulator names its layout.
 */
export const jointMatrixLoad: {
  <U extends 'a' | 'b', S extends MatrixElementName, R extends number, C extends number>(
    sg: SubGroup,
    m: JointMatrix<U, S, R, C, MatrixLayout>,
    memory: MatrixMemory,
    offset: number,
    stride: number,
  ): void;
  <S extends MatrixElementName, R extends number, C extends number>(
    sg: SubGroup,
    m: Accumulator<S, R, C>,
    memory: MatrixMemory,
    offset: number,
    stride: number,
    layout: MatrixLayout,
  ): void;
} = matrixFunction('jointMatrixLoad');

/** Stores the accumulator `m` into `memory` as `jointMatrixLoad` reads it (SYCL's `joint_matrix_store`). */
export const jointMatrixStore: <S extends MatrixElementName, R extends number, C extends number>(
  sg: SubGroup,
  m: Accumulator<S, R, C>,
  memory: MatrixMemory,
  offset: number,
  stride: number,
  layout: MatrixLayout,
) => void = matrixFunction('jointMatrixStore');

/**
 * `d = a × b + c` (SYCL's `joint_matrix_mad`): `a` is M × K, `b` K × N, `c` and `d` M × N; `a`
 * and `b` have one element type, `c` and `d` another or the same. `d` may be `c`.
 */
export const jointMatrixMad: <
  SA extends MatrixElementName,
  SC extends MatrixElementName,
  M extends number,
  K extends number,
  N extends number,
>(
  sg: SubGroup,
  d: Accumulator<SC, M, N>,
  // The shapes and types come from d and a alone, so that a mismatch is an error, not a union.
  a: JointMatrix<'a', SA, NoInfer<M>, K, MatrixLayout>,
  b: JointMatrix<'b', NoInfer<SA>, NoInfer<K>, NoInfer<N>, MatrixLayout>,
  c: Accumulator<NoInfer<SC>, NoInfer<M>, NoInfer<N>>,
) => void = matrixFunction('jointMatrixMad');

/** Every element `e` of `m` becomes `e <op> value`: the element-wise operations WGSL has. */
export const jointMatrixApply: <
  U extends MatrixUse,
  S extends MatrixElementName,
  R extends number,
  C extends number,
  L extends MatrixLayout | 'dynamic',
>(
  sg: SubGroup,
  m: JointMatrix<U, S, R, C, L>,
  op: MatrixScalarOperator,
  value: number,
) => void = matrixFunction('jointMatrixApply');
