/**
 * `@syclts/runtime/textures`: textures, samplers and video frames as kernel arguments (SYCL's
 * images). The integration footer of a module that declares texture arguments imports this
 * module, and loading it registers its code with the queue (`queue.texture`,
 * the arguments' checks and bindings), so that an app without textures does not carry it.
 */
import type { BindingInfo, TextureArgType } from '@syclts/dsl';
import { errc, SyclError } from './errors.js';
import {
  createTexture,
  DeviceTexture,
  type ExternalImage,
  TEXTURE_FORMATS,
  type TextureDescriptor,
  type TextureFormat,
  textureFrom,
  wrapTexture,
} from './memory/texture.js';
import { TextureUsage } from './platform/webgpu-flags.js';
import type { SyclEvent } from './queue/event.js';
import { failure } from './queue/kernel-args.js';
import type { Scheduler } from './queue/scheduler.js';
import { registerTextures, type TextureArg } from './queue/texture-hook.js';
import { show } from './values/scalars.js';

export {
  DeviceTexture,
  type ExternalImage,
  TEXTURE_FORMATS,
  type TexelArray,
  type TextureDescriptor,
  type TextureFormat,
  type TextureRegion,
} from './memory/texture.js';

/** A sampler or a video frame as bound. */
interface BoundResource extends TextureArg {
  readonly resource: GPUSampler | GPUExternalTexture;
}

function bound(
  kind: 'sampler' | 'externalTexture',
  resource: GPUSampler | GPUExternalTexture,
): BoundResource {
  return { textureArg: kind, resource };
}

/**
 * A video element's current frame, imported from a `VideoFrame` of it that stays open until the
 * launch has run: an import from the element itself expires when the page's task ends, before a
 * launch batched with others (or waiting for its pipeline) is submitted. The launch hands it its
 * event as it does to what a kernel writes (see `schemaOf`).
 */
class VideoElementFrame implements BoundResource {
  readonly textureArg = 'externalTexture';
  readonly resource: GPUExternalTexture;
  readonly #frame: VideoFrame;

  constructor(device: GPUDevice, video: HTMLVideoElement) {
    this.#frame = new VideoFrame(video);
    this.resource = device.importExternalTexture({ source: this.#frame });
  }

  get writer(): null {
    return null;
  }

  set writer(launch: SyclEvent) {
    const close = () =>
      launch.status === 'submitted' ? setTimeout(close, FRAME_POLL_MS) : this.#frame.close();
    close();
  }
}

/** How often a frame's launch is looked at, until it has run. */
const FRAME_POLL_MS = 16;

/** Whether `value` is the WebGPU object of that interface (Dawn's classes and the browser's alike). */
function isGpu(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && value.constructor?.name === name;
}

function checkTexture(
  api: string,
  kernelName: string,
  name: string,
  type: TextureArgType & { kind: 'texture' | 'storageTexture' },
  value: unknown,
): DeviceTexture {
  const fail = (why: string) => failure(api, kernelName, errc.kernelArgument, name, why);
  if (!(value instanceof DeviceTexture)) {
    throw fail(`expected a texture (queue.texture(...)), got ${show(value)}`);
  }
  if (value.destroyed) throw fail('the texture was destroyed');
  if (value.dimension !== type.dimension) {
    throw fail(`the kernel declares a ${type.dimension} texture; this one is ${value.dimension}`);
  }
  const usage = value.gpuTexture.usage;
  if (type.kind === 'storageTexture') {
    if (value.format !== type.format) {
      throw fail(`the kernel declares format ${type.format}; this texture is ${value.format}`);
    }
    if (!(usage & TextureUsage.STORAGE_BINDING)) {
      throw fail(`texture of format ${value.format} made without STORAGE_BINDING usage`);
    }
    return value;
  }
  const reads = TEXTURE_FORMATS[value.format as TextureFormat][2];
  if (reads !== type.sampleType) {
    throw fail(
      `the kernel reads ${type.sampleType} texels; a ${value.format} texture gives ${reads}`,
    );
  }
  if (!(usage & TextureUsage.TEXTURE_BINDING)) {
    throw fail('texture made without TEXTURE_BINDING usage');
  }
  return value;
}

const ACCESS = { read: 'read-only', write: 'write-only', read_write: 'read-write' } as const;

registerTextures({
  check(api, kernelName, name, type, value, device): TextureArg {
    switch (type.kind) {
      case 'texture':
      case 'storageTexture':
        return checkTexture(api, kernelName, name, type, value);
      case 'sampler':
        if (!isGpu(value, 'GPUSampler')) {
          throw failure(
            api,
            kernelName,
            errc.kernelArgument,
            name,
            `expected a GPUSampler (queue.sampler(...)), got ${show(value)}`,
          );
        }
        return bound('sampler', value as GPUSampler);
      case 'externalTexture': {
        if (isGpu(value, 'GPUExternalTexture')) {
          return bound('externalTexture', value as GPUExternalTexture);
        }
        if (!isGpu(value, 'HTMLVideoElement') && !isGpu(value, 'VideoFrame')) {
          throw failure(
            api,
            kernelName,
            errc.kernelArgument,
            name,
            `expected a video element, a VideoFrame or a GPUExternalTexture, got ${show(value)}`,
          );
        }
        if (isGpu(value, 'VideoFrame')) {
          const source = value as VideoFrame;
          return bound('externalTexture', device.importExternalTexture({ source }));
        }
        return new VideoElementFrame(device, value as HTMLVideoElement);
      }
    }
  },
  resource(arg) {
    return arg instanceof DeviceTexture ? arg.view : (arg as BoundResource).resource;
  },
  layout(binding: BindingInfo & { kind: 'texture' }) {
    const t = binding.texture;
    switch (t.kind) {
      case 'texture': {
        const sampleType =
          t.sampleType === 'f32'
            ? binding.filtered
              ? 'float'
              : 'unfilterable-float'
            : t.sampleType === 'u32'
              ? 'uint'
              : 'sint';
        return { texture: { sampleType, viewDimension: t.dimension } };
      }
      case 'storageTexture':
        return {
          storageTexture: {
            access: ACCESS[t.access],
            format: t.format,
            viewDimension: t.dimension,
          },
        };
      case 'sampler':
        return { sampler: { type: binding.filtered ? 'filtering' : 'non-filtering' } };
      case 'externalTexture':
        return { externalTexture: {} };
    }
  },
  create(scheduler: Scheduler, args: readonly unknown[]) {
    const [first, options = {}] = args as [unknown, object | undefined];
    if (isGpu(first, 'GPUTexture')) return wrapTexture(scheduler, first as GPUTexture, options);
    if (typeof first !== 'object' || first === null) {
      throw new SyclError(
        errc.invalid,
        `queue.texture: expected a descriptor ({ format, size }), an image or a GPUTexture, got ${show(first)}`,
      );
    }
    if ('size' in first && 'format' in first) {
      return createTexture(scheduler, first as TextureDescriptor);
    }
    return textureFrom(scheduler, first as ExternalImage, options);
  },
});
