import type { Kernel, KernelInfo } from '@syclts/dsl';
import type { DeviceContext } from '../device/device-context.js';
import type { ResolvedKernel } from '../program/resolve.js';
import type { KernelPolicy } from '../spec-constants/policy.js';
import type { KernelState } from './kernel-action.js';
import type { KernelPlans } from './launch.js';
import type { Scheduler } from './scheduler.js';

/** What handlers and kernel bundles use of their queue. */
export interface QueueCore {
  readonly context: DeviceContext;
  readonly scheduler: Scheduler;
  /** `QueueOptions.logBufferSize`, as given (checked where it is used, by @syclts/runtime/log). */
  readonly logBufferSize: number | undefined;
  policyFor(kernel: ResolvedKernel): KernelPolicy;
  /** The queue's launch plans of a kernel (of a kernel host object, or a reduction's finisher). */
  plansFor(info: KernelInfo): KernelPlans;
  /** The queue's state for a kernel host object; errors name `api`. */
  kernel(api: string, kernel: Kernel): KernelState;
}
