/**
 * Textures that kernels reach through texture arguments (SYCL's images). The host writes and
 * reads their texels as typed arrays, copies images in (`ImageBitmap`, canvases, video frames,
 * `ImageData`) and a texture out to a canvas; every operation is ordered with the queue's
 * kernels as a buffer's are.
 */
import { STORAGE_FORMATS, type TextureDimension } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { TextureUsage } from '../platform/webgpu-flags.js';
import type { SyclEvent } from '../queue/event.js';
import type { Scheduler } from '../queue/scheduler.js';
import type { TextureArg } from '../queue/texture-hook.js';
import { show } from '../values/scalars.js';
import { readBack } from './read-back.js';

/** How the host sees a format's texels: the typed array and the bytes per texel. */
const TEXEL_ARRAYS = {
  u8c: Uint8ClampedArray,
  i8: Int8Array,
  u8: Uint8Array,
  u16: Uint16Array,
  i16: Int16Array,
  u32: Uint32Array,
  i32: Int32Array,
  f32: Float32Array,
} as const;
type TexelArrayKind = keyof typeof TEXEL_ARRAYS;

/** The uncompressed color formats: bytes per texel, host array, what kernels read them as. */
export const TEXTURE_FORMATS = {
  r8unorm: [1, 'u8c', 'f32'],
  r8snorm: [1, 'i8', 'f32'],
  r8uint: [1, 'u8', 'u32'],
  r8sint: [1, 'i8', 'i32'],
  rg8unorm: [2, 'u8c', 'f32'],
  rg8snorm: [2, 'i8', 'f32'],
  rg8uint: [2, 'u8', 'u32'],
  rg8sint: [2, 'i8', 'i32'],
  rgba8unorm: [4, 'u8c', 'f32'],
  'rgba8unorm-srgb': [4, 'u8c', 'f32'],
  rgba8snorm: [4, 'i8', 'f32'],
  rgba8uint: [4, 'u8', 'u32'],
  rgba8sint: [4, 'i8', 'i32'],
  bgra8unorm: [4, 'u8c', 'f32'],
  'bgra8unorm-srgb': [4, 'u8c', 'f32'],
  r16uint: [2, 'u16', 'u32'],
  r16sint: [2, 'i16', 'i32'],
  r16float: [2, 'u16', 'f32'],
  rg16uint: [4, 'u16', 'u32'],
  rg16sint: [4, 'i16', 'i32'],
  rg16float: [4, 'u16', 'f32'],
  rgba16uint: [8, 'u16', 'u32'],
  rgba16sint: [8, 'i16', 'i32'],
  rgba16float: [8, 'u16', 'f32'],
  r32uint: [4, 'u32', 'u32'],
  r32sint: [4, 'i32', 'i32'],
  r32float: [4, 'f32', 'f32'],
  rg32uint: [8, 'u32', 'u32'],
  rg32sint: [8, 'i32', 'i32'],
  rg32float: [8, 'f32', 'f32'],
  rgba32uint: [16, 'u32', 'u32'],
  rgba32sint: [16, 'i32', 'i32'],
  rgba32float: [16, 'f32', 'f32'],
  rgb10a2unorm: [4, 'u32', 'f32'],
  rg11b10ufloat: [4, 'u32', 'f32'],
} as const satisfies Record<string, readonly [number, TexelArrayKind, 'f32' | 'u32' | 'i32']>;

export type TextureFormat = keyof typeof TEXTURE_FORMATS;

/** What `read()` gives for format F: bytes that fit `ImageData` for 8-bit unorm formats. */
export type TexelArray<F extends TextureFormat> =
  InstanceType<(typeof TEXEL_ARRAYS)[(typeof TEXTURE_FORMATS)[F][1]]> extends infer A
    ? A extends Uint8ClampedArray
      ? Uint8ClampedArray<ArrayBuffer>
      : A extends Int8Array
        ? Int8Array<ArrayBuffer>
        : A extends Uint8Array
          ? Uint8Array<ArrayBuffer>
          : A extends Uint16Array
            ? Uint16Array<ArrayBuffer>
            : A extends Int16Array
              ? Int16Array<ArrayBuffer>
              : A extends Uint32Array
                ? Uint32Array<ArrayBuffer>
                : A extends Int32Array
                  ? Int32Array<ArrayBuffer>
                  : Float32Array<ArrayBuffer>
    : never;

