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
  const bound = info.bindings.filter((b) => b.kind !== 'launch').length;
  const emulated =
    variant === 'emulated' &&
    info.specConstants.length > 0 &&
    emulation?.addressSpace === 'storage';
  return bound + Number(emulated) + Number(usesLaunchSlots(info, variant));
}
