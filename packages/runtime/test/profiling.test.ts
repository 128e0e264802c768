/**
 * Profiling (`Queue.create({ enableProfiling })`, `getProfilingInfo(event)`) on the
 * adapter: every command's submit, start and end times, each launch timed on its own (launches
 * issued together too), a reduction timed from its kernel to its finisher, commands submitted on
 * their own, and the refusals. On SwiftShader the device's timestamps are the host's clock, so
 * durations are real time: compared as the minimum of several runs, against 100 times the work
 * (more work on a GPU, until the long kernel takes a millisecond).
 */
import { accessor, kernel, plus, reduction, u32 } from '@syclts/dsl';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  errc,
  type ProfilingInfo,
  Queue,
  type QueueOptions,
  requestAdapter,
} from '../src/index.js';
import '../src/groups.js';
import { enableProfiling, getProfilingInfo } from '../src/profiling.js';
import { total } from './fixtures/globals.js';
import { broken } from './fixtures/grid.js';
import { compileSources } from './support/compile.js';
import { rejected } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

const source = [
  "import { accessor, kernel, plus, reduction, u32 } from '@syclts/dsl';",
  "export const spin = kernel({ range: 1, args: { out: accessor(u32, 'write'), seed: u32, rounds: u32 } }, (item, _kh, { out, seed, rounds }) => {",
  '  const i = item.getId(0);',
  '  let x = i ^ seed;',
  '  for (let r = u32(0); r < rounds; r++) { x = x * 1664525 + 1013904223; }',
  '  out[i] = x;',
  '});',
  'export const spinSum = kernel({ range: 1, args: { seed: u32, rounds: u32, sum: reduction(u32, plus) } }, (item, _kh, { seed, rounds, sum }) => {',
  '  let x = item.getId(0) ^ seed;',
  '  for (let r = u32(0); r < rounds; r++) { x = x * 1664525 + 1013904223; }',
  '  sum.combine(x);',
  '});',
].join('\n');

const spin = kernel(
  { range: 1, args: { out: accessor(u32, 'write'), seed: u32, rounds: u32 } },
  () => {},
);
const spinSum = kernel(
  { range: 1, args: { seed: u32, rounds: u32, sum: reduction(u32, plus) } },
  () => {},
);

