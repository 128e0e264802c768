/**
 * A launch of a kernel with reduction variables (see `KernelInfo.reductions`): the kernel writes
 * one partial result per work-group into a buffer of the queue's, bound in the place of each
 * variable, and one finishing launch per variable folds them into the host's buffer. The
 * partials' buffers are kept per kernel and argument, and grow with the launches.
 */
import { accessor, type DataType, type KernelInfo, type ReductionInfo, u32 } from '@syclts/dsl';
import { DeviceBuffer } from '../memory/buffer.js';
import type { ResolvedKernel } from '../program/resolve.js';
import { canonicalize } from '../values/host-value.js';
import type { QueueCore } from './core.js';
import type { KernelAction } from './kernel-action.js';
import type { ArgSchema, CheckedArgs, CheckedReduction, GivenArgs } from './kernel-args.js';

/** Items of a finishing kernel's one work-group. */
const FINISHER_ITEMS = 256;

/** Per queue: each kernel's buffers of partial results, by argument. */
export type PartialsBuffers = WeakMap<KernelInfo, Map<string, DeviceBuffer>>;

/**
 * The launch's arguments with each reduction's partials in its place, and the finishing
 * launches; the arguments as they are when the kernel has no reductions.
 */
export function reductionLaunches(
  core: QueueCore,
  partials: PartialsBuffers,
  api: string,
  resolved: ResolvedKernel,
  schema: ArgSchema,
  given: GivenArgs,
  global: readonly number[],
  local: readonly number[] | null,
): { readonly args: CheckedArgs; readonly finishers: readonly KernelAction[] } {
  const reductions = resolved.info.reductions;
  if (!reductions) return { args: given as CheckedArgs, finishers: [] };
  const groups = workGroups(resolved.info, global, local);
  const args = [...given];
  const finishers = reductions.map((r) => {
    const index = schema.index.get(r.arg)!;
    const target = given[index] as CheckedReduction;
    const buffer = partialsFor(core, partials, resolved, r, groups);
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

function partialsFor(
  core: QueueCore,
  partials: PartialsBuffers,
  resolved: ResolvedKernel,
  r: ReductionInfo,
  groups: number,
): DeviceBuffer {
  let byArg = partials.get(resolved.info);
  if (!byArg) {
    byArg = new Map();
    partials.set(resolved.info, byArg);
  }
  const known = byArg.get(r.arg);
  if (known && known.length >= groups) return known;
  const buffer = new DeviceBuffer(core.scheduler, r.element, Math.max(1, groups), {
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
  };
}
