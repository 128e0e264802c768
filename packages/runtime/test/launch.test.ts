import { f32, u32 } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { errc, ndRange, SyclError } from '../src/index.js';
import { factor, fill } from './fixtures/fill.js';
import { groups, index2d, index3d, tunable, wg } from './fixtures/grid.js';
import { freshQueue, POISON } from './support/gpu.js';

function syclError(run: () => unknown): SyclError {
  try {
    run();
  } catch (error) {
    if (error instanceof SyclError) return error;
    throw error;
  }
  throw new Error('expected a SyclError');
}

describe('ranges', () => {
  test('2-D: SYCL dimension 1 is the fastest varying; value arguments reach the kernel', async () => {
    const q = await freshQueue();
    const [rows, cols] = [13, 21];
    const out = q.buffer(new Uint32Array(rows * cols).fill(POISON));
    await q.parallelFor([rows, cols], index2d, { out, base: 500_000 }).wait();
    const expected = Array.from({ length: rows * cols }, (_, i) => {
      const [r, c] = [Math.floor(i / cols), i % cols];
      return r * 1000 + c + 500_000;
    });
    expect(Array.from(await out.read())).toEqual(expected);
  });

  test('3-D: linear id is row-major over SYCL dimensions', async () => {
    const q = await freshQueue();
    const [d0, d1, d2] = [3, 5, 6];
    const out = q.buffer(new Float32Array(d0 * d1 * d2).fill(Number.NaN));
    await q.submit((cgh) => cgh.parallelFor([d0, d1, d2], index3d, { out, gain: 0.5 })).wait();
    const expected = Array.from({ length: d0 * d1 * d2 }, (_, i) => {
      const [a, b, c] = [Math.floor(i / (d1 * d2)), Math.floor(i / d2) % d1, i % d2];
      return Math.fround(a * 1_000_000 + b * 1000 + c) * 0.5;
    });
    expect(Array.from(await out.read())).toEqual(expected);
  });

  test('a range beyond maxComputeWorkgroupsPerDimension is split into several dispatches', async () => {
    const q = await freshQueue({ specConstants: 'native' });
    const max = q.device.limits.maxComputeWorkgroupsPerDimension;
    const n = max * 64 + 300;
    const out = q.buffer(u32, n);
    await q.parallelFor(n, fill, { out }).wait();
    const result = await out.read();
    expect(q.stats.dispatches).toBe(2);
    let wrong = -1;
    for (let i = 0; i < n; i++) {
      if (result[i] !== (7 * i) >>> 0) {
        wrong = i;
        break;
      }
    }
    expect(wrong).toBe(-1);
  });

  test('a 2-D range is split along y (SYCL dimension 0) as well', async () => {
    const q = await freshQueue();
    const rows = q.device.limits.maxComputeWorkgroupsPerDimension * 8 + 20;
    const out = q.buffer(u32, rows);
    await q.parallelFor([rows, 1], index2d, { out, base: 3 }).wait();
    const result = await out.read();
    expect(q.stats.dispatches).toBe(2);
    let wrong = -1;
    for (let r = 0; r < rows; r++) {
      if (result[r] !== r * 1000 + 3) {
        wrong = r;
        break;
      }
    }
    expect(wrong).toBe(-1);
  });

  test('singleTask runs one work item', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(4).fill(POISON));
    await q.singleTask(index2d, { out, base: 42 }).wait();
    expect(Array.from(await out.read())).toEqual([42, POISON, POISON, POISON]);
  });

  test('an empty range runs nothing', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(4).fill(POISON));
    await q.parallelFor(0, fill, { out }).wait();
    expect(Array.from(await out.read())).toEqual([POISON, POISON, POISON, POISON]);
    expect(q.stats.dispatches).toBe(0);
  });
});

