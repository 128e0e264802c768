/**
 * What a kernel launch command records, checked when it is recorded: the kernel resolved, its
 * range (or nd-range) against the kernel's dimensions, its arguments against the kernel's schema.
 */
import type { Dimensions, Kernel } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import type { ResolvedKernel } from '../program/resolve.js';
import type { KernelPolicy } from '../spec-constants/policy.js';
import type { QueueCore } from './core.js';
import { reductionSupport } from './group-hook.js';
import { type ArgSchema, type CheckedArgs, checkArgs } from './kernel-args.js';
import type { KernelPlans } from './launch.js';
import { type LogLaunch, logHook } from './log-hook.js';
import { type NdRange, syclSizes } from './range.js';
import type { PreparedCommand } from './scheduler.js';

/**
 * What a queue keeps per kernel host object, resolved once per attachment (see
 * attachGeneration): a launch looks it up once.
 */
export interface KernelState {
  readonly generation: number;
  readonly resolved: ResolvedKernel;
  /** The kernel's arguments as declared by the host object. */
  readonly schema: ArgSchema;
  readonly policy: KernelPolicy;
  readonly plans: KernelPlans;
}

export interface KernelAction {
  readonly api: string;
  /** The kernel's symbolic ID, for messages and labels. */
  readonly name: string;
  readonly resolved: ResolvedKernel;
  readonly policy: KernelPolicy;
  readonly plans: KernelPlans;
  /** SYCL-ordered global sizes. */
  readonly global: readonly number[];
  /** SYCL-ordered local sizes for nd-range launches. */
  readonly local: readonly number[] | null;
  /** The kernel's arguments as declared by the host object launched. */
  readonly schema: ArgSchema;
  readonly args: CheckedArgs;
  /** The launches that finish the kernel's reductions, after it (none without reductions). */
  readonly finishers: readonly KernelAction[];
  /** Where the launch's `console.log` lines go; null when the kernel does not print. */
  readonly log: LogLaunch | null;
  /** A finishing launch into a device global: the copies of its value around it. */
  readonly around?: TargetCopies | null;
}

/** The copies around a reduction's finisher whose result goes to a device global. */
export interface TargetCopies {
  /** The global's value into the buffer the finisher writes, where it is combined in. */
  readonly before: PreparedCommand | null;
  /** The result into the global. */
  readonly after: PreparedCommand;
}

export function kernelAction(
  api: string,
  range: unknown,
  kernel: Kernel,
  state: KernelState,
  args: unknown,
  core: QueueCore,
): KernelAction {
  const { resolved, schema, policy, plans } = state;
  const name = resolved.symbolicId;
  const nd = typeof range === 'object' && range !== null && !Array.isArray(range);
  if (nd !== kernel.ndRange) {
    throw new SyclError(
      errc.ndRange,
      `${api}: kernel ${name} is ${kernel.ndRange ? 'an nd-range kernel and needs ndRange(global, local)' : 'a basic kernel and takes a range, not an nd-range'}`,
    );
  }
  const global = nd
    ? syclSizes(api, name, 'global range', (range as NdRange<Dimensions>).global, kernel.dimensions)
    : syclSizes(api, name, 'range', range, kernel.dimensions);
  const local = nd
    ? syclSizes(api, name, 'local range', (range as NdRange<Dimensions>).local, kernel.dimensions)
    : null;
  const given = checkArgs(api, name, schema, args, core.context.device);
  // Reductions replace their targets with buffers of partial results, and add launches.
  const { args: checked, finishers } = resolved.info.reductions
    ? reductionSupport(api, name).launches(core, api, resolved, schema, given, global, local)
    : { args: given as CheckedArgs, finishers: [] };
  const log = logHook.launch?.(core, api, resolved, global, local) ?? null;
  return {
    api,
    name,
    resolved,
    policy,
    plans,
    global,
    local,
    schema,
    args: checked,
    finishers,
    log,
  };
}
