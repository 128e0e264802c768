/**
 * The device-code vocabulary beyond operators: vector and matrix constructors, component-wise
 * arithmetic on vectors, WGSL built-in functions, atomics, device functions and the raw-WGSL
 * escape hatch. The compiler translates calls to these; on the host they throw, because they
 * only mean something on the device.
 */
import type { DeviceGlobal } from '../declarations/device-global.js';
import type { KernelHandler } from '../device/kernel-scope.js';
import type { Atomic, DeviceValue, Mat, NumericValue, ScalarValue, Vec } from '../device/values.js';
import type {
  AtomicScalarName,
  AtomicType,
  DataType,
  IntegerScalarName,
  MatrixDim,
  MatrixType,
  ScalarName,
  VectorSize,
  VectorType,
} from '../types/data-type.js';
import type { BoolVecOf, DslBuiltinName, Overloads, Table } from './typings.js';

function deviceOnly(name: string): never {
  throw new Error(`${name} is device code: call it inside a kernel or a deviceFunction`);
}

/* ------------------------------------------------------------------ vectors and matrices */

/**
 * What a vector constructor takes, as WGSL does: nothing (zeros), one scalar (to every
 * component), a vector of the size (converted), or scalars and smaller vectors that make up
 * exactly N components; so `vec3f(1, 2, 3, 4)` is an editor error as it is a build error.
 */
type VecComponents<S extends ScalarName, N extends VectorSize> =
  | []
  | [ScalarValue<S>]
  | [Vec<ScalarName, N>]
  | Parts<ScalarValue<S>, Vec<S, 2>, Vec<S, 3>>[N];

/** The ways to make up 2, 3 and 4 components from scalars `s` and vectors `v2`, `v3`. */
type Parts<s, v2, v3> = {
  2: [s, s];
  3: [s, s, s] | [v2, s] | [s, v2];
  4: [s, s, s, s] | [v2, s, s] | [s, v2, s] | [s, s, v2] | [v2, v2] | [v3, s] | [s, v3];
};

/** A vector type that is also its constructor: `vec3f(1, 2, 3)`, `vec4f(v.xyz, 1)`, `vec2u(n)`. */
export type VectorConstructor<S extends ScalarName, N extends VectorSize> = VectorType<S, N> &
  ((...components: VecComponents<S, N>) => Vec<S, N>);

/** `n` copies of `T`, as a tuple. */
type Repeat<T, N extends number, Acc extends T[] = []> = Acc['length'] extends N
  ? Acc
  : Repeat<T, N, [...Acc, T]>;

/** C × R, the elements of a matrix. */
type Elements = { 2: { 2: 4; 3: 6; 4: 8 }; 3: { 2: 6; 3: 9; 4: 12 }; 4: { 2: 8; 3: 12; 4: 16 } };

/**
 * A matrix type that is also its constructor: nothing (zeros), its C columns, or its C × R
 * elements column by column.
 */
export type MatrixConstructor<C extends MatrixDim, R extends MatrixDim> = MatrixType<C, R> &
  ((...values: [] | Repeat<Vec<'f32', R>, C> | Repeat<number, Elements[C][R]>) => Mat<C, R>);

function vectorType<S extends ScalarName, N extends VectorSize>(
  component: S,
  size: N,
  name: string,
): VectorConstructor<S, N> {
  const descriptor = { kind: 'vector', component, size } as const;
  return Object.freeze(
    Object.assign(() => deviceOnly(name), descriptor, { toJSON: () => descriptor }),
  ) as unknown as VectorConstructor<S, N>;
}

function matrixType<C extends MatrixDim, R extends MatrixDim>(
  columns: C,
  rows: R,
): MatrixConstructor<C, R> {
  const descriptor = { kind: 'matrix', component: 'f32', columns, rows } as const;
  return Object.freeze(
    Object.assign(() => deviceOnly(`mat${columns}x${rows}f`), descriptor, {
      toJSON: () => descriptor,
    }),
  ) as unknown as MatrixConstructor<C, R>;
}