export interface TextureDescriptor<F extends TextureFormat = TextureFormat> {
  readonly format: F;
  /** Width, height, and layers (or depth for '3d'); missing sizes are 1. */
  readonly size: readonly [number, number?, number?];
  /**
   * The view kernels bind (the texture argument's shape): default '2d', or '2d-array' when the
   * size has layers. A '3d' view makes a 3D texture; 'cube' takes 6 layers, 'cube-array' 6 per cube.
   */
  readonly dimension?: TextureDimension;
  /** Default 1. */
  readonly mipLevelCount?: number;
  readonly label?: string;
}

/** A region of a texture: from `origin` (default 0, 0, 0), `size` texels (default the rest). */
export interface TextureRegion {
  readonly origin?: readonly [number, number?, number?];
  readonly size?: readonly [number, number?, number?];
  readonly mipLevel?: number;
}

/** Images the browser copies into a texture (`copyExternalImageToTexture`). */
export type ExternalImage =
  | ImageBitmap
  | ImageData
  | HTMLImageElement
  | HTMLVideoElement
  | VideoFrame
  | HTMLCanvasElement
  | OffscreenCanvas;

let nextTextureId = 0;

export class DeviceTexture<F extends TextureFormat = TextureFormat> implements TextureArg {
  readonly textureArg = 'texture';
  /** Identifies the texture in messages. */
  readonly id = nextTextureId++;
  readonly format: F;
  /** The view kernels bind. */
  readonly dimension: TextureDimension;
  /** Width, height, layers or depth, at mip level 0. */
  readonly size: readonly [number, number, number];
  readonly mipLevelCount: number;
  /** The WebGPU texture: see docs/runtime.md ("Interop") for using it beside syclts. */
  readonly gpuTexture: GPUTexture;
  /** @internal The command that wrote it last (see Written). */
  writer: SyclEvent | null = null;
  #destroyed = false;
  #view: GPUTextureView | null = null;
  readonly #scheduler: Scheduler;
  readonly #label: string;

