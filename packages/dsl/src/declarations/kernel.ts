import type { GroupOperator } from '../builtins/group.js';
import type { DeviceFunction } from '../builtins/index.js';
import type {
  DeviceArgs,
  Item,
  KernelHandler,
  LocalArrays,
  NdItem,
} from '../device/kernel-scope.js';
import type { RequiredLimits } from '../image/limits.js';
import type { DataType, HostValue, ScalarType } from '../types/data-type.js';
import type { SpecializationId } from './specialization-id.js';
import type { TextureArgType } from './texture.js';

export type AccessMode = 'read' | 'write' | 'read_write';

/** A kernel argument bound to a buffer of `element`s. */
export interface AccessorType<T extends DataType = DataType, M extends AccessMode = AccessMode> {
  readonly kind: 'accessor';
  readonly element: T;
  readonly access: M;
}

export function accessor<T extends DataType, M extends AccessMode>(
  element: T,
  access: M,
): AccessorType<T, M> {
  return Object.freeze({ kind: 'accessor', element, access });
}

/**
 * SYCL's `span<T, Extent>` as a reduction's type (`reduction(span(u32, 16), plus)`): `extent`
 * values of `element`, each reduced on its own: in the kernel `bins[i].combine(x)`, on the host a
 * buffer whose first `extent` elements receive the results.
 */
export interface SpanType<T extends DataType = DataType, N extends number = number> {
  readonly kind: 'span';
  readonly element: T;
  readonly extent: N;
}

export function span<T extends DataType, N extends number>(element: T, extent: N): SpanType<T, N> {
  return Object.freeze({ kind: 'span', element, extent });
}

/** What a reduction's operator combines: the type itself, or a span's element. */
export type ReducedValue<T extends DataType | SpanType> = T extends SpanType<infer E> ? E : T;

/**
 * A reduction variable (SYCL 2020 4.9.2): in the kernel a reducer whose `combine(x)` folds `x` in
 * with `operator`; on the host a buffer whose first element receives the result, combined with
 * what it held (or in its place, with `initializeToIdentity`).
 */
export interface ReductionType<T extends DataType | SpanType = DataType | SpanType> {
  readonly kind: 'reduction';
  readonly element: T;
  /** One of SYCL's function objects, or a device function of two values returning one. */
  readonly operator: GroupOperator | ReductionCombiner<ReducedValue<T>>;
  /** The identity the reducer starts from; null: the function object's own. */
  readonly identity: HostValue<ReducedValue<T>> | null;
}

/** A device function that combines two values of `T` into one: a reduction's own operator. */
export type ReductionCombiner<T extends DataType = DataType> = DeviceFunction<readonly [T, T], T>;

/**
 * `sum: reduction(f32, plus)`: the kernel argument of a reduction. `operator` is one of SYCL's
 * function objects (`plus`, `multiplies`, `minimum`, `maximum`, `bitAnd`, `bitOr`, `bitXor`,
 * `logicalAnd`, `logicalOr`), whose identity the reducer starts from.
 *
 * `best: reduction(Best, { value: F32_MAX, index: 0 }, better)`: SYCL's
 * `reduction(buffer, identity, combiner)`. The combiner is a device function of two values of
 * the type returning one, associative (values combine in the order of the work-groups' linear ids,
 * then of their items': for a 1-dimensional range, of the items' ids; so it need not commute), and
 * the identity a constant that leaves any value unchanged when combined with it;
 * the type may be any that a buffer holds (structs included). A function object takes an
 * identity too, which replaces its own.
 *
 * `bins: reduction(span(u32, 16), plus)`: a span reduction, each of 16 values reduced on its own
 * (`bins[i].combine(1)`); identity and combiner are then those of one element.
 */
export function reduction<T extends DataType | SpanType>(
  element: T,
  operator: GroupOperator,
): ReductionType<T>;
export function reduction<T extends DataType | SpanType>(
  element: T,
  identity: HostValue<ReducedValue<NoInfer<T>>>,
  combiner: GroupOperator | ReductionCombiner<ReducedValue<NoInfer<T>>>,
): ReductionType<T>;
export function reduction<T extends DataType | SpanType>(
  element: T,
  ...rest:
    | [operator: GroupOperator]
    | [
        identity: HostValue<ReducedValue<T>>,
        combiner: GroupOperator | ReductionCombiner<ReducedValue<T>>,
      ]
): ReductionType<T> {
  const [identity, operator] = rest.length === 1 ? [null, rest[0]] : rest;
  return Object.freeze({ kind: 'reduction', element, operator, identity });
}

