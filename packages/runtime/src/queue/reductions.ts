/**
 * Part of `@syclts/runtime/groups` (see group-hook.ts). A launch of a kernel with reduction variables (`KernelInfo.reductions`):
 * the kernel writes one partial result per work-group into a buffer of the queue's, bound in the
 * place of each variable, and one finishing launch per variable folds them into the host's
 * buffer. The partials' buffers are kept per kernel and argument, and grow with the launches.
 */
import {
  type AccessorType,
  accessor,
  type DataType,
  type KernelInfo,
  type ReductionInfo,
  type ReductionType,
  u32,
} from '@syclts/dsl';
import { errc } from '../errors.js';
import { DeviceBuffer } from '../memory/buffer.js';
import type { ResolvedKernel } from '../program/resolve.js';
import { canonicalize } from '../values/host-value.js';
import { show } from '../values/scalars.js';
import type { QueueCore } from './core.js';
import type { KernelAction } from './kernel-action.js';
import {
  type ArgSchema,
  type CheckedArgs,
  type CheckedReduction,
  checkBuffer,
  failure,
  type GivenArgs,
} from './kernel-args.js';

/** Items of a finishing kernel's one work-group. */
const FINISHER_ITEMS = 256;

/** The launch's arguments with each reduction's partials in its place, and the finishing launches. */
export function reductionLaunches(
  core: QueueCore,
  api: string,
  resolved: ResolvedKernel,
  schema: ArgSchema,
  given: GivenArgs,
  global: readonly number[],
  local: readonly number[] | null,
): { readonly args: CheckedArgs; readonly finishers: readonly KernelAction[] } {
  const reductions = resolved.info.reductions!;
  const groups = workGroups(resolved.info, global, local);
  const args = [...given];
  const finishers = reductions.map((r) => {
    const index = schema.index.get(r.arg)!;
    const target = given[index] as CheckedReduction;
    const buffer = partialsFor(core, resolved, r, groups);
    args[index] = buffer;
    return finisher(core, api, resolved, r, buffer, target, groups);
  });
  return { args: args as CheckedArgs, finishers };
}

/** The launch's work-groups: a basic range's last ones in each dimension may be partial. */
function workGroups(
  info: KernelInfo,
  global: readonly number[],
  local: readonly number[] | null,
): number {
  const dims = global.length;
  return global.reduce((n, size, d) => {
    const wg = info.workgroupSize[dims - 1 - d]!;
    const l = local?.[d] ?? (wg.kind === 'literal' ? wg.value : 1);
    return n * Math.ceil(size / l);
  }, 1);
}

/** Per queue (its scheduler) and kernel: the buffers of partial results, by argument. */
const partials = new WeakMap<object, WeakMap<KernelInfo, Map<string, DeviceBuffer>>>();

function partialsFor(
  core: QueueCore,
  resolved: ResolvedKernel,
  r: ReductionInfo,
  groups: number,
): DeviceBuffer {
  let byKernel = partials.get(core.scheduler);
  if (!byKernel) {
    byKernel = new WeakMap();
    partials.set(core.scheduler, byKernel);
  }
  let byArg = byKernel.get(resolved.info);
  if (!byArg) {
    byArg = new Map();
    byKernel.set(resolved.info, byArg);
  }
  // One partial per work-group, a span's one per value.
  const elements = Math.max(1, groups) * (r.extent ?? 1);
  const known = byArg.get(r.arg);
  if (known && known.length >= elements) return known;
  const buffer = new DeviceBuffer(core.scheduler, r.element, elements, {
    label: `${resolved.symbolicId} reduction '${r.arg}' partial results`,
  });
  byArg.set(r.arg, buffer);
  return buffer;
}

const schemas = new WeakMap<DataType, ArgSchema>();

/** The finishing kernel's arguments: partials, target, count, keep. */
function finisherSchema(element: DataType): ArgSchema {
  let schema = schemas.get(element);
  if (!schema) {
    const names = ['partials', 'target', 'count', 'keep'];
    schema = {
      names,
      types: [accessor(element, 'read'), accessor(element, 'read_write'), u32, u32],
      index: new Map(names.map((n, i) => [n, i])),
      reads: [0, 1],
      writes: [1],
    };
    schemas.set(element, schema);
  }
  return schema;
}

function finisher(
  core: QueueCore,
  api: string,
  kernel: ResolvedKernel,
  r: ReductionInfo,
  partials: DeviceBuffer,
  target: CheckedReduction,
  groups: number,
): KernelAction {
  const info = kernel.image.kernels[r.finisher]!;
  const resolved: ResolvedKernel = { ...kernel, symbolicId: r.finisher, info };
  return {
    api,
    name: r.finisher,
    resolved,
    policy: core.policyFor(resolved),
    plans: core.plansFor(info),
    global: [FINISHER_ITEMS],
    local: [FINISHER_ITEMS],
    schema: finisherSchema(r.element),
    args: [
      partials,
      target.target,
      canonicalize(u32, groups, 'count'),
      canonicalize(u32, target.keep ? 1 : 0, 'keep'),
    ],
    finishers: [],
    log: null,
  };
}

export function checkReduction(
  api: string,
  kernelName: string,
  name: string,
  type: ReductionType,
  value: unknown,
  device: GPUDevice,
): CheckedReduction {
  const wrapped = typeof value === 'object' && value !== null && !(value instanceof DeviceBuffer);
  const given = wrapped ? (value as { buffer?: unknown }).buffer : value;
  const init = wrapped ? (value as { initializeToIdentity?: unknown }).initializeToIdentity : false;
  if (init !== undefined && typeof init !== 'boolean') {
    throw failure(
      api,
      kernelName,
      errc.kernelArgument,
      name,
      `initializeToIdentity must be true or false, got ${show(init)}`,
    );
  }
  const span = type.element.kind === 'span' ? type.element : null;
  const element = span ? span.element : (type.element as DataType);
  const accessor: AccessorType = { kind: 'accessor', element, access: 'read_write' };
  const target = checkBuffer(api, kernelName, name, accessor, given, device);
  if (target.length === 0) {
    throw failure(
      api,
      kernelName,
      errc.kernelArgument,
      name,
      "the reduction's buffer is empty: its first element receives the result",
    );
  }
  if (span && target.length < span.extent) {
    throw failure(
      api,
      kernelName,
      errc.kernelArgument,
      name,
      `the buffer has ${target.length} elements and the span reduction ${span.extent}: its first ${span.extent} receive the results`,
    );
  }
  return { kind: 'reduction', target, keep: init !== true };
}
