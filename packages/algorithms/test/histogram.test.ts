/**
 * histogram on the adapter against a CPU reference of oneDPL's even bins (the bin computed in
 * f32): f32 samples with NaN, infinities and samples on the edges, u32 and i32 samples, bin
 * counts on both sides of the workgroup-memory limit (2048), empty and single inputs, more
 * samples than one sweep of the grid, and counts replaced or accumulated. The kernels use no
 * group functions, so one lowering covers them.
 */
import { f32, u32, vec2u } from '@syclts/dsl';
import type { Queue } from '@syclts/runtime';
import { describe, expect, test } from 'vitest';
import { type Bins, histogram } from '../src/histogram.ts';
import type { Element } from '../src/operation.ts';
import {
  invalidMessage,
  POISON,
  queueFor,
  randomF32,
  randomU32,
  sharedQueue,
} from './support/queues.ts';

type Scalar = Element['scalar'];
type Samples = Uint32Array | Int32Array | Float32Array;

/**
 * oneDPL's even bins: integers exactly `(x - low) * bins / (high - low)` rounded down, f32
 * `(x - low) * (bins / (high - low))` in f32, truncated.
 */
function reference(
  scalar: Scalar,
  xs: Samples,
  bins: number,
  low: number,
  high: number,
): Uint32Array {
  const counts = new Uint32Array(bins);
  const f32 = scalar === 'f32';
  const [lo, hi] = f32 ? [Math.fround(low), Math.fround(high)] : [low, high];
  const scale = Math.fround(Math.fround(bins) / Math.fround(hi - lo));
  for (const x of xs) {
    if (!(x >= lo && x < hi)) continue;
    const b = f32
      ? Math.trunc(Math.fround(Math.fround(x - lo) * scale))
      : Number((BigInt(x - lo) * BigInt(bins)) / BigInt(hi - lo));
    counts[Math.min(b, bins - 1)]! += 1;
  }
  return counts;
}

/** For integer samples: each bin's first sample and the ones beside it. */
function edges(bins: number, low: number, high: number): number[] {
  const width = BigInt(high - low);
  return Array.from({ length: bins }, (_, b) => {
    const first = low + Number((BigInt(b) * width + BigInt(bins) - 1n) / BigInt(bins));
    return [first - 1, first, first + 1];
  })
    .flat()
    .filter((x) => x >= low && x < high);
}

async function run(
  scalar: Scalar,
  xs: Samples,
  bins: number,
  low: number,
  high: number,
): Promise<void> {
  const queue = await sharedQueue('subgroups');
  const out = queue.buffer(new Uint32Array(bins).fill(POISON));
  await histogram(queue, queue.buffer(xs as Uint32Array, { access: 'read' }), out, {
    low,
    high,
  }).wait();
  const got = await out.read();
  const want = reference(scalar, xs, bins, low, high);
  const first = want.findIndex((w, i) => w !== got[i]);
  expect(first === -1 ? null : `bin [${first}] ${got[first]} vs ${want[first]}`).toBe(null);
}

/** f32 samples over about [-1.5, 1.5), with NaN, infinities and both edges among them. */
function floats(n: number, seed: number, low: number, high: number): Float32Array {
  const xs = randomF32(n, seed).map((x) => x * 1.5);
  const specials = [Number.NaN, Infinity, -Infinity, low, high, Math.fround(high - 1e-6), -0];
  for (let i = 0; i < n; i += 31) xs[i] = specials[(i / 31) % specials.length]!;
  return xs;
}

describe('f32 samples', () => {
  test.each([1, 7, 256, 2048, 2049, 5000])('%i bins, from 0 samples to 100,003', async (bins) => {
    let seed = 0x4157 + bins;
    for (const n of [0, 1, 1000, 100_003]) {
      await run('f32', floats(n, seed++, -1, 1), bins, -1, 1);
    }
  });

  test('edges that f32 rounds, and a range off zero', async () => {
    await run('f32', floats(50_000, 0x4e, 0.1, 0.7), 3, 0.1, 0.7);
    await run('f32', floats(50_000, 0x4f, -1.25, -0.5), 100, -1.25, -0.5);
  });
});

