/**
 * The texture built-ins of device code: WGSL's texture functions that a compute shader may call,
 * in the built-in table's shape (one entry each, written once). The compiler checks a call's
 * handle, coordinates and extra arguments by the entry's `signature` (frontend/lower/
 * textures.ts); docs/device-code.md lists them from here. Their first argument (the second for
 * `textureGather`) is a texture kernel argument, never a value.
 */
import type {
  SampleScalar,
  StorageDimension,
  StorageFormat,
  TextureDimension,
} from '../declarations/texture.js';
import type {
  ArrayIndex,
  ExternalTexture,
  SampleCoords,
  Sampler,
  StorageTexture,
  TexelCoords,
  TexelOf,
  Texture,
} from '../device/textures.js';
import type { Vec } from '../device/values.js';

/** The kinds of handle a texture built-in takes. */
export type TextureHandleKind = 'texture' | 'storageTexture' | 'externalTexture';

export interface TextureFunctionEntry {
  /** The handles it takes, and for sampled textures the shapes. */
  readonly takes: readonly TextureHandleKind[];
  readonly dimensions: readonly TextureDimension[];
  /** Whether a sampler follows the texture. */
  readonly sampler: boolean;
  /** The call as docs and diagnostics show it. */
  readonly signature: string;
}

const ALL: readonly TextureDimension[] = ['1d', '2d', '2d-array', '3d', 'cube', 'cube-array'];
const FILTERED: readonly TextureDimension[] = ['2d', '2d-array', '3d', 'cube', 'cube-array'];
const GATHERED: readonly TextureDimension[] = ['2d', '2d-array', 'cube', 'cube-array'];

// biome-ignore format: one line per built-in
export const TEXTURE_TABLE = {
  textureDimensions: { takes: ['texture', 'storageTexture', 'externalTexture'], dimensions: ALL, sampler: false, signature: 'textureDimensions(t[, level]) -> u32 | vec2u | vec3u' },
  textureNumLevels: { takes: ['texture'], dimensions: ALL, sampler: false, signature: 'textureNumLevels(t) -> u32' },
  textureNumLayers: { takes: ['texture', 'storageTexture'], dimensions: ['2d-array', 'cube-array'], sampler: false, signature: 'textureNumLayers(t) -> u32' },
  textureLoad: { takes: ['texture', 'storageTexture', 'externalTexture'], dimensions: ['1d', '2d', '2d-array', '3d'], sampler: false, signature: 'textureLoad(t, coords[, arrayIndex][, level]) -> vec4' },
  textureStore: { takes: ['storageTexture'], dimensions: ['1d', '2d', '2d-array', '3d'], sampler: false, signature: 'textureStore(t, coords[, arrayIndex], texel)' },
  textureSampleLevel: { takes: ['texture'], dimensions: FILTERED, sampler: true, signature: 'textureSampleLevel(t, s, coords[, arrayIndex], level) -> vec4f' },
  textureSampleGrad: { takes: ['texture'], dimensions: FILTERED, sampler: true, signature: 'textureSampleGrad(t, s, coords[, arrayIndex], ddx, ddy) -> vec4f' },
  textureGather: { takes: ['texture'], dimensions: GATHERED, sampler: true, signature: 'textureGather(component, t, s, coords[, arrayIndex]) -> vec4' },
  textureSampleBaseClampToEdge: { takes: ['texture', 'externalTexture'], dimensions: ['2d'], sampler: true, signature: 'textureSampleBaseClampToEdge(t, s, coords) -> vec4f' },
} as const satisfies Readonly<Record<string, TextureFunctionEntry>>;

export type TextureFunctionName = keyof typeof TEXTURE_TABLE;

function deviceOnly(name: string): never {
  throw new Error(`${name} is device code: call it inside a kernel or a deviceFunction`);
}

function textureFunction<F>(name: TextureFunctionName): F {
  return (() => deviceOnly(name)) as F;
}

type Loadable = '1d' | '2d' | '2d-array' | '3d';
type Filtered = Exclude<TextureDimension, '1d'>;
type Gathered = '2d' | '2d-array' | 'cube' | 'cube-array';
type Readable = 'read' | 'read_write';
type Writable = 'write' | 'read_write';
type Size<D extends TextureDimension> = D extends '1d'
  ? number
  : D extends '3d'
    ? Vec<'u32', 3>
    : Vec<'u32', 2>;

export const textureDimensions: {
  <D extends TextureDimension>(t: Texture<D>, level?: number): Size<D>;
  <D extends StorageDimension>(t: StorageTexture<D>): Size<D>;
  (t: ExternalTexture): Vec<'u32', 2>;
} = textureFunction('textureDimensions');

export const textureNumLevels: (t: Texture) => number = textureFunction('textureNumLevels');

export const textureNumLayers: (
  t: Texture<'2d-array' | 'cube-array'> | StorageTexture<'2d-array'>,
) => number = textureFunction('textureNumLayers');

export const textureLoad: {
  <D extends Loadable, S extends SampleScalar>(
    t: Texture<D, S>,
    coords: TexelCoords<D>,
    ...rest: [...ArrayIndex<D>, level: number]
  ): Vec<S, 4>;
  <D extends StorageDimension, F extends StorageFormat>(
    t: StorageTexture<D, F, Readable>,
    coords: TexelCoords<D>,
    ...arrayIndex: ArrayIndex<D>
  ): Vec<TexelOf<F>, 4>;
  (t: ExternalTexture, coords: Vec<'i32' | 'u32', 2>): Vec<'f32', 4>;
} = textureFunction('textureLoad');

export const textureStore: <D extends StorageDimension, F extends StorageFormat>(
  t: StorageTexture<D, F, Writable>,
  coords: TexelCoords<D>,
  ...rest: [...ArrayIndex<D>, texel: Vec<TexelOf<F>, 4>]
) => void = textureFunction('textureStore');

export const textureSampleLevel: <D extends Filtered>(
  t: Texture<D, 'f32'>,
  s: Sampler,
  coords: SampleCoords<D>,
  ...rest: [...ArrayIndex<D>, level: number]
) => Vec<'f32', 4> = textureFunction('textureSampleLevel');

export const textureSampleGrad: <D extends Filtered>(
  t: Texture<D, 'f32'>,
  s: Sampler,
  coords: SampleCoords<D>,
  ...rest: [...ArrayIndex<D>, ddx: SampleCoords<D>, ddy: SampleCoords<D>]
) => Vec<'f32', 4> = textureFunction('textureSampleGrad');

export const textureGather: <D extends Gathered, S extends SampleScalar>(
  component: 0 | 1 | 2 | 3,
  t: Texture<D, S>,
  s: Sampler,
  coords: SampleCoords<D>,
  ...arrayIndex: ArrayIndex<D>
) => Vec<S, 4> = textureFunction('textureGather');

export const textureSampleBaseClampToEdge: (
  t: Texture<'2d', 'f32'> | ExternalTexture,
  s: Sampler,
  coords: Vec<'f32', 2>,
) => Vec<'f32', 4> = textureFunction('textureSampleBaseClampToEdge');
