/**
 * A kernel's WebGPU limits against its device, checked before its pipeline is created, so that
 * a kernel the device cannot run is a `SyclError` naming the kernel and the limit rather than a
 * validation error from the GPU.
 */
import { KERNEL_LIMITS, type KernelInfo, type KernelLimit, roundUp } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import type { KernelAction } from './kernel-action.js';

/** The kernel's declared `requiredLimits` against the device's. */
export function checkRequiredLimits(
  limits: GPUSupportedLimits,
  action: KernelAction,
  info: KernelInfo,
): void {
  const required = info.requiredLimits;
  if (!required) return;
  for (const limit of KERNEL_LIMITS) {
    const needed = required[limit];
    if (needed !== undefined) check(limits, action, limit, needed, 'its requiredLimits');
  }
}

/** A workgroup size a specialization constant set at run time, in WGSL order x, y, z. */
export function checkWorkgroupSize(
  limits: GPUSupportedLimits,
  action: KernelAction,
  size: readonly [number, number, number],
): void {
  const what = `its workgroup size [${size.join(', ')}] (WGSL order x, y, z) from specialization constants`;
  check(limits, action, 'maxComputeWorkgroupSizeX', size[0], what);
  check(limits, action, 'maxComputeWorkgroupSizeY', size[1], what);
  check(limits, action, 'maxComputeWorkgroupSizeZ', size[2], what);
  check(limits, action, 'maxComputeInvocationsPerWorkgroup', size[0] * size[1] * size[2], what);
}

/**
 * Workgroup arrays whose lengths specialization constants set, each length valued; WebGPU counts
 * each variable rounded up to 16 bytes.
 */
export function checkWorkgroupMemory(
  limits: GPUSupportedLimits,
  action: KernelAction,
  arrays: readonly { readonly name: string; readonly stride: number; readonly length: number }[],
): void {
  let bytes = 0;
  for (const { name, stride, length } of arrays) {
    if (!(Number.isInteger(length) && length >= 1)) {
      throw new SyclError(
        errc.invalid,
        `${action.api}: kernel ${action.name}: its specialization constants give workgroup array '${name}' ${length} elements; a workgroup array holds at least one`,
      );
    }
    bytes += roundUp(16, stride * length);
  }
  const named = arrays.map((a) => `${a.name} ${a.stride * a.length}`).join(', ');
  check(
    limits,
    action,
    'maxComputeWorkgroupStorageSize',
    bytes,
    `its workgroup arrays from specialization constants, in bytes: ${named}`,
  );
}

function check(
  limits: GPUSupportedLimits,
  action: KernelAction,
  limit: KernelLimit,
  needed: number,
  what: string,
): void {
  const offered = limits[limit];
  if (needed <= offered) return;
  throw new SyclError(
    errc.kernelNotSupported,
    `${action.api}: kernel ${action.name} needs ${limit} ${needed} (${what}), but the device offers ${offered}: run it on a device whose limits allow it (Queue.create asks the adapter for its maxima; a device the caller creates must request them in requiredLimits)`,
  );
}
