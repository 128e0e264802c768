/**
 * Reduction variables (SYCL 2020 4.9.2) on the adapter: fresh random inputs against a CPU
 * reference, several reductions in one kernel, basic and nd-range kernels, ranges that are not
 * multiples of the work-group, a single item, an empty range, items that combine nothing or
 * return early, the host's value kept or replaced (`initializeToIdentity`), in both lowerings of
 * the group functions the reductions use.
 */
import {
  accessor,
  bitOr,
  f32,
  i32,
  kernel,
  maximum,
  minimum,
  multiplies,
  plus,
  reduction,
  u32,
  vec2i,
} from '@syclts/dsl';
import { beforeAll, describe, expect, test } from 'vitest';
import { errc, ndRange, type Queue } from '../src/index.js';
// What the footer of a module declaring reductions imports.
import '../src/groups.js';
import { compileSources } from './support/compile.js';
import { caught } from './support/errors.js';
import { freshQueue, groupsQueue, randomU32 } from './support/gpu.js';
import { targetFor } from './support/reduction-cases.js';

const source = [
  "import { accessor, bitOr, f32, i32, kernel, maximum, minimum, multiplies, plus, reduction, u32, vec2i } from '@syclts/dsl';",
  // Several reductions, an early return, items that combine more than once or not at all.
  "export const stats = kernel({ range: 1, args: { xs: accessor(i32, 'read'), n: u32, sum: reduction(i32, plus), peak: reduction(i32, maximum), low: reduction(f32, minimum), bits: reduction(u32, bitOr), pair: reduction(vec2i, plus) } }, (item, _kh, { xs, n, sum, peak, low, bits, pair }) => {",
  '  const i = item.getId(0);',
  '  if (i >= n) { return; }',
  '  const x = xs[i]!;',
  '  sum.combine(x);',
  '  if (x % 3 == 0) { sum.combine(1); }',
  '  for (let j = u32(0); j < 4; j++) { if (j == 2 && x < 0) { return; } peak.combine(x + i32(j)); }',
  '  low.combine(f32(x) * 0.5);',
  '  bits.combine(u32(1) << (u32(x) & 31));',
  '  pair.combine(vec2i(x & 7, 1));',
  '});',
  // An nd-range kernel over 2 dimensions, a product of small integers.
  "export const product = kernel({ ndRange: 2, workgroupSize: [4, 8], args: { xs: accessor(f32, 'read'), prod: reduction(f32, multiplies) } }, (item, _kh, { xs, prod }) => {",
  '  prod.combine(xs[item.getGlobalLinearId()]!);',
  '});',
].join('\n');

const stats = kernel(
  {
    range: 1,
    args: {
      xs: accessor(i32, 'read'),
      n: u32,
      sum: reduction(i32, plus),
      peak: reduction(i32, maximum),
      low: reduction(f32, minimum),
      bits: reduction(u32, bitOr),
      pair: reduction(vec2i, plus),
    },
  },
  () => {},
);
const product = kernel(
  {
    ndRange: 2,
    workgroupSize: [4, 8],
    args: { xs: accessor(f32, 'read'), prod: reduction(f32, multiplies) },
  },
  () => {},
);

beforeAll(() => {
  compileSources([{ module: 'src/reduce.sycl.ts', source, exports: { stats, product } }]);
});

/** What `stats` gives over xs[0..n), the items past n doing nothing. */
function expectedStats(xs: Int32Array, n: number) {
  let sum = 0;
  let peak = -(2 ** 31);
  let low = Infinity;
  let bits = 0;
  const pair = [0, 0];
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    sum = (sum + x + (x % 3 === 0 ? 1 : 0)) | 0;
    for (let j = 0; j < 4; j++) {
      if (j === 2 && x < 0) break;
      peak = Math.max(peak, x + j);
    }
    if (x < 0) continue;
    low = Math.min(low, Math.fround(x * 0.5));
    bits = (bits | (1 << (x & 31))) >>> 0;
    pair[0] = (pair[0]! + (x & 7)) | 0;
    pair[1] = pair[1]! + 1;
  }
  return { sum, peak, low, bits, pair };
}

