/**
 * The WebGPU features a kernel's WGSL needs against its device, checked before its pipeline is
 * created, so that f16 code on a device without `shader-f16` is a `SyclError` naming the kernel
 * and the feature rather than a shader that does not compile.
 */
import { errc, SyclError } from '../errors.js';
import type { KernelAction } from './kernel-action.js';

/** Throws `kernel_not_supported` when `code` enables f16 and the device lacks `shader-f16`. */
export function checkF16(features: GPUSupportedFeatures, action: KernelAction, code: string): void {
  if (features.has('shader-f16') || !enablesF16(code)) return;
  throw new SyclError(
    errc.kernelNotSupported,
    `${action.api}: kernel ${action.name} needs the device's 'shader-f16' feature, since its device image ${action.resolved.image.id} uses f16, but the device lacks it: Queue.create takes it where the adapter offers it (Dawn in Node offers it on NVIDIA GPUs through Vulkan with dawnToggles: { enable: ['vulkan_enable_f16_on_nvidia'] }); a device the caller creates must list it in requiredFeatures`,
  );
}

/** Whether the module's directives, which WGSL puts before any declaration, enable f16. */
function enablesF16(code: string): boolean {
  // Directives come first: the head is enough, however long the module.
  for (const line of code.split('\n', 16)) {
    const text = line.trim();
    if (text.startsWith('enable ')) {
      const names = text.slice('enable '.length, text.lastIndexOf(';'));
      if (names.split(',').some((name) => name.trim() === 'f16')) return true;
    } else if (text !== '' && !text.startsWith('//') && !/^(requires|diagnostic)\b/.test(text)) {
      return false;
    }
  }
  return false;
}