  /** @internal Use `queue.texture(...)`. */
  constructor(
    scheduler: Scheduler,
    format: F,
    gpuTexture: GPUTexture,
    dimension: TextureDimension,
    label: string,
  ) {
    this.#scheduler = scheduler;
    this.format = format;
    this.gpuTexture = gpuTexture;
    this.dimension = dimension;
    this.size = [gpuTexture.width, gpuTexture.height, gpuTexture.depthOrArrayLayers];
    this.mipLevelCount = gpuTexture.mipLevelCount;
    this.#label = label;
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  /** @internal The view a kernel binds. */
  get view(): GPUTextureView {
    this.#view ??= this.gpuTexture.createView({ dimension: this.dimension });
    return this.#view;
  }

  /**
   * Writes texels (a typed array of the format's host type, rows packed) into `region`,
   * ordered after the commands submitted before.
   */
  write(data: ArrayBufferView, region: TextureRegion = {}): SyclEvent {
    const api = 'texture.write';
    this.#alive(api);
    this.#scheduler.throwPending(api);
    const { origin, size, mipLevel } = this.#region(api, region);
    const bytesPerTexel = TEXTURE_FORMATS[this.format][0];
    const expected = size[0] * size[1] * size[2] * bytesPerTexel;
    if (data.byteLength !== expected) {
      throw new SyclError(
        errc.invalid,
        `${api}: ${size.join(' x ')} texels of ${this.format} take ${expected} bytes; got ${data.byteLength}`,
      );
    }
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    return this.#scheduler.schedule({
      name: `${this.#label}.write()`,
      writes: this,
      issue: (validate) => {
        validate();
        this.#scheduler.device.queue.writeTexture(
          { texture: this.gpuTexture, origin, mipLevel },
          bytes,
          { bytesPerRow: size[0] * bytesPerTexel, rowsPerImage: size[1] },
          size,
        );
        return undefined;
      },
    });
  }

  /**
   * The texels of `region` (default: all of mip level 0) once every command submitted before
   * has run, rows packed; for 8-bit unorm formats a `Uint8ClampedArray` that `new ImageData(...)`
   * takes. Rejects with the error of the command that wrote the texture last if it failed.
   */
  async read(region: TextureRegion = {}): Promise<TexelArray<F>> {
    const api = 'texture.read';
    this.#alive(api);
    this.#scheduler.assertOpen(api);
    const { origin, size, mipLevel } = this.#region(api, region);
    const [bytesPerTexel, kind] = TEXTURE_FORMATS[this.format];
    const rowBytes = size[0] * bytesPerTexel;
    // WebGPU copies rows at multiples of 256 bytes.
    const stride = Math.ceil(rowBytes / 256) * 256;
    const rows = size[1] * size[2];
    const padded = new Uint8Array(
      await readBack(this.#scheduler, `${this.#label}.read()`, this, stride * rows, (e, staging) =>
        e.copyTextureToBuffer(
          { texture: this.gpuTexture, origin, mipLevel },
          { buffer: staging, bytesPerRow: stride, rowsPerImage: size[1] },
          size,
        ),
      ),
    );
    const packed = new Uint8Array(rowBytes * rows);
    for (let r = 0; r < rows; r++) {
      packed.set(padded.subarray(r * stride, r * stride + rowBytes), r * rowBytes);
    }
    return new TEXEL_ARRAYS[kind](packed.buffer) as unknown as TexelArray<F>;
  }

  /**
   * Copies an image into the texture from `origin` (the browser's `copyExternalImageToTexture`;
   * `ImageData` is written as its bytes), ordered after the commands submitted before.
   */
  copyFrom(source: ExternalImage, origin: readonly [number, number?] = [0, 0]): SyclEvent {
    const api = 'texture.copyFrom';
    this.#alive(api);
    this.#scheduler.throwPending(api);
    const [width, height] = imageSize(api, source);
    const at: [number, number, number] = [origin[0], origin[1] ?? 0, 0];
    this.#region(api, { origin: at, size: [width, height, 1] });
    if (isImageData(source)) {
      return this.write(new Uint8Array(source.data.buffer), { origin: at, size: [width, height] });
    }
    return this.#scheduler.schedule({
      name: `${this.#label}.copyFrom()`,
      writes: this,
      issue: (validate) => {
        validate();
        this.#scheduler.device.queue.copyExternalImageToTexture(
          { source },
          { texture: this.gpuTexture, origin: at },
          [width, height],
        );
        return undefined;
      },
    });
  }

  /**
   * Shows the texture on a canvas: configures the canvas's WebGPU context for the texture's
   * format (rgba8unorm, bgra8unorm or rgba16float) and copies mip level 0 there, sized to the
   * canvas, ordered after the commands submitted before (the kernels that wrote it).
   */
  toCanvas(canvas: HTMLCanvasElement | OffscreenCanvas): SyclEvent {
    const api = 'texture.toCanvas';
    this.#alive(api);
    this.#scheduler.throwPending(api);
    const format = this.format as string;
    if (format !== 'rgba8unorm' && format !== 'bgra8unorm' && format !== 'rgba16float') {
      throw new SyclError(
        errc.invalid,
        `${api}: a canvas shows rgba8unorm, bgra8unorm or rgba16float textures; ${this.#label} is ${format}`,
      );
    }
    const context = canvas.getContext('webgpu') as GPUCanvasContext | null;
    if (!context) {
      throw new SyclError(
        errc.invalid,
        `${api}: the canvas has no WebGPU context (it has another)`,
      );
    }
    const { device } = this.#scheduler;
    context.configure({
      device,
      format: format as GPUTextureFormat,
      usage: TextureUsage.COPY_DST | TextureUsage.RENDER_ATTACHMENT,
      alphaMode: 'premultiplied',
    });
    return this.#scheduler.schedule({
      name: `${this.#label}.toCanvas()`,
      reads: this,
      issue: (validate) => {
        validate();
        const target = context.getCurrentTexture();
        const encoder = device.createCommandEncoder();
        encoder.copyTextureToTexture({ texture: this.gpuTexture }, { texture: target }, [
          Math.min(target.width, this.size[0]),
          Math.min(target.height, this.size[1]),
        ]);
        device.queue.submit([encoder.finish()]);
        return undefined;
      },
    });
  }

  /**
   * Frees the GPU memory once the commands submitted before have run; later uses are errors.
   * A wrapped texture (`queue.texture(gpuTexture)`) is freed too.
   */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#scheduler.schedule({
      name: `${this.#label}.destroy()`,
      issue: () => {
        this.gpuTexture.destroy();
        return undefined;
      },
    });
  }

  #alive(api: string): void {
    if (this.#destroyed) throw new SyclError(errc.invalid, `${api}: ${this.#label} was destroyed`);
  }

  /** The region, checked against the texture's size at its mip level. */
  #region(api: string, region: TextureRegion) {
    const mipLevel = region.mipLevel ?? 0;
    if (!Number.isInteger(mipLevel) || mipLevel < 0 || mipLevel >= this.mipLevelCount) {
      throw new SyclError(
        errc.invalid,
        `${api}: mip level ${show(mipLevel)} of ${this.#label}, which has ${this.mipLevelCount}`,
      );
    }
    const layered = this.gpuTexture.dimension !== '3d';
    const full = this.size.map((s, i) => (i === 2 && layered ? s : Math.max(1, s >> mipLevel))) as [
      number,
      number,
      number,
    ];
    const origin = [0, 1, 2].map((i) => region.origin?.[i] ?? 0) as [number, number, number];
    const size = [0, 1, 2].map((i) => region.size?.[i] ?? full[i]! - origin[i]!) as [
      number,
      number,
      number,
    ];
    for (let i = 0; i < 3; i++) {
      const [o, s] = [origin[i]!, size[i]!];
      if (!Number.isInteger(o) || !Number.isInteger(s) || o < 0 || s < 1 || o + s > full[i]!) {
        throw new SyclError(
          errc.invalid,
          `${api}: the region from [${origin.join(', ')}] of [${size.join(', ')}] texels is outside ${this.#label} of [${full.join(', ')}] at mip level ${mipLevel}`,
        );
      }
    }
    return { origin, size, mipLevel };
  }
}