export const vec2f = vectorType('f32', 2, 'vec2f');
export const vec3f = vectorType('f32', 3, 'vec3f');
export const vec4f = vectorType('f32', 4, 'vec4f');
export const vec2h = vectorType('f16', 2, 'vec2h');
export const vec3h = vectorType('f16', 3, 'vec3h');
export const vec4h = vectorType('f16', 4, 'vec4h');
export const vec2i = vectorType('i32', 2, 'vec2i');
export const vec3i = vectorType('i32', 3, 'vec3i');
export const vec4i = vectorType('i32', 4, 'vec4i');
export const vec2u = vectorType('u32', 2, 'vec2u');
export const vec3u = vectorType('u32', 3, 'vec3u');
export const vec4u = vectorType('u32', 4, 'vec4u');
export const vec2b = vectorType('bool', 2, 'vec2b');
export const vec3b = vectorType('bool', 3, 'vec3b');
export const vec4b = vectorType('bool', 4, 'vec4b');
export const mat2x2f = matrixType(2, 2);
export const mat2x3f = matrixType(2, 3);
export const mat2x4f = matrixType(2, 4);
export const mat3x2f = matrixType(3, 2);
export const mat3x3f = matrixType(3, 3);
export const mat3x4f = matrixType(3, 4);
export const mat4x2f = matrixType(4, 2);
export const mat4x3f = matrixType(4, 3);
export const mat4x4f = matrixType(4, 4);

/* ------------------------------------------------ component-wise arithmetic (vectors) */

type NumVec = Vec<'i32' | 'u32' | 'f32' | 'f16'>;
type ArithmeticOp = {
  <V extends NumVec>(a: V, b: V | number): V;
  <V extends NumVec>(a: number, b: V): V;
  (a: number, b: number): number;
};

/** `a + b` for vectors (and a vector with a scalar). */
export const add: ArithmeticOp = () => deviceOnly('add');
/** `a - b` for vectors (and a vector with a scalar). */
export const sub: ArithmeticOp = () => deviceOnly('sub');
/** `a / b` for vectors (and a vector with a scalar). */
export const div: ArithmeticOp = () => deviceOnly('div');
/** `a % b` for vectors (and a vector with a scalar). */
export const rem: ArithmeticOp = () => deviceOnly('rem');

/** `a * b`: component-wise for vectors; linear algebra for matrices. */
export const mul: {
  <C extends MatrixDim, R extends MatrixDim>(m: Mat<C, R>, v: Vec<'f32', C>): Vec<'f32', R>;
  <C extends MatrixDim, R extends MatrixDim>(v: Vec<'f32', R>, m: Mat<C, R>): Vec<'f32', C>;
  <K extends MatrixDim, R extends MatrixDim, C extends MatrixDim>(
    a: Mat<K, R>,
    b: Mat<C, K>,
  ): Mat<C, R>;
  <M extends Mat>(m: M, s: number): M;
  <V extends NumVec>(a: V, b: V | number): V;
  <V extends NumVec>(a: number, b: V): V;
  (a: number, b: number): number;
} = () => deviceOnly('mul');

/** `-v` for vectors. */
export const neg: <V extends NumericValue>(v: V) => V = () => deviceOnly('neg');

type Comparison = <V extends NumericValue | Vec<'bool'>>(a: V, b: V) => BoolVecOf<V>;

/** Component-wise comparisons of vectors, giving bool vectors (see all/any/select). */
export const eq: Comparison = () => deviceOnly('eq');
export const ne: Comparison = () => deviceOnly('ne');
export const lt: Comparison = () => deviceOnly('lt');
export const le: Comparison = () => deviceOnly('le');
export const gt: Comparison = () => deviceOnly('gt');
export const ge: Comparison = () => deviceOnly('ge');

/* ------------------------------------------------------------- WGSL built-in functions */

/**
 * Each entry of the built-in table (table.ts) that the DSL exports, typed from its overloads:
 * `(T, T) -> T` becomes `(a: number, b: number) => number`, `(vecN<T>) -> T` becomes
 * `<V extends Vec<'f32' | 'f16'>>(v: V) => number`, and so on, one TypeScript overload each.
 */
export type DslBuiltins = { readonly [K in DslBuiltinName]: Builtin<K> };

/** The DSL function of built-in `name`: typed from its table entry, and device-only on the host. */
export type Builtin<K extends DslBuiltinName> = Overloads<Table[K]>;
const builtin = <K extends DslBuiltinName>(name: K): Builtin<K> =>
  (() => deviceOnly(name)) as unknown as Builtin<K>;

