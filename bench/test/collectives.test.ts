/**
 * The hand-written collectives the GPU suite times (bench/src/gpu/collectives/) compute what they
 * claim on the adapter at hand (SwiftShader without a GPU): fresh random inputs, sizes that are
 * not powers of two or multiples of the workgroup or tile, outputs poisoned before the kernel
 * writes them, every entry against a CPU reference; both workgroup shapes where the adapter has
 * sub-groups.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomU32 } from '../../test-inputs.ts';
import { copyBandwidth } from '../src/gpu/bandwidth.ts';
import { readBack, type Shape } from '../src/gpu/collectives/common.ts';
import { prepareGroup } from '../src/gpu/collectives/group.ts';
import { prepareReduce } from '../src/gpu/collectives/reduce.ts';
import { prepareScan, scanTile } from '../src/gpu/collectives/scan.ts';
import { prepareSort, SORT_TILE } from '../src/gpu/collectives/sort.ts';
import { type BenchDevice, benchDevice } from '../src/gpu/device.ts';
import { type Timed, timePasses, timeSteady } from '../src/gpu/pass-timing.ts';

let bench: BenchDevice;
let device: GPUDevice;
let shapes: Shape[];
beforeAll(async () => {
  bench = await benchDevice();
  device = bench.device;
  shapes = device.features.has('subgroups' as GPUFeatureName)
    ? ['subgroup', 'workgroup']
    : ['workgroup'];
});
afterAll(() => device?.destroy());

let draws = 0;
const randomKeys = (n: number) => new Uint32Array(randomU32(n, ++draws));
const randomF32 = (n: number) =>
  Float32Array.from(randomU32(n, ++draws), (x) => (x / 2 ** 32) * 2 - 1);

/** Fills a buffer with NaN bits (0xffffffff), so that an entry the kernel misses shows. */
function poison(buffer: GPUBuffer): void {
  device.queue.writeBuffer(buffer, 0, new Uint32Array(buffer.size / 4).fill(0xffffffff));
}

async function run(record: (encoder: GPUCommandEncoder) => void): Promise<void> {
  const encoder = device.createCommandEncoder();
  record(encoder);
  device.queue.submit([encoder.finish()]);
  await device.queue.onSubmittedWorkDone();
}

function sum(values: Float32Array, from = 0, to = values.length): { sum: number; abs: number } {
  let s = 0;
  let abs = 0;
  for (let i = from; i < to; i++) {
    s += values[i]!;
    abs += Math.abs(values[i]!);
  }
  return { sum: s, abs };
}

function exclusiveScan(values: Uint32Array, from = 0, to = values.length): Uint32Array {
  const out = new Uint32Array(to - from);
  let s = 0;
  for (let i = from; i < to; i++) {
    out[i - from] = s;
    s = (s + values[i]!) >>> 0;
  }
  return out;
}