const DIMENSION_OF_VIEW: Record<TextureDimension, GPUTextureDimension> = {
  '1d': '1d',
  '2d': '2d',
  '2d-array': '2d',
  '3d': '3d',
  cube: '2d',
  'cube-array': '2d',
};

/** `queue.texture(descriptor)`: a new texture every use a kernel or the host may make of it allows. */
export function createTexture(scheduler: Scheduler, descriptor: TextureDescriptor): DeviceTexture {
  const api = 'queue.texture';
  const { format, size } = descriptor;
  if (typeof format !== 'string' || !Object.hasOwn(TEXTURE_FORMATS, format)) {
    throw new SyclError(
      errc.invalid,
      `${api}: format ${show(format)} is not one syclts textures take (${Object.keys(TEXTURE_FORMATS).join(', ')})`,
    );
  }
  const [width, height = 1, layers = 1] = Array.isArray(size) ? size : [];
  const dimension = descriptor.dimension ?? (layers > 1 ? '2d-array' : '2d');
  if (!Object.hasOwn(DIMENSION_OF_VIEW, dimension)) {
    throw new SyclError(
      errc.invalid,
      `${api}: dimension ${show(dimension)} is not a texture shape`,
    );
  }
  for (const n of [width, height, layers]) {
    if (!Number.isInteger(n) || (n as number) < 1) {
      throw new SyclError(
        errc.invalid,
        `${api}: size ${show(size)}: sizes are positive integers [width, height?, layers?]`,
      );
    }
  }
  if ((dimension === 'cube' && layers !== 6) || (dimension === 'cube-array' && layers % 6 !== 0)) {
    throw new SyclError(
      errc.invalid,
      `${api}: a ${dimension} texture has 6 layers per cube; size ${show(size)} gives ${layers}`,
    );
  }
  const limits = scheduler.device.limits;
  const most =
    dimension === '3d'
      ? [limits.maxTextureDimension3D, limits.maxTextureDimension3D, limits.maxTextureDimension3D]
      : [limits.maxTextureDimension2D, limits.maxTextureDimension2D, limits.maxTextureArrayLayers];
  if ([width, height, layers].some((n, i) => (n as number) > most[i]!)) {
    throw new SyclError(
      errc.invalid,
      `${api}: size [${[width, height, layers].join(', ')}] is over the device's limits [${most.join(', ')}] (maxTextureDimension2D/3D, maxTextureArrayLayers)`,
    );
  }
  const usage =
    TextureUsage.TEXTURE_BINDING |
    TextureUsage.COPY_SRC |
    TextureUsage.COPY_DST |
    (STORABLE.has(format) &&
    (format !== 'bgra8unorm' || scheduler.device.features.has('bgra8unorm-storage'))
      ? TextureUsage.STORAGE_BINDING
      : 0) |
    // copyExternalImageToTexture writes through a render pass (never into a 1d texture).
    (format.endsWith('snorm') || format === 'rg11b10ufloat' || dimension === '1d'
      ? 0
      : TextureUsage.RENDER_ATTACHMENT);
  const label = descriptor.label ?? `texture ${nextTextureId}`;
  const gpuTexture = scheduler.device.createTexture({
    label,
    format,
    size: [width as number, height, layers],
    dimension: DIMENSION_OF_VIEW[dimension],
    mipLevelCount: descriptor.mipLevelCount ?? 1,
    usage,
  });
  const texture = new DeviceTexture(scheduler, format, gpuTexture, dimension, label);
  return texture;
}

