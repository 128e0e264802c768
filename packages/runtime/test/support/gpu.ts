import { Queue, type QueueOptions } from '../../src/index.js';

/** A queue on its own device (so counters and device globals start fresh), on the test adapter. */
export function freshQueue(options: QueueOptions = {}): Promise<Queue> {
  return Queue.create(options);
}

/** Deterministic pseudo-random u32s (xorshift), so inputs differ between elements and tests. */
export function randomU32(count: number, seed: number): Uint32Array {
  let x = seed >>> 0 || 1;
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
