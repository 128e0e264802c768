import { afterAll } from 'vitest';
import { Queue, type QueueOptions, requestAdapter } from '../../src/index.js';

const devices = new Set<GPUDevice>();

// Dawn may crash at process exit while devices are alive: release them when the file is done.
afterAll(() => {
  for (const device of devices) device.destroy();
  devices.clear();
});

/** A queue on its own device (so counters and device globals start fresh), on the test adapter. */
export async function freshQueue(options: QueueOptions = {}): Promise<Queue> {
  const queue = await Queue.create(options);
  devices.add(queue.device);
  return queue;
}

/**
 * A fresh queue on a device with sub-groups where the adapter has them, or (`subgroups` false)
 * on a device of the caller's created without the feature: group functions then run in
 * workgroup memory.
 */
export async function groupsQueue(subgroups: boolean): Promise<Queue> {
  if (subgroups) return freshQueue();
  const { adapter } = await requestAdapter();
  const device = await adapter.requestDevice();
  devices.add(device);
  return Queue.create({ device });
}

export { randomU32 } from '../../../../test-inputs.ts';

export const POISON = 0xdeadbeef;