export const sqrt: Builtin<'sqrt'> = builtin('sqrt');
export const inverseSqrt: Builtin<'inverseSqrt'> = builtin('inverseSqrt');
export const sin: Builtin<'sin'> = builtin('sin');
export const cos: Builtin<'cos'> = builtin('cos');
export const tan: Builtin<'tan'> = builtin('tan');
export const asin: Builtin<'asin'> = builtin('asin');
export const acos: Builtin<'acos'> = builtin('acos');
export const atan: Builtin<'atan'> = builtin('atan');
export const sinh: Builtin<'sinh'> = builtin('sinh');
export const cosh: Builtin<'cosh'> = builtin('cosh');
export const tanh: Builtin<'tanh'> = builtin('tanh');
export const asinh: Builtin<'asinh'> = builtin('asinh');
export const acosh: Builtin<'acosh'> = builtin('acosh');
export const atanh: Builtin<'atanh'> = builtin('atanh');
export const exp: Builtin<'exp'> = builtin('exp');
export const exp2: Builtin<'exp2'> = builtin('exp2');
export const log: Builtin<'log'> = builtin('log');
export const log2: Builtin<'log2'> = builtin('log2');
export const floor: Builtin<'floor'> = builtin('floor');
export const ceil: Builtin<'ceil'> = builtin('ceil');
export const round: Builtin<'round'> = builtin('round');
export const trunc: Builtin<'trunc'> = builtin('trunc');
export const fract: Builtin<'fract'> = builtin('fract');
export const saturate: Builtin<'saturate'> = builtin('saturate');
export const degrees: Builtin<'degrees'> = builtin('degrees');
export const radians: Builtin<'radians'> = builtin('radians');
export const pow: Builtin<'pow'> = builtin('pow');
export const atan2: Builtin<'atan2'> = builtin('atan2');
export const step: Builtin<'step'> = builtin('step');
export const fma: Builtin<'fma'> = builtin('fma');
export const mix: Builtin<'mix'> = builtin('mix');
export const smoothstep: Builtin<'smoothstep'> = builtin('smoothstep');
export const abs: Builtin<'abs'> = builtin('abs');
export const sign: Builtin<'sign'> = builtin('sign');
export const min: Builtin<'min'> = builtin('min');
export const max: Builtin<'max'> = builtin('max');
export const clamp: Builtin<'clamp'> = builtin('clamp');
export const countOneBits: Builtin<'countOneBits'> = builtin('countOneBits');
export const reverseBits: Builtin<'reverseBits'> = builtin('reverseBits');
export const countLeadingZeros: Builtin<'countLeadingZeros'> = builtin('countLeadingZeros');
export const countTrailingZeros: Builtin<'countTrailingZeros'> = builtin('countTrailingZeros');
export const firstLeadingBit: Builtin<'firstLeadingBit'> = builtin('firstLeadingBit');
export const firstTrailingBit: Builtin<'firstTrailingBit'> = builtin('firstTrailingBit');
export const length: Builtin<'length'> = builtin('length');
export const distance: Builtin<'distance'> = builtin('distance');
export const normalize: Builtin<'normalize'> = builtin('normalize');
export const dot: Builtin<'dot'> = builtin('dot');
export const cross: Builtin<'cross'> = builtin('cross');
export const select: Builtin<'select'> = builtin('select');
export const all: Builtin<'all'> = builtin('all');
export const any: Builtin<'any'> = builtin('any');
export const transpose: Builtin<'transpose'> = builtin('transpose');
export const determinant: Builtin<'determinant'> = builtin('determinant');
export const bitcastF32: Builtin<'bitcastF32'> = builtin('bitcastF32');
export const bitcastI32: Builtin<'bitcastI32'> = builtin('bitcastI32');
export const bitcastU32: Builtin<'bitcastU32'> = builtin('bitcastU32');
export const pack4x8snorm: Builtin<'pack4x8snorm'> = builtin('pack4x8snorm');
export const pack4x8unorm: Builtin<'pack4x8unorm'> = builtin('pack4x8unorm');
export const pack2x16snorm: Builtin<'pack2x16snorm'> = builtin('pack2x16snorm');
export const pack2x16unorm: Builtin<'pack2x16unorm'> = builtin('pack2x16unorm');
export const pack2x16float: Builtin<'pack2x16float'> = builtin('pack2x16float');
export const unpack4x8snorm: Builtin<'unpack4x8snorm'> = builtin('unpack4x8snorm');
export const unpack4x8unorm: Builtin<'unpack4x8unorm'> = builtin('unpack4x8unorm');
export const unpack2x16snorm: Builtin<'unpack2x16snorm'> = builtin('unpack2x16snorm');
export const unpack2x16unorm: Builtin<'unpack2x16unorm'> = builtin('unpack2x16unorm');
export const unpack2x16float: Builtin<'unpack2x16float'> = builtin('unpack2x16float');
export const pack4xI8: Builtin<'pack4xI8'> = builtin('pack4xI8');
export const pack4xU8: Builtin<'pack4xU8'> = builtin('pack4xU8');
export const pack4xI8Clamp: Builtin<'pack4xI8Clamp'> = builtin('pack4xI8Clamp');
export const pack4xU8Clamp: Builtin<'pack4xU8Clamp'> = builtin('pack4xU8Clamp');
export const unpack4xI8: Builtin<'unpack4xI8'> = builtin('unpack4xI8');
export const unpack4xU8: Builtin<'unpack4xU8'> = builtin('unpack4xU8');

