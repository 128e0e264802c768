/**
 * The WebGPU limits a kernel may need beyond the defaults every device offers. A kernel declares
 * them in its spec (`requiredLimits`); the build accepts sizes up to the declared values and the
 * runtime checks them against the device before it creates the kernel's pipeline.
 */
import { type KernelInfo, type SpecConstantMode, usesLaunchSlots } from './program.js';

/** WebGPU's default values (the minimum every device supports) of the limits a kernel may raise. */
export const DEFAULT_KERNEL_LIMITS = Object.freeze({
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupSizeZ: 64,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupStorageSize: 16384,
  maxStorageBuffersPerShaderStage: 8,
  maxSampledTexturesPerShaderStage: 16,
  maxSamplersPerShaderStage: 16,
  maxStorageTexturesPerShaderStage: 4,
} as const);

export type KernelLimit = keyof typeof DEFAULT_KERNEL_LIMITS;

export const KERNEL_LIMITS = Object.freeze(Object.keys(DEFAULT_KERNEL_LIMITS) as KernelLimit[]);

/** WebGPU limit name → the value the kernel needs at least; a limit left out needs its default. */
export type RequiredLimits = { readonly [K in KernelLimit]?: number };

/** WebGPU's default maxStorageBufferBindingSize and maxBufferSize: a device global's bounds. */
export const DEFAULT_STORAGE_BINDING_SIZE = 134217728;
export const DEFAULT_BUFFER_SIZE = 268435456;

/**
 * Storage buffers a kernel binds in `variant`: its accessors and device-global buffers, the
 * emulation buffer where it is a storage buffer and the kernel reads constants there, and the
 * launch-slot buffer where the kernel takes a slot.
 */
export function storageBuffersOf(
  info: KernelInfo,
  emulation: { readonly addressSpace: 'uniform' | 'storage' } | null,
  variant: SpecConstantMode,
): number {
  const bound = info.bindings.filter((b) => b.kind !== 'launch' && b.kind !== 'texture').length;
  const emulated =
    variant === 'emulated' &&
    info.specConstants.length > 0 &&
    emulation?.addressSpace === 'storage';
  return bound + Number(emulated) + Number(usesLaunchSlots(info, variant));
}

/**
 * Sampled textures, samplers and storage textures a kernel binds. An external texture counts as
 * WebGPU counts it: 4 sampled textures and 1 sampler.
 */
export function textureBindingsOf(info: KernelInfo): {
  readonly sampled: number;
  readonly samplers: number;
  readonly storage: number;
} {
  let sampled = 0;
  let samplers = 0;
  let storage = 0;
  for (const b of info.bindings) {
    if (b.kind !== 'texture') continue;
    const kind = b.texture.kind;
    if (kind === 'texture') sampled++;
    else if (kind === 'sampler') samplers++;
    else if (kind === 'storageTexture') storage++;
    else {
      sampled += 4;
      samplers++;
    }
  }
  return { sampled, samplers, storage };
}
