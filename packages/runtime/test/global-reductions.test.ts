/**
 * Reductions into device globals (a reduction's target may be a global, as a buffer): on the
 * adapter, against a CPU reference on fresh random inputs, the global's value combined in or
 * replaced (`initializeToIdentity`), a span reduction into an array global, what a later kernel
 * and the host read, and the globals that cannot take a result refused.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { errc, type Queue } from '../src/index.js';
// What the footer of a module declaring reductions imports.
import '../src/groups.js';
import * as g from './fixtures/compiled/global-reductions.sycl.js';
import { compileFixture } from './support/compile.js';
import { caught } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

beforeAll(() => {
  compileFixture('global-reductions', g);
});

/** Values in [0, 64) with a quarter of a unit's fraction: f32 sums of them are exact. */
function values(n: number, seed: number): Float32Array {
  return Float32Array.from(randomU32(n, seed), (r) => (r % 256) / 4);
}

async function read<T>(q: Queue, global: Parameters<Queue['copy']>[0], length: number) {
  const out = new Array<T>(length);
  await q.copy(global as never, out as never).wait();
  return out;
}

describe.each([1, 777, 5000])('over %i values', (n) => {
  let q: Queue;
  beforeAll(async () => {
    q = await freshQueue();
  });

  test.each([false, true])(
    'the sum, the maximum and the histogram into globals (initializeToIdentity: %s)',
    async (replace) => {
      const xs = values(n, 0x61 + n + Number(replace));
      const start = { total: 12.25, peak: 1000, bins: Array.from(randomU32(10, n), (r) => r % 50) };
      q.copy([start.total], g.total);
      q.copy([start.peak], g.peak);
      q.copy(start.bins, g.bins);
      const target = <G>(deviceGlobal: G) =>
        replace ? { deviceGlobal, initializeToIdentity: true } : deviceGlobal;
      await q
        .parallelFor(n, g.summarize, {
          xs: q.buffer(xs, { access: 'read' }),
          sum: target(g.total),
          high: target(g.peak),
          hist: target(g.bins),
        })
        .wait();
      let sum = 0;
      let high = Number.NEGATIVE_INFINITY;
      const hist = Array<number>(8).fill(0);
      for (const x of xs) {
        sum += x;
        high = Math.max(high, x);
        hist[Math.trunc(x) % 8]!++;
      }
      const want = {
        total: replace ? sum : start.total + sum,
        peak: replace ? high : Math.max(start.peak, high),
        bins: [...hist.map((c, k) => (replace ? c : c + start.bins[k]!)), ...start.bins.slice(8)],
      };
      expect(await read<number>(q, g.total, 1)).toEqual([want.total]);
      expect(await read<number>(q, g.peak, 1)).toEqual([want.peak]);
      expect(await read<number>(q, g.bins, 10)).toEqual(want.bins);
      // A kernel after it reads what the reduction wrote.
      const out = q.buffer(new Float32Array(2).fill(Number.NaN));
      const counts = q.buffer(new Uint32Array(10).fill(POISON));
      await q.parallelFor(10, g.observe, { out, counts }).wait();
      expect([...(await out.read())]).toEqual([want.total, want.peak]);
      expect([...(await counts.read())]).toEqual(want.bins);
    },
  );
});

describe('globals that cannot take the result are refused, naming the argument', () => {
  const refusal = async (args: Record<string, unknown>) => {
    const q = await freshQueue();
    const xs = q.buffer(new Float32Array(4));
    const error = caught(() =>
      q.parallelFor(4, g.summarize, {
        xs,
        sum: g.total,
        high: g.peak,
        hist: g.bins,
        ...args,
      } as never),
    );
    expect(error.errc).toBe(errc.kernelArgument);
    return error.message;
  };

  test('a global of another type', async () => {
    expect(await refusal({ sum: g.count })).toBe(
      "queue.parallelFor: kernel src/global-reductions.sycl.ts#summarize, argument 'sum': device global src/global-reductions.sycl.ts#count holds u32; the reduction writes f32",
    );
  });

  test('a wrapper with both a buffer and a global, or a buffer given as the global', async () => {
    const q = await freshQueue();
    expect(
      await refusal({ sum: { buffer: q.buffer(new Float32Array(1)), deviceGlobal: g.total } }),
    ).toBe(
      "queue.parallelFor: kernel src/global-reductions.sycl.ts#summarize, argument 'sum': give `buffer` or `deviceGlobal`, not both",
    );
    expect(await refusal({ sum: { deviceGlobal: q.buffer(new Float32Array(1)) } })).toMatch(
      /argument 'sum': deviceGlobal must be a device global, got /,
    );
  });

  test('an array global shorter than the span', async () => {
    expect(await refusal({ hist: { deviceGlobal: g.narrow, initializeToIdentity: true } })).toBe(
      "queue.parallelFor: kernel src/global-reductions.sycl.ts#summarize, argument 'hist': device global src/global-reductions.sycl.ts#narrow holds array<u32, 4>; the reduction writes an array of at least 8 u32",
    );
  });
});
