/**
 * `atomic(f32)` through the runtime: a device global's initial value, kernels that add and take
 * min/max on it from many items, and host copies in and out give f32 values; a buffer of
 * `atomic(f32)` reads back as a Float32Array.
 */
import { atomic, f32 } from '@syclts/dsl';
import { expect, test } from 'vitest';
import * as fatomic from './fixtures/compiled/fatomic.sycl.js';
import { bins, gather, sum } from './fixtures/compiled/fatomic.sycl.js';
import { compileFixture } from './support/compile.js';
import { freshQueue, randomU32 } from './support/gpu.js';

compileFixture('fatomic', fatomic);

/** Small integers, so that every sum is exact in any order. */
const smallIntegers = (n: number, seed: number) =>
  Float32Array.from(randomU32(n, seed), (x) => (x % 201) - 100);

test('an atomic(f32) device global starts at its initial value and reads back as f32', async () => {
  const q = await freshQueue();
  const one = [Number.NaN];
  await q.copy(sum, one).wait();
  expect(one).toEqual([1.5]);
  const four = new Float32Array(4).fill(Number.NaN);
  await q.copy(bins, four).wait();
  expect([...four]).toEqual([0, 0, 0, 0]);
});

test('many items add into atomic(f32) globals and a buffer; the host copies f32 values in and out', async () => {
  const q = await freshQueue();
  const N = 1024;
  const WORDS = 8;
  const xs = smallIntegers(N, 1);
  // Start the bins from the host: min from +Infinity, max from -Infinity, a sum from -0.5.
  await q.copy([Infinity, -Infinity, -0.5, 7.25], bins).wait();
  const hist = q.buffer(atomic(f32), Float32Array.from(smallIntegers(WORDS, 2)));
  const start = await hist.read();
  await q
    .parallelFor(N, gather, { xs: q.buffer(xs, { access: 'read' }), hist, words: WORDS })
    .wait();

  const total = [Number.NaN];
  await q.copy(sum, total).wait();
  expect(total).toEqual([xs.reduce((s, x) => s + x, 1.5)]);

  const got = new Float32Array(4).fill(Number.NaN);
  await q.copy(bins, got).wait();
  expect([...got]).toEqual([
    Math.min(...xs),
    Math.max(...xs),
    xs.reduce((s, x) => s + x, -0.5),
    7.25,
  ]);

  // The bytes are the f32s' bits (atomic<u32> on the device holds them).
  const bytes = new Uint8Array(16);
  await q.memcpy(bytes, bins).wait();
  expect([...new Float32Array(bytes.buffer)]).toEqual([...got]);

  const after = await hist.read();
  expect(after).toBeInstanceOf(Float32Array);
  expect([...after]).toEqual(
    [...start].map((s, w) =>
      xs.filter((_, i) => Math.floor(i / 32) % WORDS === w).reduce((a, x) => a + x, s),
    ),
  );
});
