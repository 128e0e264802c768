/**
 * A kernel's WebGPU limits against its device, checked before its pipeline is created, so that
 * a kernel the device cannot run is a `SyclError` naming the kernel and the limit rather than a
 * validation error from the GPU.
 */
import {
  type BindingInfo,
  evaluateSize,
  KERNEL_LIMITS,
  type KernelInfo,
  type KernelLimit,
  roundUp,
  type SymbolicId,
} from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import type { DeviceBuffer } from '../memory/buffer.js';
import type { ResolvedKernel } from '../program/resolve.js';
import { leafValue, type SpecValues } from '../spec-constants/values.js';
import type { KernelAction } from './kernel-action.js';
import { failure } from './kernel-args.js';
import type { Vec3 } from './range.js';

/** What a check names: the API called and the kernel. */
export type Checked = Pick<KernelAction, 'api' | 'name'>;

/** The kernel's declared `requiredLimits` against the device's. */
export function checkRequiredLimits(
  limits: GPUSupportedLimits,
  action: Checked,
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
  action: Checked,
  size: readonly [number, number, number],
): void {
  const what = `its workgroup size [${size.join(', ')}] (WGSL order x, y, z) from specialization constants`;
  if (!size.every((n) => Number.isInteger(n) && n >= 1)) {
    throw new SyclError(
      errc.invalid,
      `${action.api}: kernel ${action.name}: ${what}: each dimension is at least 1`,
    );
  }
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
  action: Checked,
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
  if (bytes <= limits.maxComputeWorkgroupStorageSize) return;
  const named = arrays.map((a) => `${a.name} ${roundUp(16, a.stride * a.length)}`).join(', ');
  check(
    limits,
    action,
    'maxComputeWorkgroupStorageSize',
    bytes,
    `its workgroup arrays from specialization constants, in bytes: ${named}`,
  );
}

/** The kernel's workgroup size (WGSL's component order) with the launch's values. */
export function workgroupSizeOf(resolved: ResolvedKernel, values: SpecValues): Vec3 {
  const { program, image, info } = resolved;
  const [x, y, z] = info.workgroupSize.map((d) =>
    d.kind === 'literal' ? d.value : leafValue(program, image, values, d.symbolicId, d.leafId),
  );
  return [x!, y!, z!];
}

/** The workgroup size and workgroup memory that specialization constants set, with `values`. */
export function checkSpecSizes(
  limits: GPUSupportedLimits,
  action: Checked,
  resolved: ResolvedKernel,
  values: SpecValues,
): void {
  const { program, image, info } = resolved;
  const leaf = (symbolicId: SymbolicId, leafId: number) =>
    leafValue(program, image, values, symbolicId, leafId);
  if (info.workgroupSize.some((d) => d.kind !== 'literal')) {
    checkWorkgroupSize(limits, action, workgroupSizeOf(resolved, values));
  }
  const memory = info.workgroupMemory;
  if (memory.kind === 'literal') return;
  checkWorkgroupMemory(
    limits,
    action,
    memory.arrays.map((a) => ({ ...a, length: evaluateSize(a.length, leaf) })),
  );
}

/** Accessors joint matrices are loaded or stored through, per kernel. */
const matrixBindings = new WeakMap<
  KernelInfo,
  readonly (BindingInfo & { kind: 'accessor'; matrixBytes: number })[]
>();

/**
 * Each accessor a joint matrix is loaded or stored through holds one whole matrix: WebGPU
 * refuses a smaller binding for the subgroup-matrix built-ins, and the plain lowering would read
 * or write past its end. Checked before anything of the launch is made.
 */
export function checkMatrixArgs(action: KernelAction): void {
  const { info } = action.resolved;
  // Every launch comes here: kernels without joint matrices leave at once.
  if (!info.jointMatrices) return;
  let bindings = matrixBindings.get(info);
  if (!bindings) {
    bindings = info.bindings.filter(
      (b): b is BindingInfo & { kind: 'accessor'; matrixBytes: number } =>
        b.kind === 'accessor' && b.matrixBytes !== undefined,
    );
    matrixBindings.set(info, bindings);
  }
  for (const binding of bindings) {
    const index = action.schema.index.get(binding.arg);
    const buffer = (index === undefined ? undefined : action.args[index]) as
      | DeviceBuffer
      | undefined;
    if (!buffer || buffer.byteLength >= binding.matrixBytes) continue;
    throw failure(
      action.api,
      action.name,
      errc.kernelArgument,
      binding.arg,
      `the buffer holds ${buffer.byteLength} bytes, less than the ${binding.matrixBytes} of the largest joint matrix the kernel loads or stores through it`,
    );
  }
}

function check(
  limits: GPUSupportedLimits,
  action: Checked,
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
