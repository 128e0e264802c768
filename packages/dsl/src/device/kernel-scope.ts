/**
 * Editor-side types of what a kernel body sees. These exist for type checking only: kernel
 * bodies are compiled to WGSL and never run on the host.
 */
import type {
  AccessorType,
  Dimensions,
  KernelArgTypes,
  WorkgroupArrays,
} from '../declarations/kernel.js';
import type { SpecializationId } from '../declarations/specialization-id.js';
import type { DataType } from '../types/data-type.js';
import type { DeviceArray, DeviceValue } from './values.js';

export type * from './values.js';

/** An accessor in device code: `acc[i]` reads and writes an element, `acc.length` counts them. */
export interface DeviceAccessor<T extends DataType> {
  [index: number]: DeviceValue<T>;
  readonly length: number;
}

export type DeviceArgs<A extends KernelArgTypes> = {
  readonly [K in keyof A]: A[K] extends AccessorType<infer T>
    ? DeviceAccessor<T>
    : A[K] extends DataType
      ? DeviceValue<A[K]>
      : never;
};

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
  getGroup(dim: DimIndex<D>): number;
  getGroupRange(dim: DimIndex<D>): number;
  getGlobalLinearId(): number;
  getLocalLinearId(): number;
  /** Workgroup barrier ('local', the default) or storage barrier ('global'). */
  barrier(space?: 'local' | 'global'): void;
}

export interface KernelHandler {
  getSpecializationConstant<T extends DataType>(id: SpecializationId<T>): DeviceValue<T>;
}