async function runStats(q: Queue, n: number, range: number, keep: boolean) {
  const xs = Int32Array.from(randomU32(Math.max(range, 1), 0x7e1 + n), (r) => (r % 2001) - 1000);
  const start = {
    sum: Int32Array.of(randomU32(1, n)[0]! % 1000),
    peak: Int32Array.of(-5000),
    low: Float32Array.of(7.25),
    bits: Uint32Array.of(1 << 30),
    pair: Int32Array.of(3, 4),
  };
  const buffers = {
    sum: q.buffer(start.sum),
    peak: q.buffer(start.peak),
    low: q.buffer(start.low),
    bits: q.buffer(start.bits),
    pair: q.buffer(vec2i, [[3, 4]]),
  };
  const wrap = targetFor(keep);
  await q
    .parallelFor(range, stats, {
      xs: q.buffer(xs),
      n,
      sum: wrap(buffers.sum),
      peak: wrap(buffers.peak),
      low: wrap(buffers.low),
      bits: wrap(buffers.bits),
      pair: wrap(buffers.pair),
    })
    .wait();
  const want = expectedStats(xs, Math.min(n, range));
  const got = {
    sum: (await buffers.sum.read())[0],
    peak: (await buffers.peak.read())[0],
    low: (await buffers.low.read())[0],
    bits: (await buffers.bits.read())[0],
    pair: (await buffers.pair.read())[0],
  };
  expect(got).toEqual(
    keep
      ? {
          sum: (want.sum + start.sum[0]!) | 0,
          peak: Math.max(want.peak, -5000),
          low: Math.min(want.low, 7.25),
          bits: (want.bits | (1 << 30)) >>> 0,
          pair: [want.pair[0]! + 3, want.pair[1]! + 4],
        }
      : want,
  );
}

describe.each([true, false])('reductions (device with sub-groups: %s)', (subgroups) => {
  // One queue for the cases: its pipelines are made once. Without sub-groups: a device of the
  // caller's created without the feature, where group functions run in workgroup memory.
  let q: Queue;
  beforeAll(async () => {
    q = await groupsQueue(subgroups);
    expect(q.device.features.has('subgroups')).toBe(subgroups);
  });

  test.each([
    ['a range that is no multiple of the work-group', 1000, 1000, true],
    ['items past n that combine nothing', 700, 1000, true],
    ['the host values replaced', 777, 777, false],
    ['a single item', 1, 1, true],
    ['an empty range: the identity', 5, 0, false],
    ['an empty range: the host values kept', 5, 0, true],
  ] as const)('%s', async (_what, n, range, keep) => {
    await runStats(q, n, range, keep);
  });

  test('an nd-range kernel; launch after launch into the same buffer', async () => {
    const rows = 12;
    const cols = 40;
    const xs = Float32Array.from(
      randomU32(rows * cols, 0x7e9),
      (r) => (r & 1 ? 2 : 0.5) * (r & 2 ? -1 : 1),
    );
    const prod = q.buffer(Float32Array.of(3));
    const input = q.buffer(xs);
    q.parallelFor(ndRange([rows, cols], [4, 8]), product, { xs: input, prod });
    await q.parallelFor(ndRange([rows, cols], [4, 8]), product, { xs: input, prod }).wait();
    const once = xs.reduce((a, b) => a * b, 1);
    expect((await prod.read())[0]).toBe(3 * once * once);
  });
});

test('a reduction argument that is not a read_write buffer of its type is refused', async () => {
  const q = await freshQueue();
  const base = { xs: q.buffer(new Int32Array(4)), n: 4, peak: q.buffer(Int32Array.of(0)) };
  const rest = {
    low: q.buffer(Float32Array.of(0)),
    bits: q.buffer(Uint32Array.of(0)),
    pair: q.buffer(vec2i, 1),
  };
  const wrongType = caught(() =>
    q.parallelFor(4, stats, { ...base, ...rest, sum: q.buffer(Float32Array.of(0)) } as never),
  );
  expect(wrongType.errc).toBe(errc.kernelArgument);
  expect(wrongType.message).toMatch(
    /^queue\.parallelFor: kernel src\/reduce\.sycl\.ts#stats, argument 'sum': the accessor's elements are i32, the buffer's f32$/,
  );
  const empty = caught(() => q.parallelFor(4, stats, { ...base, ...rest, sum: q.buffer(i32, 0) }));
  expect(empty.message).toMatch(/argument 'sum': the reduction's buffer is empty/);
  const flag = caught(() =>
    q.parallelFor(4, stats, {
      ...base,
      ...rest,
      sum: { buffer: q.buffer(i32, 1), initializeToIdentity: 'yes' as unknown as boolean },
    }),
  );
  expect(flag.message).toMatch(
    /argument 'sum': initializeToIdentity must be true or false, got "yes"$/,
  );
});