/** Index of the first difference, or -1. */
function firstDifference(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe('reduce (sum of f32)', () => {
  const sizes = [0, 3, 4097, 262_147];
  test.each(['second-pass', 'last-workgroup'] as const)('%s finish', async (finish) => {
    for (const shape of shapes) {
      for (const n of sizes) {
        const values = randomF32(n);
        const r = await prepareReduce(device, n, {
          shape,
          finish,
          groups: n > 100_000 ? 37 : 2048,
        });
        device.queue.writeBuffer(r.input, 0, values);
        for (let repeat = 0; repeat < 2; repeat++) {
          poison(r.output);
          await run((encoder) => r.record(encoder));
          const got = new Float32Array(await readBack(device, r.output, 4))[0]!;
          const ref = sum(values);
          expect(
            Math.abs(got - ref.sum) / Math.max(ref.abs, 1e-30),
            `${shape} n=${n} run ${repeat}: ${got} vs ${ref.sum}`,
          ).toBeLessThan(1e-6);
        }
        r.destroy();
      }
    }
  });
});

describe('exclusive scan (u32, decoupled look-back with fallback)', () => {
  // The default spin (4 reads of a "not ready" predecessor, then the fallback), and the fallback
  // forced: every predecessor's tile reduced by the waiting workgroup, ready or not; tiles of 8192
  // (the default) and of 4096.
  const TILE = scanTile();
  test.each([
    ['spin 4', { spin: 4 }, [5, TILE * 3 + 1, TILE * 17 - 3]],
    ['fallback forced', { forceFallback: true }, [TILE * 9 + 5]],
    ['tiles of 4096', { spin: 4, perItem: 4 }, [scanTile(4) * 3 + 1]],
  ] as const)('%s', async (_, options, sizes) => {
    for (const shape of shapes) {
      for (const n of sizes) {
        const values = randomKeys(n);
        const s = await prepareScan(device, n, { shape, ...options });
        device.queue.writeBuffer(s.input, 0, values);
        for (let repeat = 0; repeat < 2; repeat++) {
          poison(s.output);
          await run((encoder) => s.record(encoder));
          const got = new Uint32Array(await readBack(device, s.output, 4 * n));
          const at = firstDifference(got, exclusiveScan(values));
          expect(at, `${shape} n=${n} run ${repeat}: first difference at ${at}`).toBe(-1);
          if ('forceFallback' in options) {
            // Tile t reduces tiles t-1 ... 0 itself: t(t+1)/2 fallbacks over the run.
            const tiles = Math.ceil(n / scanTile());
            expect(await s.fallbacks()).toBe(((tiles - 1) * tiles) / 2);
          }
        }
        s.destroy();
      }
    }
  });
});

describe('work-group reduce and scan (one group per 256 elements)', () => {
  const sizes = [1, 255, 256, 256 * 37 + 100];
  test('reduce', async () => {
    for (const shape of shapes) {
      for (const n of sizes) {
        const values = randomF32(n);
        const g = await prepareGroup(device, n, 'reduce', shape);
        device.queue.writeBuffer(g.input, 0, values);
        poison(g.output);
        await run((encoder) => g.record(encoder));
        const groups = Math.ceil(n / 256);
        const got = new Float32Array(await readBack(device, g.output, 4 * groups));
        for (let k = 0; k < groups; k++) {
          const ref = sum(values, 256 * k, Math.min(n, 256 * k + 256));
          expect(Math.abs(got[k]! - ref.sum) / ref.abs, `${shape} n=${n} group ${k}`).toBeLessThan(
            1e-6,
          );
        }
        g.destroy();
      }
    }
  });
  test('exclusive scan', async () => {
    for (const shape of shapes) {
      for (const n of sizes) {
        const values = randomKeys(n);
        const g = await prepareGroup(device, n, 'scan', shape);
        device.queue.writeBuffer(g.input, 0, values);
        poison(g.output);
        await run((encoder) => g.record(encoder));
        const got = new Uint32Array(await readBack(device, g.output, 4 * n));
        const ref = new Uint32Array(n);
        for (let k = 0; k < n; k += 256) ref.set(exclusiveScan(values, k, Math.min(n, k + 256)), k);
        const at = firstDifference(got, ref);
        expect(at, `${shape} n=${n}: first difference at ${at}`).toBe(-1);
        g.destroy();
      }
    }
  });
});

describe('radix sort (u32 keys, stable)', () => {
  const sizes = [1, SORT_TILE * 5 + 3, 40_009];
  // Keys alone in every shape (the in-tile splits scan with it); key-value pairs in the first.
  // 40,009 keys: 20 tiles, whose 5,120 digit counts take the scan two tiles.
  test.each([
    ['keys', false],
    ['key-value pairs', true],
  ] as const)('%s', async (_, values) => {
    const cases = values ? shapes.slice(0, 1) : shapes;
    for (const [shape, n] of cases.flatMap((shape) => sizes.map((n) => [shape, n] as const))) {
      // Few distinct high bytes in half of the keys: long runs of equal digits, and equal keys.
      const keys = randomKeys(n).map((k, i) => (i % 2 ? k : k & 0x0f0000ff));
      const s = await prepareSort(device, n, { shape, values });
      for (let repeat = 0; repeat < 2; repeat++) {
        device.queue.writeBuffer(s.keys, 0, keys);
        if (s.values)
          device.queue.writeBuffer(
            s.values,
            0,
            Uint32Array.from(keys, (_, i) => i),
          );
        await run((encoder) => s.record(encoder));
        const order = Array.from(keys, (_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
        const got = new Uint32Array(await readBack(device, s.keys, 4 * n));
        const ref = Uint32Array.from(order, (i) => keys[i]!);
        let at = firstDifference(got, ref);
        expect(at, `${shape} n=${n} run ${repeat}: keys differ at ${at}`).toBe(-1);
        if (s.values) {
          const gotValues = new Uint32Array(await readBack(device, s.values, 4 * n));
          at = firstDifference(gotValues, Uint32Array.from(order));
          expect(at, `${shape} n=${n} run ${repeat}: values differ at ${at}`).toBe(-1);
        }
      }
      s.destroy();
    }
  });
});

test('per-pass timing gives one time per repetition', async () => {
  const g = await prepareGroup(device, 1000, 'scan', shapes[0]!);
  const times = await timePasses(device, (encoder, timed) => g.record(encoder, timed), 3, 1);
  expect(times.us).toHaveLength(3);
  expect(times.best).toBeGreaterThan(0);
  expect(times.median).toBeGreaterThanOrEqual(times.best);
  g.destroy();
});

test('steady timing reports its fastest round, not its first', async () => {
  // For the first 700 ms each run records the kernel 20 times over (a GPU at its idle clock runs
  // it slowly), past the warm-up and into the first rounds; after that, once.
  const g = await prepareGroup(device, 256, 'scan', shapes[0]!);
  let slowUntil = performance.now() + 700;
  const record = (encoder: GPUCommandEncoder, timed: Timed) => {
    if (performance.now() >= slowUntil) return g.record(encoder, timed);
    g.record(encoder, (first) => timed(first, false));
    for (let i = 0; i < 18; i++) g.record(encoder);
    g.record(encoder, (_, last) => timed(false, last));
  };
  const slow = await timePasses(device, record, 3, 1);
  slowUntil = performance.now() + 700;
  const steady = await timeSteady(device, record, 3, 1500);
  expect(steady.us).toHaveLength(3);
  expect(steady.median).toBeLessThan(slow.median / 4);
  g.destroy();
});

test('copy ceiling: timed three ways, read + written bytes', async () => {
  const copy = await copyBandwidth(bench, 1 << 20, 3);
  expect(copy.times.us).toHaveLength(3);
  expect(copy.gbs).toBeCloseTo((2 * copy.bytes) / copy.times.median / 1e3, 6);
  expect(copy.bestGbs).toBeGreaterThanOrEqual(copy.gbs);
  expect(copy.perSubmitGbs).toBeGreaterThan(0);
  expect(copy.onePassGbs).toBeCloseTo((2 * copy.bytes) / copy.onePassUs / 1e3, 6);
});