export type KernelArgType = DataType | AccessorType | ReductionType | TextureArgType;
export type KernelArgTypes = { readonly [name: string]: KernelArgType };

/** A size the build knows, or an integer specialization constant (native path only). */
export type SizeSpec = number | SpecializationId<ScalarType<'u32'> | ScalarType<'i32'>>;

/** A `var<workgroup>` array; its length is the product of the factors. */
export interface WorkgroupArrayType<T extends DataType = DataType> {
  readonly kind: 'workgroupArray';
  readonly element: T;
  readonly lengthFactors: readonly SizeSpec[];
}

export function workgroupArray<T extends DataType>(
  element: T,
  ...lengthFactors: SizeSpec[]
): WorkgroupArrayType<T> {
  return Object.freeze({ kind: 'workgroupArray', element, lengthFactors });
}

export type Dimensions = 1 | 2 | 3;
export type WorkgroupArrays = { readonly [name: string]: WorkgroupArrayType };

export interface BasicKernelSpec<D extends Dimensions, A extends KernelArgTypes> {
  readonly range: D;
  readonly args: A;
  /**
   * WebGPU limits the kernel needs above the defaults, by WebGPU's names, as literal numbers:
   * `{ maxComputeWorkgroupStorageSize: 32768 }`. The build then accepts sizes up to these
   * values, and the runtime refuses the kernel on a device that offers less.
   */
  readonly requiredLimits?: RequiredLimits;
}

export interface NdKernelSpec<
  D extends Dimensions,
  A extends KernelArgTypes,
  L extends WorkgroupArrays,
> {
  readonly ndRange: D;
  // NoInfer: `D` comes from `ndRange`; inferred from a literal's length too, it widened to `Dimensions`.
  readonly workgroupSize: readonly SizeSpec[] & { readonly length: NoInfer<D> };
  readonly args: A;
  readonly local?: L;
  /**
   * The items a sub-group holds (SYCL's `reqd_sub_group_size`), a power of two from 1 to 128
   * dividing the work-group's size in its last dimension: the device's own sub-groups where it
   * offers that size (`subgroup-size-control`), else sub-groups kept in workgroup memory.
   */
  readonly subGroupSize?: number;
  /** See `BasicKernelSpec.requiredLimits`. */
  readonly requiredLimits?: RequiredLimits;
}

export interface Kernel<
  D extends Dimensions = Dimensions,
  A extends KernelArgTypes = KernelArgTypes,
  ND extends boolean = boolean,
> {
  readonly declaration: 'kernel';
  readonly dimensions: D;
  readonly ndRange: ND;
  readonly args: A;
}

/**
 * A kernel. The body is device code: the compiler translates it to WGSL and it never runs on
 * the host. The returned object is what host code passes to `parallelFor`/`singleTask`.
 */
export function kernel<D extends Dimensions, A extends KernelArgTypes>(
  spec: BasicKernelSpec<D, A>,
  body: (item: Item<D>, kh: KernelHandler, args: DeviceArgs<A>) => void,
): Kernel<D, A, false>;
export function kernel<D extends Dimensions, A extends KernelArgTypes, L extends WorkgroupArrays>(
  spec: NdKernelSpec<D, A, L>,
  body: (item: NdItem<D>, kh: KernelHandler, args: DeviceArgs<A>, local: LocalArrays<L>) => void,
): Kernel<D, A, true>;
export function kernel(
  spec:
    | BasicKernelSpec<Dimensions, KernelArgTypes>
    | NdKernelSpec<Dimensions, KernelArgTypes, WorkgroupArrays>,
): Kernel {
  const nd = 'ndRange' in spec;
  return Object.freeze({
    declaration: 'kernel',
    dimensions: nd ? spec.ndRange : spec.range,
    ndRange: nd,
    args: spec.args,
  });
}
