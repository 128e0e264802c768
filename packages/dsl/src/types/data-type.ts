/**
 * Data type descriptors. The same plain, serialisable objects describe a type in three places:
 * in `.sycl.ts` source (as values the compiler reads statically), in the compiler's IR, and in
 * the device image's property sets (where the runtime uses them to encode host values).
 * Generic parameters are phantom: they let TypeScript derive host value types.
 */

export type ScalarName = 'bool' | 'i32' | 'u32' | 'f32' | 'f16';
export type NumericScalarName = Exclude<ScalarName, 'bool'>;
export type IntegerScalarName = 'i32' | 'u32';
/** What an atomic holds: i32 and u32 as WGSL's atomics, f32 as the bits of an `atomic<u32>`. */
export type AtomicScalarName = 'i32' | 'u32' | 'f32';
export type VectorSize = 2 | 3 | 4;
export type MatrixDim = 2 | 3 | 4;

export interface ScalarType<S extends ScalarName = ScalarName> {
  readonly kind: 'scalar';
  readonly scalar: S;
}

export interface VectorType<S extends ScalarName = ScalarName, N extends VectorSize = VectorSize> {
  readonly kind: 'vector';
  readonly component: S;
  readonly size: N;
}

/** A column-major `matCxR<f32>` (C columns of vecR). */
export interface MatrixType<C extends MatrixDim = MatrixDim, R extends MatrixDim = MatrixDim> {
  readonly kind: 'matrix';
  readonly component: 'f32';
  readonly columns: C;
  readonly rows: R;
}

export interface ArrayType<E extends DataType = DataType, N extends number = number> {
  readonly kind: 'array';
  readonly element: E;
  readonly length: N;
}

export interface StructField<T extends DataType = DataType> {
  readonly name: string;
  readonly type: T;
}

export type StructShape = { readonly [field: string]: DataType };

export interface StructType<F extends StructShape = StructShape> {
  readonly kind: 'struct';
  /** Fields in declaration order: layout and flattening follow this order. */
  readonly fields: readonly StructField[];
  /** Phantom: never present at run time. */
  readonly __shape?: F;
}

export interface AtomicType<S extends AtomicScalarName = AtomicScalarName> {
  readonly kind: 'atomic';
  readonly scalar: S;
}

export type DataType = ScalarType | VectorType | MatrixType | ArrayType | StructType | AtomicType;

type Tuple<T, N extends number, Acc extends T[] = []> = Acc['length'] extends N
  ? Acc
  : Tuple<T, N, [...Acc, T]>;

type MatrixElements = {
  2: { 2: 4; 3: 6; 4: 8 };
  3: { 2: 6; 3: 9; 4: 12 };
  4: { 2: 8; 3: 12; 4: 16 };
};

type ScalarHost<S extends ScalarName> = S extends 'bool' ? boolean : number;

/**
 * The host (JavaScript) value of a data type: what `setSpecializationConstant` takes and
 * `getSpecializationConstant` returns. Vectors are tuples, matrices flat column-major tuples,
 * arrays of fixed length tuples when the length is a literal type, structs objects.
 */
export type HostValue<T extends DataType> =
  T extends ScalarType<infer S>
    ? ScalarHost<S>
    : T extends VectorType<infer S, infer N>
      ? Tuple<ScalarHost<S>, N>
      : T extends MatrixType<infer C, infer R>
        ? Tuple<number, MatrixElements[C][R]>
        : T extends ArrayType<infer E, infer N>
          ? number extends N
            ? HostValue<E>[]
            : Tuple<HostValue<E>, N>
          : T extends StructType<infer F>
            ? { -readonly [K in keyof F]: HostValue<F[K]> }
            : T extends AtomicType
              ? number
              : never;