describe('nd-ranges', () => {
  test('global and local ranges give groups and local ids', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(64).fill(POISON));
    await q.parallelFor(ndRange(64, 16), groups, { out }).wait();
    expect(Array.from(await out.read())).toEqual(
      Array.from({ length: 64 }, (_, i) => Math.floor(i / 16) * 100 + (i % 16)),
    );
  });

  test('an nd-range beyond the dispatch limit is split too, groups numbered across dispatches', async () => {
    const q = await freshQueue();
    const groupsNeeded = q.device.limits.maxComputeWorkgroupsPerDimension + 3;
    const n = groupsNeeded * 16;
    const out = q.buffer(u32, n);
    await q.parallelFor(ndRange(n, 16), groups, { out }).wait();
    const result = await out.read();
    expect(q.stats.dispatches).toBe(2);
    let wrong = -1;
    for (let i = 0; i < n; i++) {
      if (result[i] !== (Math.floor(i / 16) * 100 + (i % 16)) >>> 0) {
        wrong = i;
        break;
      }
    }
    expect(wrong).toBe(-1);
  });

  test('a global range not divisible by the local range is errc.nd_range', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(64));
    const error = syclError(() => q.parallelFor(ndRange(60, 16), groups, { out }));
    expect(error.errc).toBe(errc.ndRange);
    expect(error.message).toContain('[60]');
    expect(error.message).toContain('[16]');
    expect(error.message).toContain('src/grid.sycl.ts#groups');
  });

  test("a local range other than the kernel's workgroup size is errc.nd_range", async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(64));
    expect(syclError(() => q.parallelFor(ndRange(64, 8), groups, { out })).errc).toBe(errc.ndRange);
  });

  test('a workgroup size given by a specialization constant follows its value', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(64).fill(POISON));
    await q.parallelFor(ndRange(64, 8), tunable, { out }).wait();
    expect(Array.from(await out.read())).toEqual(new Array(64).fill(8));
    await q
      .submit((cgh) => {
        cgh.setSpecializationConstant(wg, 32);
        cgh.parallelFor(ndRange(64, 32), tunable, { out });
      })
      .wait();
    expect(Array.from(await out.read())).toEqual(new Array(64).fill(32));
    const error = syclError(() =>
      q.submit((cgh) => {
        cgh.setSpecializationConstant(wg, 32);
        cgh.parallelFor(ndRange(64, 8), tunable, { out });
      }),
    );
    expect(error.errc).toBe(errc.ndRange);
  });

  test('a basic kernel with an nd-range, or the wrong number of dimensions, is errc.nd_range', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(64));
    expect(syclError(() => q.parallelFor(ndRange(64, 16) as never, fill, { out })).errc).toBe(
      errc.ndRange,
    );
    expect(syclError(() => q.parallelFor(64 as never, groups, { out })).errc).toBe(errc.ndRange);
    expect(syclError(() => q.parallelFor([4, 4] as never, fill, { out })).errc).toBe(errc.ndRange);
    expect(syclError(() => q.parallelFor(1.5, fill, { out })).errc).toBe(errc.ndRange);
  });
});