beforeAll(() => {
  compileSources([{ module: 'src/spin.sycl.ts', source, exports: { spin, spinSum } }]);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Items per launch; the short kernel's rounds, for tests that do not compare durations. */
const N = 2048;
const SHORT = 20;
/** Item-rounds the host computes to check a launch's output (beyond it, a sample of items). */
const CHECKED_ROUNDS = 1 << 23;

/** What `spin` writes at item `i`. */
function spun(i: number, seed: number, rounds: number): number {
  let x = (i ^ seed) >>> 0;
  for (let r = 0; r < rounds; r++) x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
  return x;
}

function spunAll(seed: number, rounds: number): number[] {
  return Array.from({ length: N }, (_, i) => spun(i, seed, rounds));
}

/** Checks what `spin` wrote: every item, or 64 of them when that is too much work for the host. */
function expectSpun(out: Uint32Array, seed: number, rounds: number): void {
  if (N * rounds <= CHECKED_ROUNDS) {
    expect(Array.from(out)).toEqual(spunAll(seed, rounds));
    return;
  }
  const items = Array.from({ length: 64 }, (_, k) => Math.floor((k * (N - 1)) / 63));
  expect(items.map((i) => out[i])).toEqual(items.map((i) => spun(i, seed, rounds)));
}

function expectOrdered(info: ProfilingInfo): void {
  expect(typeof info.commandStart).toBe('bigint');
  expect(info.commandSubmit).toBeLessThanOrEqual(info.commandStart);
  expect(info.commandStart).toBeLessThanOrEqual(info.commandEnd);
}

const duration = (info: ProfilingInfo) => info.commandEnd - info.commandStart;
const least = (values: bigint[]) => values.reduce((a, b) => (a < b ? a : b));

/**
 * The long kernel's rounds: 2,000 (tens of milliseconds on SwiftShader), or 8 times more until a
 * launch takes a millisecond on a GPU, where the short kernel's hundredth of it would otherwise be
 * all overhead. Compiles the pipeline too.
 */
async function longRounds(q: Queue): Promise<number> {
  const out = q.buffer(u32, N);
  let rounds = 2000;
  while (rounds < 1 << 24) {
    const info = await getProfilingInfo(q.parallelFor(N, spin, { out, seed: 0, rounds }));
    if (duration(info) >= 1_000_000n) break;
    rounds *= 8;
  }
  return rounds;
}

describe('on a profiling queue', () => {
  test('each launch is timed on its own, launches issued together too: 100 times the work takes longer', async () => {
    const q = await freshQueue({ enableProfiling });
    const seeds = randomU32(12, 0x9f01);
    const long = await longRounds(q);
    const rounds = (i: number) => (i % 3 === 1 ? long : long / 100);
    const outs = Array.from(seeds, () => q.buffer(new Uint32Array(N).fill(POISON)));
    // short, long, short, short, long, ...: issued in one task, without waiting.
    const events = Array.from(seeds, (seed, i) =>
      q.parallelFor(N, spin, { out: outs[i]!, seed, rounds: rounds(i) }),
    );
    await q.wait();
    const infos = await Promise.all(events.map((event) => getProfilingInfo(event)));
    for (const [i, seed] of seeds.entries()) {
      expectSpun(await outs[i]!.read(), seed, rounds(i));
      expectOrdered(infos[i]!);
    }
    const shortest = (r: number) => least(infos.filter((_, i) => rounds(i) === r).map(duration));
    // The least of each: a stall of the host (SwiftShader runs there) lengthens a run, never shortens it.
    expect(shortest(long)).toBeGreaterThan(4n * shortest(long / 100));
  });

  test('timestamps are not rounded to 65,536 ns in Node (Dawn asked for exact ones)', async () => {
    const q = await freshQueue({ enableProfiling });
    const seed = randomU32(1, 0x9f02)[0]!;
    const events = Array.from({ length: 8 }, () =>
      q.parallelFor(N, spin, { out: q.buffer(u32, N), seed, rounds: SHORT }),
    );
    const infos = await Promise.all(events.map((event) => getProfilingInfo(event)));
    const stamps = infos.flatMap((info) => [info.commandStart, info.commandEnd]);
    expect(stamps.some((stamp) => stamp % 65_536n !== 0n)).toBe(true);
  });

  test("a reduction runs from its kernel's start to its finisher's end", async () => {
    const q = await freshQueue({ enableProfiling });
    const [seed] = randomU32(1, 0x9f03);
    const sum = q.buffer(new Uint32Array([POISON]));
    const time = async (rounds: number) => {
      const event = q.parallelFor(N, spinSum, {
        seed: seed!,
        rounds,
        sum: { buffer: sum, initializeToIdentity: true },
      });
      const info = await getProfilingInfo(event);
      expectOrdered(info);
      const [reduced] = await sum.read();
      if (N * rounds <= CHECKED_ROUNDS) {
        expect(reduced).toBe(spunAll(seed!, rounds).reduce((a, b) => (a + b) >>> 0, 0));
      }
      return duration(info);
    };
    const long = await longRounds(q);
    await time(1);
    const short = least([await time(long / 100), await time(long / 100), await time(long / 100)]);
    // Were it the finisher's alone, both would take the same time.
    expect(least([await time(long), await time(long)])).toBeGreaterThan(4n * short);
  });

  test('commands submitted on their own are timed too: writes, copies, empty command groups', async () => {
    const q = await freshQueue({ enableProfiling });
    const data = randomU32(4096, 0x9f04);
    const buffer = q.buffer(new Uint32Array(data.length).fill(POISON));
    const write = buffer.write(data);
    const empty = q.submit(() => {});
    const values = Array.from(data.subarray(0, 8));
    const copyIn = q.copy(values, total);
    const back = new Array<number>(8).fill(POISON);
    const copyOut = q.copy(total, back);
    for (const event of [write, empty, copyIn, copyOut]) {
      expectOrdered(await getProfilingInfo(event));
    }
    expect(Array.from(await buffer.read())).toEqual(Array.from(data));
    expect(back).toEqual(values);
  });

  test("a failed command's getProfilingInfo rejects with its error", async () => {
    const q = await freshQueue({ enableProfiling });
    const event = q.parallelFor(4, broken, { out: q.buffer(u32, 4) });
    const error = await rejected(() => getProfilingInfo(event));
    expect(error.errc).toBe(errc.build);
    expect(error.message).toContain('src/broken.sycl.ts#broken');
  });
});

describe('without profiling', () => {
  test('getProfilingInfo is errc.invalid, and the queue makes no query set and no pass of its own per launch', async () => {
    const createQuerySet = vi.fn();
    const q = await freshQueue();
    const device = q.device;
    device.createQuerySet = createQuerySet;
    const begin = vi.spyOn(GPUCommandEncoder.prototype, 'beginComputePass');
    const seed = randomU32(1, 0x9f05)[0]!;
    const out = q.buffer(new Uint32Array(N).fill(POISON));
    await q.parallelFor(N, spin, { out, seed, rounds: 1 }).wait();
    const batches = q.stats.batches;
    const passes = begin.mock.calls.length;
    const events = Array.from({ length: 10 }, () =>
      q.parallelFor(N, spin, { out, seed, rounds: SHORT }),
    );
    await q.wait();
    expect(q.stats.batches - batches).toBe(1);
    // One pass per submission (the next one's is opened ahead), none per launch.
    expect(begin.mock.calls.length - passes).toBeLessThanOrEqual(1);
    expect(createQuerySet).not.toHaveBeenCalled();
    expect(Array.from(await out.read())).toEqual(spunAll(seed, SHORT));
    const error = await rejected(() => getProfilingInfo(events[0]!));
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toBe(
      'getProfilingInfo: the queue of src/spin.sycl.ts#spin was created without enableProfiling',
    );
  });
});

describe('refusals', () => {
  test("a caller's device created without timestamp-query is errc.feature_not_supported", async () => {
    const { adapter } = await requestAdapter();
    const device = await adapter.requestDevice();
    try {
      const error = await rejected(() => Queue.create({ device, enableProfiling }));
      expect(error.errc).toBe(errc.featureNotSupported);
      const { vendor, architecture, description } = device.adapterInfo;
      const named = [vendor, architecture, description].filter(Boolean).join(' ');
      expect(error.message).toBe(
        `Queue.create: enableProfiling needs WebGPU's 'timestamp-query' feature, which the GPUDevice passed (${named}) was created without: list it in its requiredFeatures`,
      );
    } finally {
      device.destroy();
    }
  });

  test('an adapter without timestamp-query is errc.feature_not_supported, naming the adapter', async () => {
    await requestAdapter();
    // Dawn's adapters, as the runtime gets them, with every feature but timestamp-query.
    const original = GPU.prototype.requestAdapter;
    vi.spyOn(GPU.prototype, 'requestAdapter').mockImplementation(async function (
      this: GPU,
      options?: GPURequestAdapterOptions,
    ) {
      const adapter = await original.call(this, options);
      if (adapter) {
        const features = new Set([...adapter.features].filter((f) => f !== 'timestamp-query'));
        Object.assign(adapter, { features });
      }
      return adapter;
    });
    const error = await rejected(() => Queue.create({ enableProfiling }));
    expect(error.errc).toBe(errc.featureNotSupported);
    expect(error.message).toMatch(
      /^Queue\.create: enableProfiling needs WebGPU's 'timestamp-query' feature, which the adapter \(.+\) lacks$/,
    );
  });

  test("enableProfiling takes @syclts/runtime/profiling's value, not a boolean (errc.invalid)", async () => {
    const options = { enableProfiling: true } as unknown as QueueOptions;
    const error = await rejected(() => Queue.create(options));
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toBe(
      "Queue.create: enableProfiling must be @syclts/runtime/profiling's enableProfiling, got true",
    );
  });
});
