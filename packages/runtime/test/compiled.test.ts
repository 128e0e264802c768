/** The runtime on programs the compiler built from real `.sycl.ts` sources. */

import type { Program } from '@syclts/dsl';
import { beforeAll, describe, expect, test } from 'vitest';
import { build, errc, getKernelBundle, ndRange, type Queue, SyclError } from '../src/index.js';
import * as argsModule from './fixtures/compiled/args.sycl.js';
import * as layoutModule from './fixtures/compiled/layout.sycl.js';
import * as matmulModule from './fixtures/compiled/matmul.sycl.js';
import * as rowsModule from './fixtures/compiled/rows.sycl.js';
import * as scaleModule from './fixtures/compiled/scale.sycl.js';
import * as slotcallModule from './fixtures/compiled/slotcall.sycl.js';
import * as tunedModule from './fixtures/compiled/tuned.sycl.js';
import { compileFixture } from './support/compile.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

beforeAll(() => {
  compileFixture('scale', scaleModule);
  compileFixture('tuned', tunedModule);
  compileFixture('matmul', matmulModule);
  compileFixture('args', argsModule);
  compileFixture('slotcall', slotcallModule);
  layoutProgram = compileFixture('layout', layoutModule);
  rowsProgram = compileFixture('rows', rowsModule);
});
let layoutProgram: Program;
let rowsProgram: Program;

const { factor, scale } = scaleModule;
const { tuning, bias, history, tuned } = tunedModule;
const { blockSize, matmul } = matmulModule;
const { affine } = argsModule;
const { step, total, accumulate } = slotcallModule;

describe.each(['native', 'emulated', 'auto'] as const)(
  'a function that reads a constant, called as a statement (%s)',
  (mode) => {
    test('reads the launch value of the constant', async () => {
      const q = await freshQueue({ specConstants: mode });
      const n = 20 + (randomU32(1, 31)[0]! % 50);
      const value = 2 + (randomU32(1, 32)[0]! % 1000);
      const out = q.buffer(new Uint32Array(n).fill(POISON));
      await q
        .submit((cgh) => {
          cgh.setSpecializationConstant(step, value);
          cgh.parallelFor(n, accumulate, { out });
        })
        .wait();
      const ids = Array.from({ length: n }, (_, i) => i);
      expect(Array.from(await out.read())).toEqual(ids.map((i) => i * value));
      const sum = [POISON];
      await q.copy(total, sum).wait();
      expect(sum[0]).toBe((value * n * (n - 1)) / 2);
    });
  },
);

test('scalar, bool and vector value arguments are laid out as the compiler expects', async () => {
  const q = await freshQueue();
  const n = 50;
  const x = Float32Array.from({ length: n }, (_, i) => i * 0.5 - 7);
  const src = q.buffer(x, { access: 'read' });
  const dst = q.buffer(new Float32Array(n).fill(Number.NaN), { access: 'write' });
  for (const neg of [false, true]) {
    await q
      .parallelFor(n, affine, {
        src,
        dst,
        n: 3,
        scale: 2,
        neg,
        offset: [100, -0.25],
        pick: [1, -2, 40, 8],
      })
      .wait();
    const expected = Array.from(x, (v) => (neg ? v * 2 - v * 2 * 3 : v * 2) - 0.25 + 40);
    expect(Array.from(await dst.read())).toEqual(expected);
  }
});