describe('kernel arguments are checked against the declaration', () => {
  test.each([
    ['a missing argument', (out: unknown) => ({ out }), errc.kernelArgument, "'base': missing"],
    [
      'a misspelt argument (named, rather than the one it misses)',
      (out: unknown) => ({ out, bsae: 1 }),
      errc.kernelArgument,
      "'bsae': the kernel declares no such argument",
    ],
    [
      'an extra argument',
      (out: unknown) => ({ out, base: 1, more: 2 }),
      errc.kernelArgument,
      "'more'",
    ],
    [
      'a value that is not a buffer',
      () => ({ out: new Uint32Array(4), base: 1 }),
      errc.kernelArgument,
      "'out'",
    ],
    ['a negative u32 value', (out: unknown) => ({ out, base: -1 }), errc.kernelArgument, "'base'"],
  ])('%s', async (_, args, code, part) => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(4));
    const error = syclError(() => q.parallelFor([2, 2], index2d, args(out) as never));
    expect(error.errc).toBe(code);
    expect(error.message).toContain('src/grid.sycl.ts#index2d');
    expect(error.message).toContain(part);
  });

  test('the argument object is typed from the declaration', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(4));
    const missing = () =>
      // @ts-expect-error: 'base' is missing
      q.parallelFor([2, 2], index2d, { out });
    const wrongValue = () =>
      // @ts-expect-error: 'base' is a u32, not a string
      q.parallelFor([2, 2], index2d, { out, base: '1' });
    const wrongRange = () =>
      // @ts-expect-error: a 2-D kernel takes two sizes
      q.parallelFor(4, index2d, { out, base: 1 });
    expect(syclError(missing).errc).toBe(errc.kernelArgument);
    expect(syclError(wrongValue).errc).toBe(errc.kernelArgument);
    expect(syclError(wrongRange).errc).toBe(errc.ndRange);
  });

  test('element types must match', async () => {
    const q = await freshQueue();
    const wrong = q.buffer(new Float32Array(4));
    // @ts-expect-error: an f32 buffer for a u32 accessor
    const error = syclError(() => q.parallelFor([2, 2], index2d, { out: wrong, base: 1 }));
    expect(error.errc).toBe(errc.kernelArgument);
    expect(error.message).toContain('u32');
    expect(error.message).toContain('f32');
  });

  test("a 'read' buffer cannot be bound to a 'write' accessor", async () => {
    const q = await freshQueue();
    const readOnly = q.buffer(u32, 4, { access: 'read' });
    // @ts-expect-error: the buffer is read-only for kernels
    const error = syclError(() => q.parallelFor(4, fill, { out: readOnly }));
    expect(error.errc).toBe(errc.accessor);
    expect(error.message).toContain("'out'");
    expect(error.message).toContain('src/fill.sycl.ts#fill');
    const writeOnly = q.buffer(f32, 4, { access: 'write' });
    const launch = () =>
      // @ts-expect-error: a write-only buffer for a read_write accessor
      q.parallelFor([1, 1, 4], index3d, { out: writeOnly, gain: 1 });
    expect(syclError(launch).errc).toBe(errc.accessor);
  });

  test('a buffer of another device is rejected', async () => {
    const q = await freshQueue();
    const other = await freshQueue();
    const out = other.buffer(new Uint32Array(4));
    expect(syclError(() => q.parallelFor(4, fill, { out })).errc).toBe(errc.kernelArgument);
  });
});

describe('buffers', () => {
  test('write and read back, partially, ordered with kernels', async () => {
    const q = await freshQueue();
    const buffer = q.buffer(Uint32Array.from({ length: 10 }, (_, i) => 1000 + i));
    buffer.write(Uint32Array.of(7, 8, 9), 4);
    expect(Array.from(await buffer.read())).toEqual([
      1000, 1001, 1002, 1003, 7, 8, 9, 1007, 1008, 1009,
    ]);
    expect(() => buffer.write(Uint32Array.of(1, 2), 9)).toThrow(
      expect.objectContaining({ errc: errc.invalid }),
    );
    expect(() => buffer.write(new Float32Array(2) as never)).toThrow(
      expect.objectContaining({ errc: errc.invalid }),
    );
  });

  test('destroy waits for a launch that waits for its pipeline', async () => {
    const q = await freshQueue({ specConstants: 'native' });
    const out = q.buffer(new Uint32Array(4).fill(POISON));
    const event = q.submit((cgh) => {
      cgh.setSpecializationConstant(factor, 77);
      cgh.parallelFor(4, fill, { out });
    });
    out.destroy();
    await event.wait();
    expect(q.stats.nativeLaunches).toBe(1);
  });

  test('a destroyed buffer is rejected by launches, reads and writes', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(4).fill(POISON));
    await q.parallelFor(4, fill, { out }).wait();
    out.destroy();
    expect(syclError(() => q.parallelFor(4, fill, { out })).errc).toBe(errc.kernelArgument);
    await expect(out.read()).rejects.toMatchObject({ errc: errc.invalid });
    expect(() => out.write(Uint32Array.of(1, 2, 3, 4))).toThrow(
      expect.objectContaining({ errc: errc.invalid }),
    );
  });

  test('composite elements round-trip through host values', async () => {
    const q = await freshQueue();
    const { vec } = await import('@syclts/dsl');
    const points = q.buffer(vec(f32, 3), [
      [1, 2, 3],
      [-4.5, 5.5, 6.25],
    ]);
    expect(points.stride).toBe(16);
    expect(await points.read()).toEqual([
      [1, 2, 3],
      [-4.5, 5.5, 6.25],
    ]);
  });
});