/** Formats WebGPU binds as storage textures without optional features. */
const STORABLE: ReadonlySet<string> = new Set(Object.keys(STORAGE_FORMATS));

function isImageData(source: ExternalImage): source is ImageData {
  return typeof ImageData !== 'undefined' && source instanceof ImageData;
}

/** An image's size as copied: natural sizes for images and video, display sizes for frames. */
function imageSize(api: string, source: ExternalImage): [number, number] {
  const s = source as {
    naturalWidth?: number;
    naturalHeight?: number;
    videoWidth?: number;
    videoHeight?: number;
    displayWidth?: number;
    displayHeight?: number;
    width?: number;
    height?: number;
  };
  const width = s.videoWidth ?? s.naturalWidth ?? s.displayWidth ?? s.width;
  const height = s.videoHeight ?? s.naturalHeight ?? s.displayHeight ?? s.height;
  if (!width || !height) {
    throw new SyclError(
      errc.invalid,
      `${api}: ${show(source)} is no image with a size (a video before its first frame?)`,
    );
  }
  return [width, height];
}

/** `queue.texture(gpuTexture)`: a texture made elsewhere, wrapped without a copy. */
export function wrapTexture(
  scheduler: Scheduler,
  gpuTexture: GPUTexture,
  options: { readonly dimension?: TextureDimension; readonly label?: string } = {},
): DeviceTexture {
  const format = gpuTexture.format as string;
  if (!Object.hasOwn(TEXTURE_FORMATS, format)) {
    throw new SyclError(
      errc.invalid,
      `queue.texture: a texture of format ${format}, which syclts does not take`,
    );
  }
  const dimension =
    options.dimension ??
    (gpuTexture.dimension === '3d'
      ? '3d'
      : gpuTexture.dimension === '1d'
        ? '1d'
        : gpuTexture.depthOrArrayLayers > 1
          ? '2d-array'
          : '2d');
  return new DeviceTexture(
    scheduler,
    format as TextureFormat,
    gpuTexture,
    dimension,
    options.label ?? (gpuTexture.label || `texture ${nextTextureId}`),
  );
}

/** `queue.texture(image)`: a texture of the image's size holding a copy of it. */
export function textureFrom(
  scheduler: Scheduler,
  source: ExternalImage,
  options: { readonly format?: TextureFormat; readonly label?: string } = {},
): DeviceTexture {
  const size = imageSize('queue.texture', source);
  const texture = createTexture(scheduler, {
    format: options.format ?? 'rgba8unorm',
    size,
    ...(options.label === undefined ? {} : { label: options.label }),
  });
  texture.copyFrom(source);
  return texture;
}