describe.each(['native', 'emulated'] as const)('compiled programs (%s)', (mode) => {
  test('the skeleton: out[i] = factor * i with the default and a set value', async () => {
    const q = await freshQueue({ specConstants: mode });
    const n = 777;
    const out = q.buffer(new Uint32Array(n).fill(POISON));
    await q.parallelFor(n, scale, { out }).wait();
    expect(Array.from(await out.read())).toEqual(Array.from({ length: n }, (_, i) => 7 * i));
    await q
      .submit((cgh) => {
        cgh.setSpecializationConstant(factor, 3001);
        cgh.parallelFor(n, scale, { out });
      })
      .wait();
    expect(Array.from(await out.read())).toEqual(Array.from({ length: n }, (_, i) => 3001 * i));
  });

  test('a struct constant, a host-only default, a value argument and a device global', async () => {
    const q = await freshQueue({ specConstants: mode });
    const [rows, width] = [5, 9];
    const x = Float32Array.from({ length: rows * width }, (_, i) => (i % 7) - 2.5);
    const src = q.buffer(x, { access: 'read' });
    const out = q.buffer(new Float32Array(rows * width).fill(Number.NaN));
    const transform = (t: { gain: number; offset: number[]; enabled: boolean; steps: number }) =>
      Array.from(x, (v) => {
        let r = v;
        if (t.enabled)
          for (let s = 0; s < t.steps; s++) r = r * t.gain + t.offset[0]! - t.offset[1]!;
        return r;
      });
    const defaults = { gain: 3, offset: [0.25, -0.5], enabled: true, steps: 2 };
    await q.parallelFor([rows, width], tuned, { x: src, out, width }).wait();
    const first = transform(defaults);
    expect(Array.from(await out.read())).toEqual(first.map((v) => v + 5));

    const custom = { gain: -2, offset: [1.5, 0.5], enabled: true, steps: 3 };
    await q
      .submit((cgh) => {
        cgh.setSpecializationConstant(tuning, {
          gain: -2,
          offset: [1.5, 0.5],
          enabled: true,
          steps: 3,
        });
        cgh.setSpecializationConstant(bias, 40);
        cgh.parallelFor([rows, width], tuned, { x: src, out, width });
      })
      .wait();
    const second = transform(custom);
    expect(Array.from(await out.read())).toEqual(second.map((v) => v + 40));
    const h = [Number.NaN, Number.NaN, Number.NaN, Number.NaN];
    await q.copy(history, h).wait();
    expect(h).toEqual([0, 1, 2, 3].map((i) => first[i]! + second[i]!));
  });
});

type Nine = [number, number, number, number, number, number, number, number, number];
type Four = [number, number, number, number];
type Rows = [Four, Four, Four];

describe.each(['native', 'emulated'] as const)(
  "the design's layout of composite constants (%s)",
  (mode) => {
    const { idInt, idA, idNested, weights, flags, leaves } = layoutModule;
    const read = async (set: (cgh: Parameters<Parameters<Queue['submit']>[0]>[0]) => void) => {
      const q = await freshQueue({ specConstants: mode });
      const out = q.buffer(new Float32Array(20).fill(Number.NaN));
      await q
        .submit((cgh) => {
          set(cgh);
          cgh.parallelFor(1, leaves, { out });
        })
        .wait();
      return Array.from(await out.read());
    };

    test('every leaf reads as set, the defaults and fresh values', async () => {
      // Offsets 0, 4, 16 (the design's), 24 (nine floats, stride 4), 64: records of 96 bytes,
      // which the uniform address space takes only as words.
      const image = layoutProgram.images[0]!;
      expect(Object.values(image.specConstants).map((c) => c.emulationOffset)).toEqual([
        0, 4, 16, 24, 64,
      ]);
      expect(image.emulation).toMatchObject({ addressSpace: 'uniform', size: 96 });
      expect(await read(() => {})).toEqual([
        -7, 11, 0.5, -1.25, 2.5, 3.5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 0.25, 0.5, 0.75, 4,
      ]);
      const [i, x, count] = Array.from(randomU32(3, 16), (v) => v % 50_000);
      const f = Array.from(randomU32(16, 24), (v) => (v % 1000) / 8 - 60);
      const values = [
        -i!,
        x!,
        f[0]!,
        f[1]!,
        f[2]!,
        f[3]!,
        ...f.slice(4, 13),
        0,
        ...f.slice(13, 16),
      ];
      expect(
        await read((cgh) => {
          cgh.setSpecializationConstant(idInt, -i!);
          cgh.setSpecializationConstant(idA, { x: x!, n: { a: f[0]!, b: f[1]! } });
          cgh.setSpecializationConstant(idNested, { a: f[2]!, b: f[3]! });
          cgh.setSpecializationConstant(weights, f.slice(4, 13) as Nine);
          cgh.setSpecializationConstant(flags, {
            on: false,
            v: f.slice(13, 16) as [number, number, number],
            count: count!,
          });
        }),
      ).toEqual([...values, count]);
    });

    /** `out` of a kernel that reads a constant at the indices `at` holds, `set` setting it. */
    const readAt = async (
      kernel: typeof layoutModule.weightsAt | typeof rowsModule.rowsAt,
      picks: readonly number[],
      set: (cgh: Parameters<Parameters<Queue['submit']>[0]>[0]) => void,
    ) => {
      const q = await freshQueue({ specConstants: mode });
      const out = q.buffer(new Float32Array(picks.length).fill(POISON));
      const at = q.buffer(Uint32Array.from(picks));
      await q
        .submit((cgh) => {
          set(cgh);
          cgh.parallelFor(picks.length, kernel, { out, at });
        })
        .wait();
      return Array.from(await out.read());
    };

    test('an array constant read by index, in the kernel and in a device function, past its end', async () => {
      const { weightsAt } = layoutModule;
      const n = 64;
      const fresh = Array.from(randomU32(9, 41), (v) => (v % 2000) / 16 - 60);
      // Every index of the array, then some past its end (WGSL clamps them to the last).
      const picks = Array.from(randomU32(n, 42), (v, k) =>
        k < 40 ? v % 9 : [9, 10, 1000, 0xffffffff][k % 4]!,
      );
      const out = await readAt(weightsAt, picks, (cgh) =>
        cgh.setSpecializationConstant(weights, fresh as Nine),
      );
      expect(out).toEqual(picks.map((p) => fresh[Math.min(p, 8)]));
    });

    test('an array constant of rows read by index from a record of members', async () => {
      const { rows, rowsAt } = rowsModule;
      const image = rowsProgram.images[0]!;
      expect(image.emulation).toMatchObject({ addressSpace: 'uniform', size: 48 });
      // Indexed in the record where it is, not copied first.
      expect(image.wgsl.emulated).toMatch(/= sc_buffer\[slot\]\.\w+\[a_rowsAt_at\[k\]\];/);
      const n = 32;
      const fresh = Array.from({ length: 3 }, (_, r) =>
        Array.from(randomU32(4, 50 + r), (v) => (v % 4096) - 2048),
      );
      const picks = Array.from(randomU32(n, 53), (v, k) =>
        k < 24 ? v % 3 : [3, 7, 1 << 20][k % 3]!,
      );
      const out = await readAt(rowsAt, picks, (cgh) =>
        cgh.setSpecializationConstant(rows, fresh as Rows),
      );
      const row = (p: number) => fresh[Math.min(p, 2)]!;
      expect(out).toEqual(picks.map((p) => row(p)[0]! * 256 + row(p)[3]!));
    });
  },
);

