/**
 * How device values look to the editor. Scalars are numbers and booleans and use the ordinary
 * operators; vectors and matrices are objects with components, swizzles and indexing, and
 * their arithmetic is spelled with the DSL functions `add`, `sub`, `mul`, `div`, ... because
 * TypeScript has no operator overloading. The phantom `__component`/`__size` members keep
 * vec3f and vec3i apart in the editor.
 */
import type {
  ArrayType,
  AtomicScalarName,
  AtomicType,
  DataType,
  MatrixDim,
  MatrixType,
  ScalarName,
  ScalarType,
  StructType,
  VectorSize,
  VectorType,
} from '../types/data-type.js';

export type ScalarValue<S extends ScalarName> = S extends 'bool' ? boolean : number;

type Xyzw<N extends VectorSize> = N extends 2
  ? 'x' | 'y'
  : N extends 3
    ? 'x' | 'y' | 'z'
    : 'x' | 'y' | 'z' | 'w';
type Rgba<N extends VectorSize> = N extends 2
  ? 'r' | 'g'
  : N extends 3
    ? 'r' | 'g' | 'b'
    : 'r' | 'g' | 'b' | 'a';
type Swizzles<S extends ScalarName, L extends string> = {
  readonly [K in `${L}${L}`]: Vec<S, 2>;
} & { readonly [K in `${L}${L}${L}`]: Vec<S, 3> } & {
  readonly [K in `${L}${L}${L}${L}`]: Vec<S, 4>;
};

/**
 * A WGSL `vecN<S>` in device code: `.x`/`.r` components (assignable), swizzles, `[i]`. Unions
 * of S or N distribute: `Vec<'f32'>` is any f32 vector.
 */
export type Vec<
  S extends ScalarName = ScalarName,
  N extends VectorSize = VectorSize,
> = S extends ScalarName ? (N extends VectorSize ? VecOf<S, N> : never) : never;

type VecOf<S extends ScalarName, N extends VectorSize> = {
  [K in Xyzw<N> | Rgba<N>]: ScalarValue<S>;
} & Swizzles<S, Xyzw<N>> &
  Swizzles<S, Rgba<N>> & {
    [index: number]: ScalarValue<S>;
    readonly __component?: S;
    readonly __size?: N;
  };

/** A WGSL `matCxR<f32>` in device code: `m[c]` is column c. */
export interface Mat<C extends MatrixDim = MatrixDim, R extends MatrixDim = MatrixDim> {
  [column: number]: Vec<'f32', R>;
  readonly __columns?: C;
  readonly __rows?: R;
}

/** An `atomic<S>` place: only the atomic functions (atomicAdd, atomicLoad, ...) use it. */
export interface Atomic<S extends AtomicScalarName = AtomicScalarName> {
  readonly __atomic: S;
}

/** A fixed-size array value: `a[i]` and `.length`. */
export interface DeviceArray<E> {
  [index: number]: E;
  readonly length: number;
}

/** The device-code view of a value of data type T. */
export type DeviceValue<T extends DataType> =
  T extends ScalarType<infer S>
    ? ScalarValue<S>
    : T extends VectorType<infer S, infer N>
      ? Vec<S, N>
      : T extends MatrixType<infer C, infer R>
        ? Mat<C, R>
        : T extends ArrayType<infer E>
          ? DeviceArray<DeviceValue<E>>
          : T extends StructType<infer F>
            ? { -readonly [K in keyof F]: DeviceValue<F[K]> }
            : T extends AtomicType<infer S>
              ? Atomic<S>
              : never;

/** Any value of a numeric scalar or vector type (what the component-wise built-ins take). */
export type NumericValue = number | Vec<'i32' | 'u32' | 'f32' | 'f16'>;
export type FloatValue = number | Vec<'f32' | 'f16'>;
export type IntegerValue = number | Vec<'i32' | 'u32'>;
