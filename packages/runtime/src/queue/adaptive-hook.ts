/**
 * Adaptive specialization's run-time code is in its own module, `@syclts/runtime/adaptive`,
 * whose `adaptive` value a queue takes (`Queue.create({ adaptive })`): an app that does not
 * specialise adaptively does not carry it. Here is only what the queue and a launch see of it.
 */
import type { DeviceContext } from '../device/device-context.js';
import type { SpecValues } from '../spec-constants/values.js';
import type { Batch } from './batch.js';
import type { KernelAction } from './kernel-action.js';
import type { PreparedLaunch } from './launch.js';

/** What `Queue.create({ adaptive })` takes: the `adaptive` value `@syclts/runtime/adaptive` exports. */
export interface AdaptiveProperty {
  /** @internal What one kernel's launches on one queue go through. */
  specializer(): Specializer;
}

/** @internal A launch on its specialised pipeline, or null for the generic path. */
export type Specializer = (
  context: DeviceContext,
  action: KernelAction,
  values: SpecValues,
  batch: Batch,
) => PreparedLaunch | null;
