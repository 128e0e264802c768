/**
 * Reductions whose combiner is a device function (SYCL's `reduction(buffer, identity, combiner)`)
 * on the adapter, against a CPU reference on fresh random inputs: an argmin over a struct with
 * ties, a non-commutative product (2 x 2 matrices modulo 2^32) that must come out in the items'
 * order, basic and nd-range kernels (the work-group's size a specialization constant), more
 * work-groups than the finishing kernel has items, a single item, empty ranges, the host's value
 * kept (combined on the left) or replaced, and a function object given its identity.
 */
import { vec4u } from '@syclts/dsl';
import { beforeAll, describe, expect, test } from 'vitest';
import { ndRange, type Queue } from '../src/index.js';
// What the footer of a module declaring reductions imports.
import '../src/groups.js';
import * as combiners from './fixtures/compiled/custom-reductions.sycl.js';
import { compileFixture } from './support/compile.js';
import { freshQueue, groupsQueue, randomU32 } from './support/gpu.js';
import { REDUCTION_CASES, targetFor } from './support/reduction-cases.js';

const U32_MAX = 0xffffffff;

beforeAll(() => {
  compileFixture('custom-reductions', combiners);
});

type Matrix = [number, number, number, number];

/** Row-major 2 x 2 product modulo 2^32, as `times` computes it. */
function times(a: Matrix, b: Matrix): Matrix {
  const mul = (x: number, y: number) => Math.imul(x, y) >>> 0;
  return [
    (mul(a[0], b[0]) + mul(a[1], b[2])) >>> 0,
    (mul(a[0], b[1]) + mul(a[1], b[3])) >>> 0,
    (mul(a[2], b[0]) + mul(a[3], b[2])) >>> 0,
    (mul(a[2], b[1]) + mul(a[3], b[3])) >>> 0,
  ];
}

/**
 * Random matrices of odd determinant (odd diagonal, even elsewhere), so that their product modulo
 * 2^32 stays invertible: products of any random matrices soon become zero.
 */
function randomMatrices(count: number, seed: number): Matrix[] {
  const w = randomU32(4 * Math.max(count, 1), seed);
  return Array.from(
    { length: count },
    (_, i) =>
      [
        (w[4 * i]! | 1) >>> 0,
        (w[4 * i + 1]! & ~1) >>> 0,
        (w[4 * i + 2]! & ~1) >>> 0,
        (w[4 * i + 3]! | 1) >>> 0,
      ] as Matrix,
  );
}

const IDENTITY: Matrix = [1, 0, 0, 1];

describe.each([true, false])('combiners (device with sub-groups: %s)', (subgroups) => {
  let q: Queue;
  beforeAll(async () => {
    q = await groupsQueue(subgroups);
    expect(q.device.features.has('subgroups')).toBe(subgroups);
  });

  test.each(REDUCTION_CASES)(
    'argmin over a struct, ties to the lower index: %s',
    async (_what, n, range, keep) => {
      // Few distinct values, so that the smallest one occurs many times.
      const xs = Float32Array.from(
        randomU32(Math.max(range, 1), 0xa11 + n + range),
        (r) => (r % 41) - 20.5,
      );
      const start = { value: -7.5, index: 3 };
      const best = q.buffer(combiners.Best, [start]);
      const peak = q.buffer(Float32Array.of(12.25));
      const wrap = targetFor(keep);
      await q
        .parallelFor(range, combiners.argmin, {
          xs: q.buffer(xs),
          n,
          best: wrap(best),
          peak: wrap(peak),
        })
        .wait();
      // The identities: an empty range leaves them.
      let want = { value: Number.POSITIVE_INFINITY, index: U32_MAX };
      let high = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < Math.min(n, range); i++) {
        if (xs[i]! < want.value) want = { value: xs[i]!, index: i };
        high = Math.max(high, xs[i]!);
      }
      // The host's value is combined on the left: it wins ties of value by the lower index.
      const first =
        start.value < want.value || (start.value === want.value && start.index <= want.index);
      if (keep && first) want = start;
      expect((await best.read())[0]).toEqual(want);
      expect((await peak.read())[0]).toBe(keep ? Math.max(high, 12.25) : high);
    },
  );

  test.each([
    ['19,217 items (301 work-groups)', 64 * 300 + 17, true],
    ['1,000 items, the host value replaced', 1000, false],
    ['one item', 1, true],
    ['no items: the identity', 0, false],
  ] as const)(
    'a product that does not commute comes out in the order of the items: %s',
    async (_what, range, keep) => {
      const ms = randomMatrices(range, 0xc4a1 + range);
      const [prior] = randomMatrices(1, 0x9e1 + range) as [Matrix];
      const product = q.buffer(vec4u, [prior]);
      await q
        .parallelFor(range, combiners.chain, {
          ms: q.buffer(vec4u, ms),
          product: keep ? product : { buffer: product, initializeToIdentity: true },
        })
        .wait();
      const ordered = ms.reduce(times, IDENTITY);
      expect((await product.read())[0]).toEqual(keep ? times(prior, ordered) : ordered);
    },
  );

  test.each([
    [32, 32 * 77],
    [128, 128 * 5],
    [48, 48 * 9],
    [1, 300],
  ] as const)(
    'an nd-range whose work-group of %i items is a specialization constant',
    async (items, range) => {
      const ms = randomMatrices(range, 0x51d + items);
      const product = q.buffer(vec4u, [IDENTITY]);
      await q
        .submit((cgh) => {
          cgh.setSpecializationConstant(combiners.items, items);
          cgh.parallelFor(ndRange([range], [items]), combiners.chainNd, {
            ms: q.buffer(vec4u, ms),
            product,
          });
        })
        .wait();
      expect((await product.read())[0]).toEqual(ms.reduce(times, IDENTITY));
    },
  );

  test.each(['native', 'emulated'] as const)(
    'three combiners in one kernel, one reading a specialization constant (%s)',
    async (mode) => {
      const range = 64 * 40 + 9;
      const ms = randomMatrices(range, 0x3c + range);
      const queue = await freshQueue({ specConstants: mode });
      const count = queue.buffer(Uint32Array.of(0xdeadbeef));
      const product = queue.buffer(vec4u, [[0xdeadbeef, 0, 0, 0]]);
      const best = queue.buffer(combiners.Best, [{ value: -1, index: 0 }]);
      const fresh = <B>(buffer: B) => ({ buffer, initializeToIdentity: true });
      await queue
        .submit((cgh) => {
          cgh.setSpecializationConstant(combiners.modulus, 7);
          cgh.parallelFor(range, combiners.twoCombiners, {
            ms: queue.buffer(vec4u, ms),
            count: fresh(count),
            product: fresh(product),
            best: fresh(best),
          });
        })
        .wait();
      // Each work-group's count and the finisher's fold are both modulo 7.
      expect((await count.read())[0]).toBe(range % 7);
      expect((await product.read())[0]).toEqual(ms.reduce(times, IDENTITY));
      let want = { value: Number.POSITIVE_INFINITY, index: 0 };
      for (const [i, m] of ms.entries()) {
        if (m[0] % 1000 < want.value) want = { value: m[0] % 1000, index: i };
      }
      expect((await best.read())[0]).toEqual(want);
    },
  );
});
