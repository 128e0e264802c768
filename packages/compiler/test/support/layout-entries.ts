/**
 * The explicit bind group layout of a kernel in one variant, as docs/device-images.md describes
 * it (the runtime adds dynamic offsets): its bindings, the emulation buffer where it reads
 * emulated constants, and the launch-slot buffer where it takes a slot.
 */
import {
  type DeviceImage,
  type KernelInfo,
  type SpecConstantMode,
  usesLaunchSlots,
} from '@syclts/dsl';

export function layoutEntries(
  image: DeviceImage,
  kernel: KernelInfo,
  mode: SpecConstantMode,
): GPUBindGroupLayoutEntry[] {
  const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({
    binding,
    visibility: GPUShaderStage.COMPUTE,
    buffer: { type },
  });
  const entries = kernel.bindings.map((b) =>
    entry(
      b.binding,
      b.kind === 'launch'
        ? 'uniform'
        : b.kind === 'accessor' && b.access === 'read'
          ? 'read-only-storage'
          : 'storage',
    ),
  );
  if (mode === 'emulated' && kernel.specConstants.length > 0) {
    const e = image.emulation!;
    entries.push(entry(e.binding, e.addressSpace === 'uniform' ? 'uniform' : 'read-only-storage'));
  }
  if (usesLaunchSlots(kernel, mode)) entries.push(entry(image.launchSlots!.binding, 'storage'));
  return entries;
}
