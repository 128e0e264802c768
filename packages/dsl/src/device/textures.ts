/**
 * How image kernel arguments look to the editor: opaque handles that the texture built-ins take
 * (builtins/textures.ts), with SYCL's image accessor methods `read` and `write` where they map.
 */

import type { AccessMode } from '../declarations/kernel.js';
import type {
  SampleScalar,
  STORAGE_FORMATS,
  StorageDimension,
  StorageFormat,
  TextureDimension,
} from '../declarations/texture.js';
import type { Vec } from './values.js';

/** How many coordinates address a texel of a texture of shape D. */
export type CoordCount<D extends TextureDimension> = D extends '1d'
  ? 1
  : D extends '2d' | '2d-array'
    ? 2
    : 3;

/** Integer texel coordinates: an i32 or u32 scalar (1d) or vector. */
export type TexelCoords<D extends TextureDimension> =
  CoordCount<D> extends 2 | 3 ? Vec<'i32' | 'u32', CoordCount<D>> : number;

/** Normalised (0 to 1) sampling coordinates; a direction for cube textures. */
export type SampleCoords<D extends TextureDimension> =
  CoordCount<D> extends 2 | 3 ? Vec<'f32', CoordCount<D>> : number;

/** The layer argument of array textures, absent for others. */
export type ArrayIndex<D extends TextureDimension> = D extends '2d-array' | 'cube-array'
  ? [arrayIndex: number]
  : [];

/** What a storage texture's texels are read and written as. */
export type TexelOf<F extends StorageFormat> = (typeof STORAGE_FORMATS)[F];

/** A sampled texture in device code. */
export interface Texture<
  D extends TextureDimension = TextureDimension,
  S extends SampleScalar = SampleScalar,
> {
  readonly __texture?: [D, S];
  /** SYCL's `read(coords)`: the texel at integer coordinates, mip level 0 (`textureLoad`). */
  read: D extends '1d' | '2d' | '3d' ? (coords: TexelCoords<D>) => Vec<S, 4> : never;
}

/** A storage texture in device code. */
export interface StorageTexture<
  D extends StorageDimension = StorageDimension,
  F extends StorageFormat = StorageFormat,
  M extends AccessMode = AccessMode,
> {
  readonly __storageTexture?: [D, F, M];
  /** SYCL's `read(coords)`: the texel at `coords` (`textureLoad`), where the access reads. */
  read: M extends 'write'
    ? never
    : ArrayIndex<D> extends []
      ? (coords: TexelCoords<D>) => Vec<TexelOf<F>, 4>
      : never;
  /** SYCL's `write(coords, texel)` (`textureStore`), where the access writes. */
  write: M extends 'read'
    ? never
    : ArrayIndex<D> extends []
      ? (coords: TexelCoords<D>, texel: Vec<TexelOf<F>, 4>) => void
      : never;
}

/** A sampler in device code: the second argument of the sampling built-ins. */
export interface Sampler {
  readonly __sampler?: true;
}

/** A video frame in device code. */
export interface ExternalTexture {
  readonly __externalTexture?: true;
}
