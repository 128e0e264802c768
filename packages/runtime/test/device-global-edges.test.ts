/**
 * Device globals where a SYCL user expects more than the basics: copies that never convert,
 * writes from several queues that never lose bytes, more globals than a device has storage
 * bindings, initial values (kept and reset across relinks), namespace imports in device code.
 */
import {
  accessor,
  array,
  type DeviceGlobal,
  deviceGlobal,
  kernel,
  PROGRAM_FORMAT_VERSION,
  u32,
} from '@syclts/dsl';
import { beforeAll, describe, expect, test } from 'vitest';
import { errc, SyclError } from '../src/index.js';
import * as acc from './fixtures/compiled/acc.sycl.js';
import * as initial from './fixtures/compiled/initial.sycl.js';
import { compileProgram, compileSources } from './support/compile.js';
import { caught } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

beforeAll(() => {
  compileProgram([
    ['acc', acc],
    ['initial', initial],
  ]);
});

describe('copy from a device global never converts', () => {
  test('a typed array that cannot hold the element exactly is refused before anything is enqueued', async () => {
    const q = await freshQueue();
    const values = [300, 0xdeadbeef, 7, 2 ** 31, 5, 6, 7, 8];
    await q.copy(values, acc.total).wait();
    const refused: [ArrayBufferView, string][] = [
      [new Uint8Array(8), 'Uint8Array'],
      [new Float32Array(8), 'Float32Array'],
      [new Int32Array(8), 'Int32Array'],
      [new Uint16Array(8), 'Uint16Array'],
    ];
    for (const [dest, kind] of refused) {
      // @ts-expect-error: the types refuse a destination that would convert u32 elements
      const error = caught(() => q.copy(acc.total, dest));
      expect(error.errc).toBe(errc.invalid);
      expect(error.message).toBe(
        `queue.copy: a ${kind} cannot hold the u32 elements of device global src/acc.sycl.ts#total exactly; copy into an array or a Uint32Array, Float64Array`,
      );
      expect(Array.from(dest as Uint8Array).every((x) => x === 0)).toBe(true);
    }
    for (const dest of [new Uint32Array(8), new Float64Array(8), new Array<number>(8)]) {
      await q.copy(acc.total, dest).wait();
      expect(Array.from(dest)).toEqual(values.map((v) => v >>> 0));
    }
  });

  test('bool and composite elements go to arrays only; frozen arrays are refused', async () => {
    const q = await freshQueue();
    // points: array<vec3<f32>, 4>
    // @ts-expect-error: vectors do not fit a typed array
    expect(caught(() => q.copy(acc.points, new Float32Array(12))).errc).toBe(errc.invalid);
    const frozen = Object.freeze([0, 0, 0, 0, 0, 0, 0, 0]);
    // @ts-expect-error: a readonly array cannot be a destination
    const error = caught(() => q.copy(acc.total, frozen));
    expect(error.message).toBe('queue.copy: the destination array is frozen or sealed');
    const out: [number, number, number][] = [];
    out.length = 4;
    await q.copy([[1, 2, 3]], acc.points, 1).wait();
    await q.copy(acc.points, out).wait();
    expect(out).toEqual([
      [1, 2, 3],
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });

  test('reading value on the host is a SyclError', () => {
    let error: unknown;
    try {
      void acc.readOnly.value;
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SyclError);
    expect((error as SyclError).errc).toBe(errc.invalid);
  });
});

describe('writes from two queues of one device', () => {
  test('unaligned memcpy of different bytes of one word: every byte lands, every time', async () => {
    const q1 = await freshQueue();
    const q2 = await freshQueue({ device: q1.device });
    for (let round = 0; round < 20; round++) {
      const bytes = new Uint8Array(randomU32(8, 300 + round).buffer).slice(0, 8);
      await q1.memcpy(acc.total, new Uint8Array(32)).wait();
      // Each queue writes its own bytes of words 0 and 1 (offsets 1..2 and 5..6, 3 and 7).
      const events = [
        q1.memcpy(acc.total, bytes.subarray(1, 3), 2, 1),
        q2.memcpy(acc.total, bytes.subarray(3, 4), 1, 3),
        q1.memcpy(acc.total, bytes.subarray(5, 7), 2, 5),
        q2.memcpy(acc.total, bytes.subarray(7, 8), 1, 7),
      ];
      await Promise.all(events.map((e) => e.wait()));
      const all = new Uint8Array(8);
      await q2.memcpy(all, acc.total, 8).wait();
      const expected = Uint8Array.from(bytes);
      expected[0] = 0;
      expected[4] = 0;
      expect(Array.from(all)).toEqual(Array.from(expected));
    }
  });
});

describe('float elements hold what the type holds', () => {
  test('copy writes NaN and the infinities into f32 storage, as memcpy of their bits does', async () => {
    const q = await freshQueue();
    const random = Array.from(randomU32(9, 430), (x) => Math.fround((x / 2 ** 32 - 0.5) * 1e6));
    const points: [number, number, number][] = [
      [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
      [random[0]!, random[1]!, random[2]!],
      [random[3]!, random[4]!, random[5]!],
      [random[6]!, random[7]!, random[8]!],
    ];
    await q.copy(points, acc.points).wait();
    const back: [number, number, number][] = new Array(4).fill([POISON, POISON, POISON]);
    await q.copy(acc.points, back).wait();
    expect(back).toEqual(points);
    // The same bits through memcpy: vec3<f32> elements are 16 bytes apart.
    const bytes = new Float32Array(16).fill(POISON);
    await q.memcpy(bytes, acc.points).wait();
    expect(Array.from(bytes.subarray(0, 3))).toEqual(points[0]);
    // A finite value beyond f32's range would turn into an infinity: still refused.
    const error = caught(() => q.copy([[3.5e38, 0, 0]], acc.points, 1));
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toMatch(
      /^queue\.copy: .* cannot be copied into src\/acc\.sycl\.ts#points: src\[0\]\[0\]: 3\.5e\+38 is out of range for f32$/,
    );
  });

  test('a buffer written from host values takes NaN and the infinities, as from a Float32Array', async () => {
    const q = await freshQueue();
    const [x] = Array.from(randomU32(1, 431), (v) => Math.fround(v / 7));
    const values = [Number.NaN, Number.NEGATIVE_INFINITY, x!, Number.POSITIVE_INFINITY];
    const buffer = q.buffer(new Float32Array(4).fill(POISON));
    await buffer.write(values).wait();
    expect(Array.from(await buffer.read())).toEqual(values);
  });
});

describe('more globals than storage-buffer bindings', () => {
  test('a kernel using limit + 4 globals runs: the globals share one binding', async () => {
    const q = await freshQueue();
    const count = q.device.limits.maxStorageBuffersPerShaderStage + 4;
    const names = Array.from({ length: count }, (_, i) => `g${i}`);
    const source = [
      "import { accessor, deviceGlobal, kernel, u32 } from '@syclts/dsl';",
      ...names.map((n, i) => `export const ${n} = deviceGlobal(u32, {}, ${i * 10});`),
      'export const sumAll = kernel({ range: 1, args: { out: accessor(u32, "write") } }, (item, _kh, { out }) => {',
      `  ${names.map((n) => `${n}.value += 1;`).join(' ')}`,
      `  out[item.getId(0)] = ${names.map((n) => `${n}.value`).join(' + ')};`,
      '});',
    ].join('\n');
    const exports: Record<string, unknown> = Object.fromEntries(
      names.map((n, i) => [n, deviceGlobal(u32, {}, i * 10)]),
    );
    const sumAll = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {});
    compileSources([{ module: 'src/many.sycl.ts', source, exports: { ...exports, sumAll } }]);
    const out = q.buffer(new Uint32Array(1).fill(POISON));
    await q.parallelFor(1, sumAll, { out }).wait();
    const expected = names.reduce((s, _, i) => s + i * 10 + 1, 0);
    expect(Array.from(await out.read())).toEqual([expected]);
    for (const [i, n] of names.entries()) {
      const one = [POISON];
      await q.copy(exports[n] as DeviceGlobal<typeof u32, 'read_write'>, one).wait();
      expect(one).toEqual([i * 10 + 1]);
    }
  });
});

describe('initial values', () => {
  test('each device starts from the folded initial values, zero for the rest', async () => {
    for (const q of [await freshQueue(), await freshQueue()]) {
      const read = async <T>(g: DeviceGlobal, n: number): Promise<T[]> => {
        const out = new Array<T>(n);
        await q.copy(g as never, out as never).wait();
        return out;
      };
      expect(await read(initial.start, 1)).toEqual([3]);
      expect(await read(initial.table, 4)).toEqual([10, 20, 0, 0]);
      expect(await read(initial.pose, 1)).toEqual([{ x: 0, y: 2.5, hits: 0 }]);
      expect(await read(initial.plain, 1)).toEqual([0]);
      const input = Array.from(randomU32(8, 400), (x) => x % 1000);
      await q.copy(input, acc.total).wait();
      const out = q.buffer(new Uint32Array(8).fill(POISON));
      await q.parallelFor(8, initial.touch, { out }).wait();
      expect(Array.from(await out.read())).toEqual(input.map((x) => x * 2));
      expect(await read(initial.start, 1)).toEqual([4]);
      expect(await read(initial.table, 4)).toEqual([10, 20, 0, 30]);
      expect(await read(initial.pose, 1)).toEqual([{ x: 5, y: 2.5, hits: 0 }]);
      expect(await read(initial.plain, 1)).toEqual([7]);
      // deviceImageScope, atomic, initial value 100, one add per item.
      expect(await read(initial.hits, 1)).toEqual([108]);
    }
  });
});

test('namespace imports reach declarations in device code', async () => {
  const q = await freshQueue();
  const input = Array.from(randomU32(8, 410), (x) => x % 5000);
  await q.copy(input, acc.total).wait();
  const out = q.buffer(new Uint32Array(8).fill(POISON));
  await q.parallelFor(8, initial.touch, { out }).wait();
  expect(Array.from(await out.read())).toEqual(input.map((x) => x * 2));
});

test('a program built in another image format is refused, naming both formats', async () => {
  const q = await freshQueue();
  const { attach } = await import('@syclts/dsl');
  const old = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {});
  const program = { version: 1, images: [] } as unknown as Parameters<typeof attach>[0];
  attach(program, [[old, 'src/old.sycl.ts#old']]);
  const out = q.buffer(new Uint32Array(1));
  const error = caught(() => q.parallelFor(1, old, { out }));
  expect(error.errc).toBe(errc.build);
  expect(error.message).toBe(
    `queue.parallelFor: kernel src/old.sycl.ts#old comes from a program in device image format 1; this runtime reads format ${PROGRAM_FORMAT_VERSION}: build the app again with the unplugin-syclts and @syclts/runtime of one release`,
  );
});

describe('a deviceImageScope global no kernel uses', () => {
  const source = [
    "import { accessor, array, deviceGlobal, kernel, u32 } from '@syclts/dsl';",
    'export const idle = deviceGlobal(array(u32, 6), { deviceImageScope: true });',
    'export const busy = kernel({ range: 1, args: { out: accessor(u32, "write") } }, (item, _kh, { out }) => { out[item.getId(0)] = 1; });',
  ].join('\n');
  const idle = deviceGlobal(array(u32, 6), { deviceImageScope: true });
  const busy = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {});
  beforeAll(() => {
    compileSources([{ module: 'src/idle.sycl.ts', source, exports: { idle, busy } }]);
  });

  test('keeps its value on the host: copy and memcpy round-trip it, in queue order', async () => {
    const q = await freshQueue();
    const values = Array.from(randomU32(6, 420));
    const zeros = new Array<number>(6).fill(POISON);
    await q.copy(idle, zeros).wait();
    expect(zeros).toEqual([0, 0, 0, 0, 0, 0]);
    q.copy(values, idle);
    const back = new Uint32Array(6).fill(POISON);
    await q.copy(idle, back).wait();
    expect(Array.from(back)).toEqual(values);
    // Bytes 6..9 span elements 1 and 2: host storage keeps the bytes around them.
    const patch = randomU32(1, 421);
    await q.memcpy(idle, new Uint8Array(patch.buffer), 4, 6).wait();
    const bytes = new Uint8Array(24).fill(0xee);
    await q.memcpy(bytes, idle).wait();
    const expected = new Uint8Array(Uint32Array.from(values).buffer);
    expected.set(new Uint8Array(patch.buffer), 6);
    expect(Array.from(bytes)).toEqual(Array.from(expected));
    // Per device, as every global's storage.
    const other = await freshQueue();
    const fresh = new Array<number>(6).fill(POISON);
    await other.copy(idle, fresh).wait();
    expect(fresh).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