describe('a compiled nd-range kernel whose workgroup size is a specialization constant', () => {
  const n = 16;
  const a = Float32Array.from({ length: n * n }, (_, i) => ((i * 7) % 11) - 5);
  const b = Float32Array.from({ length: n * n }, (_, i) => ((i * 5) % 13) - 6);
  const expected = Array.from({ length: n * n }, (_, i) => {
    const [r, c] = [Math.floor(i / n), i % n];
    let sum = 0;
    for (let k = 0; k < n; k++) sum += a[r * n + k]! * b[k * n + c]!;
    return sum;
  });

  async function multiply(q: Queue, block: number | null): Promise<number[]> {
    const c = q.buffer(new Float32Array(n * n).fill(Number.NaN));
    const args = { a: q.buffer(a, { access: 'read' }), b: q.buffer(b, { access: 'read' }), c, n };
    const local = block ?? 4;
    await q
      .submit((cgh) => {
        if (block !== null) cgh.setSpecializationConstant(blockSize, block);
        cgh.parallelFor(ndRange([n, n], [local, local]), matmul, args);
      })
      .wait();
    return Array.from(await c.read());
  }

  test('runs with the default block and with set blocks, one pipeline each', async () => {
    const q = await freshQueue({ specConstants: 'auto' });
    expect(await multiply(q, null)).toEqual(expected);
    expect(await multiply(q, 8)).toEqual(expected);
    expect(await multiply(q, 2)).toEqual(expected);
    expect(await multiply(q, 8)).toEqual(expected);
    expect(q.stats.pipelinesCreated).toBe(3);
    expect(q.stats.emulatedLaunches).toBe(0);
  });

  test('a local range other than the block size is errc.nd_range', async () => {
    const q = await freshQueue();
    const c = q.buffer(new Float32Array(n * n));
    const args = { a: q.buffer(a), b: q.buffer(b), c, n };
    let caught: unknown;
    try {
      q.submit((cgh) => {
        cgh.setSpecializationConstant(blockSize, 8);
        cgh.parallelFor(ndRange([n, n], [4, 4]), matmul, args);
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SyclError);
    expect((caught as SyclError).errc).toBe(errc.ndRange);
  });

  test('a bundle built with a block size runs with it', async () => {
    const q = await freshQueue();
    const input = getKernelBundle(q, { state: 'input', kernels: [matmul] });
    input.setSpecializationConstant(blockSize, 8);
    const executable = await build(input);
    const out = q.buffer(new Float32Array(n * n).fill(Number.NaN));
    await q
      .submit((cgh) => {
        cgh.useKernelBundle(executable);
        cgh.parallelFor(ndRange([n, n], [8, 8]), matmul, {
          a: q.buffer(a),
          b: q.buffer(b),
          c: out,
          n,
        });
      })
      .wait();
    expect(Array.from(await out.read())).toEqual(expected);
    expect(q.stats.pipelinesCreated).toBe(1);
  });
});
