/**
 * Group functions' and reductions' run-time code is in its own module, `@syclts/runtime/groups`,
 * which the integration footer of a module using them imports: an app without them does not
 * carry it. Loading it registers it here.
 */
import type { CollectiveLowering, DeviceImage, ReductionType } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import type { ResolvedKernel } from '../program/resolve.js';
import type { QueueCore } from './core.js';
import type { KernelAction } from './kernel-action.js';
import type { ArgSchema, CheckedArgs, CheckedReduction, GivenArgs } from './kernel-args.js';

export interface GroupSupport {
  /** A reduction argument's target, checked. */
  check(
    api: string,
    kernelName: string,
    name: string,
    type: ReductionType,
    value: unknown,
    device: GPUDevice,
  ): CheckedReduction;
  /** The launch's arguments with the partials in place of the targets, and the finishing launches. */
  launches(
    core: QueueCore,
    api: string,
    resolved: ResolvedKernel,
    schema: ArgSchema,
    given: GivenArgs,
    global: readonly number[],
    local: readonly number[] | null,
  ): { readonly args: CheckedArgs; readonly finishers: readonly KernelAction[] };
  /** How `device` runs the group functions of `image` (see device/collectives.ts). */
  lowering(device: GPUDevice, image: DeviceImage): CollectiveLowering;
}

let support: GroupSupport | null = null;

export function registerGroups(groups: GroupSupport): void {
  support = groups;
}

/** The registered support, if a module using group functions loaded it. */
export function groupSupport(): GroupSupport | null {
  return support;
}

export function reductionSupport(api: string, kernelName: string): GroupSupport {
  if (!support) {
    throw new SyclError(
      errc.kernelNotSupported,
      `${api}: kernel ${kernelName} has reduction arguments: import '@syclts/runtime/groups'`,
    );
  }
  return support;
}
