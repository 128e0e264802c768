/**
 * Queues for the package's tests, on the test adapter: one with WGSL's sub-groups (what
 * `Queue.create` asks for) and one on a device created without them, where group functions run
 * in workgroup memory; each on a device of its own, released when the test file is done.
 */
import { errc, Queue, type QueueOptions, requestAdapter, SyclError } from '@syclts/runtime';
import { afterAll, expect } from 'vitest';
import type { Element } from '../../src/operation.ts';
import '../support/program.ts';

import { randomU32 } from '../../../../test-inputs.ts';

export { randomU32 };

/** Written to outputs before a kernel runs, so that a result it never wrote shows. */
export const POISON = 0xdeadbeef;

const devices = new Set<GPUDevice>();

afterAll(() => {
  for (const device of devices) device.destroy();
  devices.clear();
});

export type Lowering = 'subgroups' | 'workgroup';

export async function queueFor(lowering: Lowering, options: QueueOptions = {}): Promise<Queue> {
  if (lowering === 'subgroups') {
    const queue = await Queue.create(options);
    devices.add(queue.device);
    return queue;
  }
  const { adapter } = await requestAdapter();
  const device = await adapter.requestDevice();
  devices.add(device);
  return Queue.create({ ...options, device });
}

const shared = new Map<string, Promise<Queue>>();

/** One queue per lowering and path of the specialization constants, for a file's many runs. */
export function sharedQueue(lowering: Lowering, emulated = false): Promise<Queue> {
  const key = `${lowering} ${emulated}`;
  let queue = shared.get(key);
  if (!queue) {
    queue = queueFor(lowering, emulated ? { specConstants: 'emulated' } : {});
    shared.set(key, queue);
  }
  return queue;
}

/** `words` seen as elements of `scalar` (the same memory). */
export function viewAs(
  scalar: Element['scalar'],
  words: Uint32Array,
): Uint32Array | Int32Array | Float32Array {
  if (scalar === 'u32') return words;
  return scalar === 'i32' ? new Int32Array(words.buffer) : new Float32Array(words.buffer);
}

/** Random f32 values in [-1, 1), as a Float32Array. */
export function randomF32(count: number, seed: number): Float32Array {
  return Float32Array.from(randomU32(count, seed), (x) => x / 2 ** 31 - 1);
}

/** The message of the `errc.invalid` SyclError `call` throws at once (the test fails otherwise). */
export function invalidMessage(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(SyclError);
    expect((error as SyclError).errc).toBe(errc.invalid);
    return (error as SyclError).message;
  }
  throw new Error('expected a SyclError');
}
