/**
 * Span reductions (SYCL's `reduction(span<T, N>, op)`) on the adapter, against a CPU reference on
 * fresh random inputs: a histogram with plus, a maximum per class, an argmin per class through a
 * device function, basic and nd-range kernels, more work-groups than the finishing kernel has
 * items, a single item, empty ranges, the host's values kept or replaced, in both lowerings of the
 * group functions the reductions use.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { errc, ndRange, type Queue } from '../src/index.js';
// What the footer of a module declaring reductions imports.
import '../src/groups.js';
import * as spans from './fixtures/compiled/custom-reductions.sycl.js';
import { compileFixture } from './support/compile.js';
import { caught } from './support/errors.js';
import { freshQueue, groupsQueue, randomU32 } from './support/gpu.js';
import { REDUCTION_CASES, targetFor } from './support/reduction-cases.js';

const F32_MAX = 3.4028234663852886e38;
const U32_MAX = 0xffffffff;

beforeAll(() => {
  compileFixture('custom-reductions', spans);
});

describe.each([true, false])('span reductions (device with sub-groups: %s)', (subgroups) => {
  let q: Queue;
  beforeAll(async () => {
    q = await groupsQueue(subgroups);
    expect(q.device.features.has('subgroups')).toBe(subgroups);
  });

  test.each(REDUCTION_CASES)(
    'bins, peaks and argmins per class: %s',
    async (_what, n, range, keep) => {
      const xs = Float32Array.from(randomU32(Math.max(range, 1), 0x5a1 + n + range), (r) => r % 97);
      const start = {
        bins: Uint32Array.from(randomU32(16, 0x1b + n), (r) => r % 1000),
        peaks: Float32Array.of(3, 50, 200, -1, 96.5),
        firsts: [
          { value: 10, index: 7 },
          { value: -2, index: 0 },
          { value: 100, index: 9 },
        ],
      };
      const bins = q.buffer(start.bins);
      const peaks = q.buffer(start.peaks);
      const firsts = q.buffer(spans.Best, start.firsts);
      const wrap = targetFor(keep);
      await q
        .parallelFor(range, spans.classes, {
          xs: q.buffer(xs),
          n,
          bins: wrap(bins),
          peaks: wrap(peaks),
          firsts: wrap(firsts),
        })
        .wait();
      const count = Array<number>(16).fill(0);
      // maximum's identity for f32 is -Infinity.
      const high = Array<number>(5).fill(Number.NEGATIVE_INFINITY);
      const low = Array.from({ length: 3 }, () => ({ value: F32_MAX, index: U32_MAX }));
      for (let i = 0; i < Math.min(n, range); i++) {
        const x = xs[i]!;
        count[x % 16]!++;
        high[i % 5] = Math.max(high[i % 5]!, x);
        if (x < low[i % 3]!.value) low[i % 3] = { value: x, index: i };
      }
      const better = (a: (typeof low)[0], b: (typeof low)[0]) =>
        b.value < a.value || (b.value === a.value && b.index < a.index) ? b : a;
      expect([...(await bins.read())]).toEqual(
        keep ? count.map((c, k) => c + start.bins[k]!) : count,
      );
      expect([...(await peaks.read())]).toEqual(
        keep ? high.map((h, k) => Math.max(h, start.peaks[k]!)) : high,
      );
      expect(await firsts.read()).toEqual(
        keep ? low.map((l, k) => better(start.firsts[k]!, l)) : low,
      );
    },
  );

  test('an nd-range kernel, launch after launch into the same buffer', async () => {
    const groups = 37;
    const xs = randomU32(32 * groups, 0xb1e);
    const bins = q.buffer(new Uint32Array(8).fill(5));
    const input = q.buffer(xs);
    q.parallelFor(ndRange([32 * groups], [32]), spans.counts, { xs: input, bins });
    await q.parallelFor(ndRange([32 * groups], [32]), spans.counts, { xs: input, bins }).wait();
    const once = Array<number>(8).fill(0);
    for (const x of xs) {
      once[x % 8]!++;
      once[1]! += x % 5;
      once[2]! += 3;
    }
    // Every item of group g adds g to bin 0: 32 * (0 + 1 + ... + 36).
    once[0]! += (32 * groups * (groups - 1)) / 2;
    expect([...(await bins.read())]).toEqual(once.map((c) => 5 + 2 * c));
  });
});

test('a buffer shorter than the span is refused, naming the argument and both lengths', async () => {
  const q = await freshQueue();
  const error = caught(() =>
    q.parallelFor(4, spans.classes, {
      xs: q.buffer(new Float32Array(4)),
      n: 4,
      bins: q.buffer(new Uint32Array(15)),
      peaks: q.buffer(new Float32Array(5)),
      firsts: q.buffer(spans.Best, 3),
    }),
  );
  expect(error.errc).toBe(errc.kernelArgument);
  expect(error.message).toBe(
    "queue.parallelFor: kernel src/custom-reductions.sycl.ts#classes, argument 'bins': the buffer has 15 elements and the span reduction 16: its first 16 receive the results",
  );
});
