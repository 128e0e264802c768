/**
 * Editor-side types of what a kernel body sees. These exist for type checking only: kernel
 * bodies are compiled to WGSL and never run on the host.
 */
import type {
  AccessorType,
  Dimensions,
  KernelArgTypes,
  ReductionType,
  SpanType,
  WorkgroupArrays,
} from '../declarations/kernel.js';
import type { SpecializationId } from '../declarations/specialization-id.js';
import type {
  ExternalTextureType,
  SamplerType,
  StorageTextureType,
  TextureType,
} from '../declarations/texture.js';
import type { DataType } from '../types/data-type.js';
import type { ExternalTexture, Sampler, StorageTexture, Texture } from './textures.js';
import type { DeviceArray, DeviceValue } from './values.js';

export type * from './textures.js';
export type * from './values.js';

/** An accessor in device code: `acc[i]` reads and writes an element, `acc.length` counts them. */
export interface DeviceAccessor<T extends DataType> {
  [index: number]: DeviceValue<T>;
  readonly length: number;
}

/**
 * A `'read'` accessor in device code: its elements cannot be assigned. An element read into a
 * local is the local's own value (WGSL copies it), so its type stays mutable: `src[i].x = 1`
 * is left to the build to refuse.
 */
export interface ReadOnlyAccessor<T extends DataType> {
  readonly [index: number]: DeviceValue<T>;
  readonly length: number;
}

export type DeviceArgs<A extends KernelArgTypes> = {
  readonly [K in keyof A]: A[K] extends AccessorType<infer T, infer M>
    ? M extends 'read'
      ? ReadOnlyAccessor<T>
      : DeviceAccessor<T>
    : A[K] extends ReductionType<infer T>
      ? T extends SpanType<infer E>
        ? SpanReducer<E>
        : T extends DataType
          ? Reducer<T>
          : never
      : A[K] extends TextureType<infer D, infer S>
        ? Texture<D, S>
        : A[K] extends StorageTextureType<infer D, infer F, infer M>
          ? StorageTexture<D, F, M>
          : A[K] extends SamplerType
            ? Sampler
            : A[K] extends ExternalTextureType
              ? ExternalTexture
              : A[K] extends DataType
                ? DeviceValue<A[K]>
                : never;
};

/** A reduction variable in device code: `sum.combine(x)` folds `x` in, in any item, any number of times. */
export interface Reducer<T extends DataType> {
  combine(x: DeviceValue<T>): void;
}

/** A span reduction in device code: `bins[i].combine(x)` folds `x` into its element `i`. */
export interface SpanReducer<T extends DataType> {
  readonly [index: number]: Reducer<T>;
}

export type LocalArrays<L extends WorkgroupArrays> = {
  readonly [K in keyof L]: DeviceArray<DeviceValue<L[K]['element']>>;
};

type DimIndex<D extends Dimensions> = D extends 1 ? 0 : D extends 2 ? 0 | 1 : 0 | 1 | 2;

/** A basic-range work item. Ids and ranges are u32. */
export interface Item<D extends Dimensions> {
  getId(dim: DimIndex<D>): number;
  getRange(dim: DimIndex<D>): number;
  getLinearId(): number;
}

/** An nd-range work item. Ids and ranges are u32. */
export interface NdItem<D extends Dimensions> {
  getGlobalId(dim: DimIndex<D>): number;
  getGlobalRange(dim: DimIndex<D>): number;
  getLocalId(dim: DimIndex<D>): number;
  getLocalRange(dim: DimIndex<D>): number;
  /** The work-group, for group algorithms; with a dimension, its id in that dimension. */
  getGroup(): Group<D>;
  getGroup(dim: DimIndex<D>): number;
  getGroupRange(dim: DimIndex<D>): number;
  getGlobalLinearId(): number;
  getLocalLinearId(): number;
  /** The item's sub-group, for group algorithms and sub-group functions. */
  getSubGroup(): SubGroup;
  /** Workgroup barrier ('local', the default) or storage barrier ('global'). */
  barrier(space?: 'local' | 'global'): void;
}

/** A work-group (SYCL's `group`), as group algorithms take it. Ids and ranges are u32. */
export interface Group<D extends Dimensions> {
  readonly __group?: D;
  getGroupId(dim: DimIndex<D>): number;
  getLocalId(dim: DimIndex<D>): number;
  getLocalRange(dim: DimIndex<D>): number;
  getGroupRange(dim: DimIndex<D>): number;
  getGroupLinearId(): number;
  getLocalLinearId(): number;
  getLocalLinearRange(): number;
  getGroupLinearRange(): number;
  /** Whether this item is the group's leader (local linear id 0). */
  leader(): boolean;
}

/**
 * A sub-group (SYCL's `sub_group`): the items of a work-group that run together. Its size is the
 * device's (`getMaxLocalRange()`, 32 on NVIDIA, 4 on SwiftShader) or, where sub-groups are kept
 * in workgroup memory, min(32, the work-group's size); the last one may hold fewer items.
 */
export interface SubGroup {
  readonly __subGroup?: true;
  /** The sub-group's index in its work-group. */
  getGroupId(): number;
  /** The item's index in its sub-group. */
  getLocalId(): number;
  /** The number of items in this sub-group. */
  getLocalRange(): number;
  /** The number of items a sub-group can hold. */
  getMaxLocalRange(): number;
  /** The number of sub-groups in the work-group. */
  getGroupRange(): number;
  getGroupLinearId(): number;
  getLocalLinearId(): number;
  getLocalLinearRange(): number;
  getGroupLinearRange(): number;
  /** Whether this item is the sub-group's leader (local id 0). */
  leader(): boolean;
}

export interface KernelHandler {
  getSpecializationConstant<T extends DataType>(id: SpecializationId<T>): DeviceValue<T>;
}
