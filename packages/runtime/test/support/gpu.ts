import { afterAll } from 'vitest';
import { Queue, type QueueOptions } from '../../src/index.js';

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

/** Mixed into every seed so each run draws fresh inputs; SYCLTS_TEST_SEED replays a run. */
const RUN_SEED = Number(process.env.SYCLTS_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));
console.log(`[syclts] runtime test inputs: SYCLTS_TEST_SEED=${RUN_SEED}`);

/** Pseudo-random u32s (xorshift), different between elements, tests and runs. */
export function randomU32(count: number, seed: number): Uint32Array {
  let x = (seed ^ RUN_SEED) >>> 0 || 1;
  return Uint32Array.from({ length: count }, () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  });
}

export const POISON = 0xdeadbeef;
