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

/** Each binding of the layout with its buffer type (plain data: it crosses processes). */
export interface LayoutBinding {
  readonly binding: number;
  readonly type: GPUBufferBindingType;
}

export function layoutBindings(
  image: DeviceImage,
  kernel: KernelInfo,
  mode: SpecConstantMode,
): LayoutBinding[] {
  const bindings: LayoutBinding[] = kernel.bindings.map((b) => ({
    binding: b.binding,
    type:
      b.kind === 'launch'
        ? 'uniform'
        : b.kind === 'accessor' && b.access === 'read'
          ? 'read-only-storage'
          : 'storage',
  }));
  if (mode === 'emulated' && kernel.specConstants.length > 0) {
    const e = image.emulation!;
    bindings.push({
      binding: e.binding,
      type: e.addressSpace === 'uniform' ? 'uniform' : 'read-only-storage',
    });
  }
  if (usesLaunchSlots(kernel, mode))
    bindings.push({ binding: image.launchSlots!.binding, type: 'storage' });
  return bindings;
}

export function layoutEntries(
  image: DeviceImage,
  kernel: KernelInfo,
  mode: SpecConstantMode,
): GPUBindGroupLayoutEntry[] {
  return layoutBindings(image, kernel, mode).map(({ binding, type }) => ({
    binding,
    visibility: GPUShaderStage.COMPUTE,
    buffer: { type },
  }));
}
