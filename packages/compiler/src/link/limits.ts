/**
 * WebGPU's limits on what one kernel's pipeline may use: the workgroup size, workgroup memory
 * and storage buffers per shader stage. A kernel over a default limit is refused at build time,
 * unless its spec declares the limit in `requiredLimits` (the runtime then checks the device).
 */
import {
  DEFAULT_KERNEL_LIMITS,
  type KernelLimit,
  roundUp,
  type SpecConstantMode,
  type SymbolicId,
  storageBuffersOf,
  strideOf,
  textureBindingsOf,
} from '@syclts/dsl';
import { type Diagnostic, errorAt } from '../diagnostics/diagnostic.js';
import * as msg from '../diagnostics/link-messages.js';
import type { Span } from '../ir/span.js';
import type { LinkedImage, LinkedKernel } from './linked-image.js';
import { sizeLeaves, sizeOf } from './sizes.js';

/** The default value of an integer specialization-constant leaf. */
export type LeafDefault = (symbolicId: SymbolicId, leafId: number) => number;

/** WebGPU counts each workgroup variable rounded up to 16 bytes. */
const WORKGROUP_VARIABLE_ALIGN = 16;
/** The launch slot's `var<workgroup>` u32, as counted. */
const LAUNCH_SLOT_BYTES = 16;

interface Need {
  readonly limit: KernelLimit;
  readonly value: number;
  /** What needs it, for the message. */
  readonly use: msg.LimitUse;
  readonly span: Span;
  /** Whether a specialization constant's default value went into it. */
  readonly fromDefaults: boolean;
}

/** Reports each limit a kernel of `image` needs above what it may use. */
export function checkKernelLimits(
  image: Pick<LinkedImage, 'kernels' | 'emulation'>,
  leafDefault: LeafDefault,
  diagnostics: Diagnostic[],
): void {
  for (const kernel of image.kernels) {
    const dims = kernel.decl.range.dimensions;
    for (const [c, v] of kernel.workgroupSize.entries()) {
      // WebGPU's lower bound, which only a specialization constant's default can break.
      if (sizeOf(v, leafDefault) >= 1) continue;
      const { decl } = kernel;
      const span =
        decl.range.kind === 'nd'
          ? (decl.range.workgroupSize[dims - 1 - c]?.span ?? decl.span)
          : decl.span;
      diagnostics.push(
        errorAt(
          msg.emptyWorkgroup(kernel.symbolicId, dims - 1 - c),
          kernel.info.source.module,
          span,
        ),
      );
    }
    for (const need of needsOf(kernel, image.emulation, leafDefault)) {
      const declared = kernel.decl.requiredLimits?.[need.limit];
      const allowed = declared ?? DEFAULT_KERNEL_LIMITS[need.limit];
      if (need.value <= allowed) continue;
      diagnostics.push(
        errorAt(
          msg.kernelLimit(kernel.symbolicId, need, allowed, declared !== undefined),
          kernel.info.source.module,
          need.span,
        ),
      );
    }
  }
}

function needsOf(
  kernel: LinkedKernel,
  emulation: LinkedImage['emulation'],
  leafDefault: LeafDefault,
): Need[] {
  const { decl, info } = kernel;
  const dims = decl.range.dimensions;
  const sizeSpan = (c: number) =>
    decl.range.kind === 'nd'
      ? (decl.range.workgroupSize[dims - 1 - c]?.span ?? decl.span)
      : decl.span;
  const size = kernel.workgroupSize.map((v) => sizeOf(v, leafDefault));
  const sizeFromDefaults = kernel.workgroupSize.some((v) => sizeLeaves(v).length > 0);
  const limits = [
    'maxComputeWorkgroupSizeX',
    'maxComputeWorkgroupSizeY',
    'maxComputeWorkgroupSizeZ',
  ] as const;
  const needs: Need[] = limits.map((limit, c) => ({
    limit,
    value: size[c]!,
    use: { kind: 'workgroupSize', dimension: dims - 1 - c, component: 'xyz'[c]! },
    span: sizeSpan(c),
    fromDefaults: sizeLeaves(kernel.workgroupSize[c]!).length > 0,
  }));
  needs.push({
    limit: 'maxComputeInvocationsPerWorkgroup',
    value: size[0]! * size[1]! * size[2]!,
    use: { kind: 'invocations', size },
    span: decl.range.kind === 'nd' ? sizeSpan(0) : decl.span,
    fromDefaults: sizeFromDefaults,
  });

  // Workgroup memory: the arrays, then the launch slot's variable; reported at the array that
  // crosses the limit (or the kernel, when only the slot does).
  const allowedMemory =
    decl.requiredLimits?.maxComputeWorkgroupStorageSize ??
    DEFAULT_KERNEL_LIMITS.maxComputeWorkgroupStorageSize;
  let memory = info.launchSlots.length > 0 ? LAUNCH_SLOT_BYTES : 0;
  let memorySpan = decl.span;
  let memoryFromDefaults = false;
  for (const [i, w] of kernel.workgroupArrays.entries()) {
    const bytes = sizeOf(w.length, leafDefault) * strideOf(w.element);
    const crossed = memory <= allowedMemory;
    memory += roundUp(WORKGROUP_VARIABLE_ALIGN, bytes);
    memoryFromDefaults ||= sizeLeaves(w.length).length > 0;
    if (crossed && memory > allowedMemory) memorySpan = decl.workgroupArrays[i]!.span;
  }
  // The group functions' arrays: one element per item of the work-group.
  for (const t of kernel.groupScratch) {
    memory += roundUp(WORKGROUP_VARIABLE_ALIGN, size[0]! * size[1]! * size[2]! * strideOf(t));
    memoryFromDefaults ||= sizeFromDefaults;
  }
  needs.push({
    limit: 'maxComputeWorkgroupStorageSize',
    value: memory,
    use: { kind: 'workgroupMemory', launchSlot: info.launchSlots.length > 0 },
    span: memorySpan,
    fromDefaults: memoryFromDefaults,
  });

  const variants: readonly SpecConstantMode[] = info.variants;
  const buffers = Math.max(...variants.map((v) => storageBuffersOf(info, emulation, v)));
  needs.push({
    limit: 'maxStorageBuffersPerShaderStage',
    value: buffers,
    use: { kind: 'storageBuffers' },
    span: decl.span,
    fromDefaults: false,
  });
  const textures = textureBindingsOf(info);
  const counted = [
    ['maxSampledTexturesPerShaderStage', textures.sampled],
    ['maxSamplersPerShaderStage', textures.samplers],
    ['maxStorageTexturesPerShaderStage', textures.storage],
  ] as const;
  for (const [limit, value] of counted) {
    needs.push({ limit, value, use: { kind: 'textures' }, span: decl.span, fromDefaults: false });
  }
  return needs;
}
