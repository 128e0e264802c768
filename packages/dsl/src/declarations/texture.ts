/**
 * Image kernel arguments (SYCL's `sampled_image`/`unsampled_image` accessors, as WebGPU has them):
 * sampled textures, storage textures, samplers and external textures (video frames). Like
 * accessors they are declared in a kernel's `args`; in the body they are handles that only the
 * texture built-ins (builtins/textures.ts) and the SYCL methods `read`/`write` take.
 */
import type { AccessMode } from './kernel.js';

/** A texture view's shape, by WebGPU's `viewDimension` names. */
export type TextureDimension = '1d' | '2d' | '2d-array' | '3d' | 'cube' | 'cube-array';
/** What a sampled texture's texels are read as. */
export type SampleScalar = 'f32' | 'i32' | 'u32';
/** The shapes a storage texture can have. */
export type StorageDimension = Exclude<TextureDimension, 'cube' | 'cube-array'>;

/** WebGPU's storage texture formats (`bgra8unorm` needs the device feature `bgra8unorm-storage`). */
export const STORAGE_FORMATS = {
  rgba8unorm: 'f32',
  rgba8snorm: 'f32',
  rgba8uint: 'u32',
  rgba8sint: 'i32',
  rgba16uint: 'u32',
  rgba16sint: 'i32',
  rgba16float: 'f32',
  r32uint: 'u32',
  r32sint: 'i32',
  r32float: 'f32',
  rg32uint: 'u32',
  rg32sint: 'i32',
  rg32float: 'f32',
  rgba32uint: 'u32',
  rgba32sint: 'i32',
  rgba32float: 'f32',
  bgra8unorm: 'f32',
} as const satisfies Record<string, SampleScalar>;

export type StorageFormat = keyof typeof STORAGE_FORMATS;

/** The formats a `read_write` storage texture may have (WebGPU's core set). */
export const READ_WRITE_FORMATS: readonly StorageFormat[] = ['r32uint', 'r32sint', 'r32float'];

/** A sampled texture: `textureLoad`, `textureSampleLevel`, `textureGather`, ... */
export interface TextureType<
  D extends TextureDimension = TextureDimension,
  S extends SampleScalar = SampleScalar,
> {
  readonly kind: 'texture';
  readonly dimension: D;
  readonly sampleType: S;
}

/** A storage texture of one format: `textureLoad` where `access` reads, `textureStore` where it writes. */
export interface StorageTextureType<
  D extends StorageDimension = StorageDimension,
  F extends StorageFormat = StorageFormat,
  M extends AccessMode = AccessMode,
> {
  readonly kind: 'storageTexture';
  readonly dimension: D;
  readonly format: F;
  readonly access: M;
}

/** A filtering or non-filtering sampler (WGSL `sampler`). */
export interface SamplerType {
  readonly kind: 'sampler';
}

/** A video frame (WGSL `texture_external`): `textureLoad` and `textureSampleBaseClampToEdge`. */
export interface ExternalTextureType {
  readonly kind: 'externalTexture';
}

export type TextureArgType = TextureType | StorageTextureType | SamplerType | ExternalTextureType;

interface SampleScalarType<S extends SampleScalar> {
  readonly kind: 'scalar';
  readonly scalar: S;
}

function sampled<D extends TextureDimension>(dimension: D) {
  return <S extends SampleScalar>(sampleType: SampleScalarType<S>): TextureType<D, S> =>
    Object.freeze({ kind: 'texture', dimension, sampleType: sampleType.scalar });
}

function storage<D extends StorageDimension>(dimension: D) {
  return <F extends StorageFormat, M extends AccessMode>(
    format: F,
    access: M,
  ): StorageTextureType<D, F, M> =>
    Object.freeze({ kind: 'storageTexture', dimension, format, access });
}

/** `texture2d(f32)`: a sampled 2D texture whose texels read as `vec4f` (`i32`, `u32`: integer formats). */
export const texture1d = sampled('1d');
export const texture2d = sampled('2d');
export const texture2dArray = sampled('2d-array');
export const texture3d = sampled('3d');
export const textureCube = sampled('cube');
export const textureCubeArray = sampled('cube-array');

/** `storageTexture2d('rgba8unorm', 'write')`: a storage texture of that format and access. */
export const storageTexture1d = storage('1d');
export const storageTexture2d = storage('2d');
export const storageTexture2dArray = storage('2d-array');
export const storageTexture3d = storage('3d');

/** `sampler()`: a kernel argument bound to a `GPUSampler`. */
export function sampler(): SamplerType {
  return Object.freeze({ kind: 'sampler' });
}

/** `externalTexture()`: a kernel argument bound to a video frame. */
export function externalTexture(): ExternalTextureType {
  return Object.freeze({ kind: 'externalTexture' });
}

/** The scalar a storage texture's texels are read and written as. */
export function texelScalar(format: StorageFormat): SampleScalar {
  return STORAGE_FORMATS[format];
}
