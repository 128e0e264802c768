import type { KernelInfo } from '@syclts/dsl';
import type { DeviceContext } from '../device/device-context.js';
import type { ResolvedKernel } from '../program/resolve.js';
import type { KernelPolicy } from '../spec-constants/policy.js';
import type { KernelPlans } from './launch.js';
import type { Scheduler } from './scheduler.js';

/** What handlers and kernel bundles use of their queue. */
export interface QueueCore {
  readonly context: DeviceContext;
  readonly scheduler: Scheduler;
  policyFor(kernel: ResolvedKernel): KernelPolicy;
  plansFor(info: KernelInfo): KernelPlans;
}
