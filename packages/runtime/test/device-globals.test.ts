import { describe, expect, test } from 'vitest';
import { build, errc, getKernelBundle, type Queue, SyclError } from '../src/index.js';
import {
  accumulate,
  bump,
  bumpOther,
  dual,
  hidden,
  points,
  readOnly,
  report,
  scale,
  scratch,
  total,
  writeOnly,
} from './fixtures/globals.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

async function readTotal(q: Queue): Promise<number[]> {
  const out = new Array<number>(8).fill(POISON);
  await q.copy(total, out).wait();
  return out;
}

async function accumulateOnce(q: Queue, input: Uint32Array, scaleValue?: number): Promise<void> {
  const buffer = q.buffer(input, { access: 'read' });
  await q
    .submit((cgh) => {
      if (scaleValue !== undefined) cgh.setSpecializationConstant(scale, scaleValue);
      cgh.parallelFor(8, accumulate, { input: buffer });
    })
    .wait();
}

function expectSyclError(run: () => unknown, code: string, ...parts: string[]): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SyclError);
  expect((caught as SyclError).errc).toBe(code);
  for (const part of parts) expect((caught as SyclError).message).toContain(part);
}

const small = (seed: number) => randomU32(8, seed).map((x) => x % 1000);

describe('device globals', () => {
  test('start at zero, then hold what kernels and copies put there', async () => {
    const q = await freshQueue();
    expect(await readTotal(q)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const input = small(1);
    await accumulateOnce(q, input);
    expect(await readTotal(q)).toEqual(Array.from(input));
  });

  test.each(['native', 'emulated'] as const)(
    'persist across launches and re-specialisation (%s)',
    async (mode) => {
      const q = await freshQueue({ specConstants: mode });
      const input = small(2);
      await accumulateOnce(q, input);
      await accumulateOnce(q, input, 3);
      await accumulateOnce(q, input, 5);
      expect(await readTotal(q)).toEqual(Array.from(input, (x) => x * 9));
    },
  );

  test('persist across kernel bundles, and are shared with a kernel of another image', async () => {
    const q = await freshQueue({ specConstants: 'native' });
    const input = small(3);
    await accumulateOnce(q, input);
    const bundle = getKernelBundle(q, { state: 'input', kernels: [accumulate] });
    bundle.setSpecializationConstant(scale, 2);
    const executable = await build(bundle);
    const buffer = q.buffer(input, { access: 'read' });
    await q
      .submit((cgh) => {
        cgh.useKernelBundle(executable);
        cgh.parallelFor(8, accumulate, { input: buffer });
      })
      .wait();
    const out = q.buffer(new Uint32Array(8).fill(POISON));
    await q.parallelFor(8, report, { out }).wait();
    expect(Array.from(await out.read())).toEqual(Array.from(input, (x) => x * 3));
  });

  test('copies are ordered with kernels without waiting in between', async () => {
    const q = await freshQueue();
    const input = small(4);
    const seed = Array.from(small(5));
    const buffer = q.buffer(input, { access: 'read' });
    q.copy(seed, total);
    q.parallelFor(8, accumulate, { input: buffer });
    const after = new Array<number>(8).fill(POISON);
    q.copy(total, after);
    q.parallelFor(8, accumulate, { input: buffer });
    const out = q.buffer(new Uint32Array(8).fill(POISON));
    q.parallelFor(8, report, { out });
    expect(Array.from(await out.read())).toEqual(seed.map((x, i) => x + 2 * input[i]!));
    expect(after).toEqual(seed.map((x, i) => x + input[i]!));
  });

  test('copy and memcpy recorded in command groups', async () => {
    const q = await freshQueue();
    const seed = Array.from(small(9));
    await q.submit((cgh) => cgh.copy(seed, total)).wait();
    const bytes = new Uint32Array(8);
    await q.submit((cgh) => cgh.memcpy(bytes, total)).wait();
    expect(Array.from(bytes)).toEqual(seed);
    await q.submit((cgh) => cgh.memcpy(total, Uint32Array.of(4242), 4, 12)).wait();
    const three = [POISON, POISON, POISON];
    await q.submit((cgh) => cgh.copy(total, three, 3, 2)).wait();
    expect(three).toEqual([seed[2], 4242, seed[4]]);
  });

  test('partial copy in elements leaves the other elements and padding untouched', async () => {
    const q = await freshQueue();
    type Vec3 = [number, number, number];
    const base: Vec3[] = [
      [1.5, 2.5, 3.5],
      [4, 5, 6],
      [-7, -8, -9],
      [10.25, 11.25, 12.25],
    ];
    await q.copy(base, points).wait();
    await q
      .copy(
        [
          [100, 200, 300],
          [-1, -2, -3],
        ],
        points,
        2,
        1,
      )
      .wait();
    const all: Vec3[] = Array.from({ length: 4 }, (): Vec3 => [0, 0, 0]);
    await q.copy(points, all).wait();
    expect(all).toEqual([base[0], [100, 200, 300], [-1, -2, -3], base[3]]);
    const two: Vec3[] = [
      [0, 0, 0],
      [0, 0, 0],
    ];
    await q.copy(points, two, 2, 2).wait();
    expect(two).toEqual([[-1, -2, -3], base[3]]);
    const bytes = new Float32Array(16).fill(Number.NaN);
    await q.memcpy(bytes, points).wait();
    // vec3<f32> has a stride of 16 bytes: every fourth float is padding, still zero.
    expect(Array.from(bytes)).toEqual([
      1.5, 2.5, 3.5, 0, 100, 200, 300, 0, -1, -2, -3, 0, 10.25, 11.25, 12.25, 0,
    ]);
  });

  test('partial memcpy in bytes, at unaligned offsets, leaves the other bytes untouched', async () => {
    const q = await freshQueue();
    const initial = new Uint8Array(32).map((_, i) => 200 - i * 3);
    await q.memcpy(total, initial).wait();
    await q.memcpy(total, new Uint8Array([1, 2, 3, 4, 5, 6]), 6, 5).wait();
    await q.memcpy(total, new Uint8Array([9, 8, 7, 6, 5, 4, 3, 2]), 4, 12).wait();
    const expected = Uint8Array.from(initial);
    expected.set([1, 2, 3, 4, 5, 6], 5);
    expected.set([9, 8, 7, 6], 12);
    const all = new Uint8Array(32);
    await q.memcpy(all, total).wait();
    expect(Array.from(all)).toEqual(Array.from(expected));
    const part = new Uint8Array(7).fill(0xee);
    await q.memcpy(part, total, 7, 3).wait();
    expect(Array.from(part)).toEqual(Array.from(expected.slice(3, 10)));
  });

  test('out of bounds both ways is errc.invalid with nothing enqueued; exact fit succeeds', async () => {
    const q = await freshQueue();
    const seed = Array.from(small(6));
    await q.copy(seed, total).wait();
    const sink = new Array<number>(9).fill(POISON);
    expectSyclError(
      () => q.copy(new Array(9).fill(1), total, 9),
      errc.invalid,
      'queue.copy',
      'src/acc.sycl.ts#total',
      '9 elements',
    );
    expectSyclError(() => q.copy([1, 2], total, 2, 7), errc.invalid, 'index 7');
    expectSyclError(() => q.copy(total, sink, 9), errc.invalid);
    expectSyclError(() => q.copy(total, sink, 1, 8), errc.invalid);
    expectSyclError(
      () => q.memcpy(total, new Uint8Array(33), 33),
      errc.invalid,
      'queue.memcpy',
      '33 bytes',
    );
    expectSyclError(() => q.memcpy(new Uint8Array(4), total, 4, 29), errc.invalid, 'offset 29');
    expectSyclError(() => q.copy([1], total, 1, -1), errc.invalid);
    expect(sink).toEqual(new Array(9).fill(POISON));
    expect(await readTotal(q)).toEqual(seed);

    await q.copy([77, 78], total, 2, 6).wait();
    await q.memcpy(total, new Uint32Array([91]), 4, 28).wait();
    const tail = [POISON, POISON];
    await q.copy(total, tail, 2, 6).wait();
    expect(tail).toEqual([77, 91]);
    const last = new Uint8Array(4);
    await q.memcpy(last, total, 4, 28).wait();
    expect(Array.from(new Uint32Array(last.buffer))).toEqual([91]);
  });

  test('hostAccess is enforced in the types and at run time', async () => {
    const q = await freshQueue();
    await q.copy([5], writeOnly).wait();
    const got = [POISON];
    await q.copy(readOnly, got).wait();
    expect(got).toEqual([0]);
    const readWriteOnly = () =>
      // @ts-expect-error: a 'write' global cannot be read by the host
      q.copy(writeOnly, [0]);
    expectSyclError(readWriteOnly, errc.invalid, "hostAccess 'write'", 'src/acc.sycl.ts#writeOnly');
    // @ts-expect-error: a 'read' global cannot be written by the host
    expectSyclError(() => q.copy([1], readOnly), errc.invalid, "hostAccess 'read'");
    // @ts-expect-error: a 'none' global is not reachable from the host
    expectSyclError(() => q.memcpy(hidden, new Uint8Array(4)), errc.invalid, "hostAccess 'none'");
    // @ts-expect-error: likewise for reading
    expectSyclError(() => q.memcpy(new Uint8Array(4), hidden), errc.invalid);
    expectSyclError(
      () =>
        // @ts-expect-error: and through a handler
        q.submit((cgh) => cgh.memcpy(new Uint8Array(4), writeOnly)),
      errc.invalid,
      'handler.memcpy',
    );
  });

  test('device_image_scope: each image has its own instance', async () => {
    const q = await freshQueue();
    const outA = q.buffer(new Uint32Array(4).fill(POISON));
    const outB = q.buffer(new Uint32Array(4).fill(POISON));
    await q.copy([10, 20, 30, 40], scratch).wait();
    await q.parallelFor(4, bump, { out: outA }).wait();
    await q.parallelFor(4, bump, { out: outA }).wait();
    await q.parallelFor(4, bumpOther, { out: outB }).wait();
    expect(Array.from(await outA.read())).toEqual([12, 24, 36, 48]);
    expect(Array.from(await outB.read())).toEqual([1, 2, 3, 4]);
    expectSyclError(
      () => q.copy([1], dual),
      errc.invalid,
      'device_image_scope',
      'src/dual-a.sycl.ts',
    );
  });

  test('each device has its own instance', async () => {
    const q1 = await freshQueue();
    const q2 = await freshQueue();
    expect(q1.device).not.toBe(q2.device);
    const input = small(7);
    await accumulateOnce(q1, input);
    await accumulateOnce(q1, input);
    await accumulateOnce(q2, input);
    expect(await readTotal(q1)).toEqual(Array.from(input, (x) => 2 * x));
    expect(await readTotal(q2)).toEqual(Array.from(input));
  });

  test('queues on one device share the instance', async () => {
    const q1 = await freshQueue();
    const q2 = await freshQueue({ device: q1.device });
    const input = small(8);
    await accumulateOnce(q1, input);
    expect(await readTotal(q2)).toEqual(Array.from(input));
  });
});