describe('integer samples', () => {
  test('u32, in workgroup memory and not', async () => {
    const xs = randomU32(100_003, 0x4a).map((x) => x % 100_000);
    await run('u32', xs, 100, 1000, 90_000);
    await run('u32', xs, 3000, 0, 100_000);
  });

  test('samples on both sides of each bin edge, over most of the range', async () => {
    await run('u32', Uint32Array.from(edges(1000, 17, 0xfffffff0)), 1000, 17, 0xfffffff0);
    await run('u32', Uint32Array.from(edges(3001, 5, 2 ** 31 + 3)), 3001, 5, 2 ** 31 + 3);
    const low = -0x7ffffff0;
    const high = 0x7fffff00;
    await run('i32', Int32Array.from(edges(777, low, high)), 777, low, high);
  });

  test('i32 with negative edges', async () => {
    const xs = Int32Array.from(randomU32(100_003, 0x4b), (x) => (x % 100_000) - 50_000);
    await run('i32', xs, 77, -30_000, 40_001);
    await run('i32', xs, 4096, -50_000, 50_000);
  });

  test('more samples than one sweep of the grid (512 work-groups of 16 an item)', async () => {
    await run('u32', randomU32(512 * 256 * 16 + 5, 0x4c), 1000, 0, 0xffffffff);
  });
});

describe('the counts are replaced, or accumulated', () => {
  test('twice with accumulate gives the sum; without, the second alone', async () => {
    const queue = await queueFor('subgroups');
    const a = randomF32(5000, 0x4d);
    const b = randomF32(7000, 0x4e);
    const bins = queue.buffer(new Uint32Array(10).fill(POISON));
    const options = { low: -1, high: 1 };
    histogram(queue, queue.buffer(a), bins, options);
    await histogram(queue, queue.buffer(b), bins, { ...options, accumulate: true }).wait();
    const both = reference('f32', a, 10, -1, 1).map(
      (x, i) => x + reference('f32', b, 10, -1, 1)[i]!,
    );
    expect(Array.from(await bins.read())).toEqual(Array.from(both));
    await histogram(queue, queue.buffer(b), bins, options).wait();
    expect(Array.from(await bins.read())).toEqual(Array.from(reference('f32', b, 10, -1, 1)));
  });

  test('an empty input gives zero counts, or with accumulate leaves them', async () => {
    const queue = await queueFor('subgroups');
    const bins = queue.buffer(new Uint32Array(4).fill(POISON));
    await histogram(queue, queue.buffer(new Int32Array(0)), bins, { low: 0, high: 4 }).wait();
    expect(Array.from(await bins.read())).toEqual([0, 0, 0, 0]);
    bins.write(Uint32Array.of(1, 2, 3, 4));
    const options = { low: 0, high: 4, accumulate: true };
    await histogram(queue, queue.buffer(new Int32Array(0)), bins, options).wait();
    expect(Array.from(await bins.read())).toEqual([1, 2, 3, 4]);
  });
});

describe('bad arguments are refused before anything runs', () => {
  const refusal = async (call: (q: Queue) => unknown) => {
    const queue = await sharedQueue('subgroups');
    return invalidMessage(() => call(queue));
  };
  const options = { low: 0, high: 1 };

  test('samples of another type', async () => {
    const message = await refusal((q) =>
      histogram(
        q,
        q.buffer(vec2u, 4) as unknown as Parameters<typeof histogram>[1],
        q.buffer(u32, 4),
        options,
      ),
    );
    expect(message).toBe(
      'histogram: input must hold u32, i32 or f32 elements, got a buffer of vector',
    );
  });

  test('bins of another type', async () => {
    const message = await refusal((q) =>
      histogram(q, q.buffer(u32, 4), q.buffer(f32, 4) as unknown as Bins, options),
    );
    expect(message).toBe('histogram: bins must hold u32 elements, got a buffer of f32');
  });

  test('bins the kernel cannot add to', async () => {
    const message = await refusal((q) =>
      histogram(
        q,
        q.buffer(u32, 4),
        q.buffer(u32, 4, { access: 'write' }) as unknown as Bins,
        options,
      ),
    );
    expect(message).toBe(
      'histogram: bins must be a read_write buffer (counts are added with atomics), got a write buffer',
    );
  });

  test('no bins', async () => {
    const message = await refusal((q) => histogram(q, q.buffer(u32, 4), q.buffer(u32, 0), options));
    expect(message).toBe('histogram: bins holds no elements; it needs at least one bin');
  });

  test('the samples in the bins', async () => {
    const message = await refusal((q) => {
      const b = q.buffer(u32, 4);
      histogram(q, b, b, options);
    });
    expect(message).toBe(
      'histogram: the input and the output are the same memory; pass another buffer for the output',
    );
  });

  test('low not below high', async () => {
    const message = await refusal((q) =>
      histogram(q, q.buffer(f32, 4), q.buffer(u32, 4), { low: 2, high: 1 }),
    );
    expect(message).toBe(
      'histogram: low must be below high, with high - low finite in f32, got low 2 and high 1',
    );
  });

  test('edges the samples cannot hold', async () => {
    const message = await refusal((q) =>
      histogram(q, q.buffer(u32, 4), q.buffer(u32, 4), { low: -1, high: 1 }),
    );
    expect(message).toBe('histogram: low must be an u32 integer, got -1');
  });
});