const unary = (name: string) => (() => deviceOnly(name)) as never;

/* --------------------------------------------------------------------------- atomics */

/** An atomic place: an element of an atomic accessor or workgroup array, or an atomic device global. */
export type AtomicRef<S extends AtomicScalarName = AtomicScalarName> =
  | Atomic<S>
  | DeviceGlobal<AtomicType<S>>;

type AtomicRmw = (place: AtomicRef, value: number) => number;
/** The bit operations: integer atomics only (an `atomic(f32)` is SYCL1025). */
export type AtomicBits = (place: AtomicRef<IntegerScalarName>, value: number) => number;
export const atomicLoad: (place: AtomicRef) => number = unary('atomicLoad');
export const atomicStore: (place: AtomicRef, value: number) => void = unary('atomicStore');
export const atomicAdd: AtomicRmw = unary('atomicAdd');
export const atomicSub: AtomicRmw = unary('atomicSub');
export const atomicMax: AtomicRmw = unary('atomicMax');
export const atomicMin: AtomicRmw = unary('atomicMin');
export const atomicAnd: AtomicBits = unary('atomicAnd');
export const atomicOr: AtomicBits = unary('atomicOr');
export const atomicXor: AtomicBits = unary('atomicXor');
export const atomicExchange: AtomicRmw = unary('atomicExchange');
export const atomicCompareExchangeWeak: (
  place: AtomicRef,
  compare: number,
  value: number,
) => { old_value: number; exchanged: boolean } = unary('atomicCompareExchangeWeak');

/* ------------------------------------------------------------------ device functions */

/**
 * A device function parameter that receives the kernel's handler, as a SYCL device function
 * takes a `kernel_handler&`, so that it can read specialization constants:
 * `deviceFunction({ args: [kernelHandler, f32], returns: f32 }, (kh, x) => x * kh.getSpecializationConstant(gain))`,
 * called as `scaled(kh, v)`. It has no WGSL parameter: the constants are the module's.
 */
export interface KernelHandlerParam {
  readonly kind: 'kernelHandler';
}
export const kernelHandler: KernelHandlerParam = Object.freeze({ kind: 'kernelHandler' });

/** What a device function's `args` lists: data types, and at most one `kernelHandler`. */
export type FunctionParamType = DataType | KernelHandlerParam;

type ArgValues<A extends readonly FunctionParamType[]> = {
  [K in keyof A]: A[K] extends DataType
    ? DeviceValue<A[K]>
    : A[K] extends KernelHandlerParam
      ? KernelHandler
      : never;
};
// biome-ignore lint/suspicious/noConfusingVoidType: a function that returns nothing returns void
type Result<R extends DataType | undefined> = R extends DataType ? DeviceValue<R> : void;

export interface DeviceFunctionSpec<
  A extends readonly FunctionParamType[],
  R extends DataType | undefined,
> {
  /** One type per parameter, in order. */
  readonly args: A;
  /** Omit for a function that returns nothing. */
  readonly returns?: R;
}

/** A device function: callable from kernels and other device functions, in any module. */
export type DeviceFunction<
  A extends readonly FunctionParamType[] = readonly FunctionParamType[],
  R extends DataType | undefined = DataType | undefined,
> = ((...args: ArgValues<A>) => Result<R>) & {
  readonly declaration: 'deviceFunction';
  readonly args: A;
  readonly returns: R | null;
};

/**
 * Declares a device function at module top level:
 * `export const lerp = deviceFunction({ args: [f32, f32, f32], returns: f32 }, (a, b, t) => a + (b - a) * t);`
 * The body is device code (a TypeScript subset), or a raw WGSL body: `(x) => wgsl\`return ${x} * 2.0;\``.
 */
export function deviceFunction<
  const A extends readonly FunctionParamType[],
  R extends DataType | undefined = undefined,
>(
  spec: DeviceFunctionSpec<A, R>,
  body: (...args: ArgValues<A>) => Result<R>,
): DeviceFunction<A, R> {
  void body;
  return Object.freeze(
    Object.assign(() => deviceOnly('a deviceFunction'), {
      declaration: 'deviceFunction' as const,
      args: spec.args,
      returns: spec.returns ?? null,
    }),
  ) as unknown as DeviceFunction<A, R>;
}

/**
 * A raw WGSL function body. `${...}` may name the function's parameters, specialization IDs
 * and device globals; the compiler splices in their WGSL names.
 */
export function wgsl(strings: TemplateStringsArray, ...values: unknown[]): never {
  void strings;
  void values;
  return deviceOnly('wgsl`...`');
}
