/**
 * exclusiveScan and inclusiveScan on the adapter against a CPU reference: u32, i32 and f32 with
 * plus, minimum and maximum, with and without init, at sizes around the tile (8192) and the
 * vector (4), single elements and empty inputs, in both lowerings of the group functions and
 * both paths of specialization constants, with the look-back's fallback forced.
 */
import { atomic, u32 } from '@syclts/dsl';
import { errc, type Queue, SyclError } from '@syclts/runtime';
import { describe, expect, test } from 'vitest';
import type { Element, Operator } from '../src/operation.ts';
import { exclusiveScan, inclusiveScan, scan } from '../src/scan.ts';
import { scratch } from '../src/scratch.ts';
import {
  invalidMessage,
  type Lowering,
  POISON,
  queueFor,
  randomF32,
  randomU32,
  sharedQueue,
  viewAs,
} from './support/queues.ts';

type Scalar = Element['scalar'];

/** The CPU's scan, in f64 for f32 (the GPU's f32 order differs: checked to a tolerance). */
function reference(
  scalar: Scalar,
  op: Operator,
  xs: ArrayLike<number>,
  init: number | null,
  inclusive: boolean,
): number[] {
  const combine = (a: number, b: number): number => {
    if (op === 'minimum') return Math.min(a, b);
    if (op === 'maximum') return Math.max(a, b);
    if (scalar === 'u32') return (a + b) >>> 0;
    if (scalar === 'i32') return (a + b) | 0;
    return a + b;
  };
  const identity =
    op === 'plus'
      ? 0
      : { u32: [0xffffffff, 0], i32: [0x7fffffff, -0x80000000], f32: [Infinity, -Infinity] }[
          scalar
        ][op === 'minimum' ? 0 : 1]!;
  let acc = init ?? identity;
  return Array.from(xs, (x) => {
    const before = acc;
    acc = combine(acc, x);
    return inclusive ? acc : before;
  });
}

function input(scalar: Scalar, n: number, seed: number): Uint32Array | Int32Array | Float32Array {
  return scalar === 'f32' ? randomF32(n, seed) : viewAs(scalar, randomU32(n, seed));
}

function poisoned(scalar: Scalar, n: number): Uint32Array | Int32Array | Float32Array {
  return viewAs(scalar, new Uint32Array(n).fill(POISON));
}

function expectScan(
  scalar: Scalar,
  op: Operator,
  xs: ArrayLike<number>,
  got: ArrayLike<number>,
  init: number | null,
  inclusive: boolean,
): void {
  const want = reference(scalar, op, xs, init, inclusive);
  expect(got.length).toBe(want.length);
  if (scalar === 'f32' && op === 'plus') {
    // Each partial sum to within f32 rounding of every term and partial sum before it.
    let magnitude = Math.abs(init ?? 0);
    const bad: string[] = [];
    for (let i = 0; i < want.length; i++) {
      magnitude += Math.abs(xs[i]!);
      if (!(Math.abs(got[i]! - want[i]!) <= 1e-5 * magnitude + 1e-6)) {
        bad.push(`[${i}] ${got[i]} vs ${want[i]}`);
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
    return;
  }
  const f32 = (v: number) => Math.fround(v);
  const first = want.findIndex((w, i) => (scalar === 'f32' ? f32(w) : w) !== got[i]);
  expect(first === -1 ? null : `[${first}] ${got[first]} vs ${want[first]}`).toBe(null);
}

async function run(
  lowering: Lowering,
  scalar: Scalar,
  op: Operator,
  n: number,
  options: { init?: boolean; inclusive: boolean; seed: number; emulated?: boolean },
): Promise<void> {
  const queue = await sharedQueue(lowering, options.emulated === true);
  const xs = input(scalar, n, options.seed);
  const init = options.init
    ? scalar === 'f32'
      ? Math.fround(randomF32(1, options.seed + 1)[0]!)
      : scalar === 'u32'
        ? randomU32(1, options.seed + 1)[0]!
        : randomU32(1, options.seed + 1)[0]! | 0
    : null;
  // Typed arrays give the buffers their element types; the scans take any of the three.
  const src = queue.buffer(xs as Uint32Array, { access: 'read' });
  const dst = queue.buffer(poisoned(scalar, n) as Uint32Array);
  const scanOf = options.inclusive ? inclusiveScan : exclusiveScan;
  await scanOf(queue, src, dst, init === null ? { op } : { op, init }).wait();
  expectScan(scalar, op, xs, await dst.read(), init, options.inclusive);
}

const TILE = 8192;
const SIZES = [1, 3, 4, 4097, TILE - 1, TILE, TILE + 1, 3 * TILE + 5, 40_000] as const;

describe.each(['subgroups', 'workgroup'] as const)('in the %s lowering', (lowering) => {
  describe.each(['u32', 'i32', 'f32'] as const)('%s', (scalar) => {
    test.each(['plus', 'minimum', 'maximum'] as const)(
      '%s: exclusive and inclusive, with and without init, at sizes around the tile',
      async (op) => {
        let seed = 0x5ca1 + scalar.length * 97 + op.length;
        for (const n of SIZES) {
          for (const inclusive of [false, true]) {
            seed += 1;
            await run(lowering, scalar, op, n, { inclusive, init: seed % 2 === 0, seed });
          }
        }
      },
    );
  });
});

test('the emulated path of the specialization constants gives the same results', async () => {
  await run('subgroups', 'i32', 'maximum', 9000, { inclusive: true, seed: 71, emulated: true });
  await run('subgroups', 'u32', 'plus', 9000, {
    inclusive: false,
    init: true,
    seed: 72,
    emulated: true,
  });
});

test('large inputs: 2^20 + 7 u32 sums, exact', async () => {
  await run('subgroups', 'u32', 'plus', 2 ** 20 + 7, { inclusive: false, seed: 73 });
});

describe('the look-back falls back', () => {
  test.each(['subgroups', 'workgroup'] as const)(
    'in the %s lowering: every predecessor reduced by the tile after it, the same results',
    async (lowering) => {
      const queue = await queueFor(lowering);
      const n = 9 * TILE + 123;
      const xs = randomU32(n, 0xfa11);
      const src = queue.buffer(xs);
      const dst = queue.buffer(new Uint32Array(n).fill(POISON));
      await scan('test', queue, src, dst, {}, true, { alwaysFallBack: true }).wait();
      expectScan('u32', 'plus', xs, await dst.read(), null, true);
      // The count after the tiles' words: tile t is reduced by each of the t tiles after it.
      const tiles = 10;
      const state = await scratch(queue, 'scan state', atomic(u32), 2 + 2 * tiles).read();
      expect(state[1 + 2 * tiles]).toBe((tiles * (tiles - 1)) / 2);
    },
  );

  test('with no reads before falling back, f32 sums still match', async () => {
    const queue = await queueFor('subgroups');
    const n = 6 * TILE;
    const xs = randomF32(n, 0xfa12);
    const src = queue.buffer(xs);
    const dst = queue.buffer(new Float32Array(n).fill(Number.NaN));
    await scan('test', queue, src, dst, {}, false, { spin: 0 }).wait();
    expectScan('f32', 'plus', xs, await dst.read(), null, false);
  });

  test('with every predecessor reduced, f32 sums still match', async () => {
    const queue = await queueFor('workgroup');
    const n = 5 * TILE + 77;
    const xs = randomF32(n, 0xfa13);
    const src = queue.buffer(xs);
    const dst = queue.buffer(new Float32Array(n).fill(Number.NaN));
    await scan('test', queue, src, dst, {}, true, { alwaysFallBack: true }).wait();
    expectScan('f32', 'plus', xs, await dst.read(), null, true);
  });
});

describe('an output longer than the input', () => {
  test.each([0, 1, 2, 3])(
    'keeps the elements past the input (n = 4k + %i), also through a write-only buffer',
    async (rest) => {
      const queue = await queueFor('subgroups');
      const n = 2 * TILE + 4 * 37 + rest;
      const xs = randomU32(n, 0x7a11 + rest);
      const after = randomU32(9, 0x7a15 + rest);
      const src = queue.buffer(xs, { access: 'read' });
      const dst = queue.buffer(Uint32Array.from([...new Uint32Array(n).fill(POISON), ...after]), {
        access: 'write',
      });
      await inclusiveScan(queue, src, dst).wait();
      const got = await dst.read();
      expectScan('u32', 'plus', xs, got.subarray(0, n), null, true);
      expect(Array.from(got.subarray(n))).toEqual(Array.from(after));
    },
  );
});

describe('an empty input', () => {
  test('writes nothing', async () => {
    const queue = await queueFor('subgroups');
    const src = queue.buffer(new Uint32Array(0));
    const dst = queue.buffer(Uint32Array.of(POISON, POISON));
    await exclusiveScan(queue, src, dst).wait();
    expect(Array.from(await dst.read())).toEqual([POISON, POISON]);
  });
});

describe('bad arguments are refused before anything runs', () => {
  const refusal = async (call: (q: Queue) => unknown) => {
    const queue = await queueFor('subgroups');
    return invalidMessage(() => call(queue));
  };

  test('the same buffer in and out', async () => {
    const message = await refusal((q) => {
      const b = q.buffer(new Uint32Array(8));
      exclusiveScan(q, b, b);
    });
    expect(message).toBe(
      'exclusiveScan: the input and the output are the same memory; pass another buffer for the output',
    );
  });

  test('an output shorter than the input', async () => {
    const message = await refusal((q) =>
      inclusiveScan(q, q.buffer(new Float32Array(8)), q.buffer(new Float32Array(7))),
    );
    expect(message).toBe('inclusiveScan: the output holds 7 elements, fewer than the 8 it must');
  });

  test('element types that differ', async () => {
    const message = await refusal((q) =>
      exclusiveScan(
        q,
        q.buffer(new Float32Array(8)),
        q.buffer(new Int32Array(8)) as unknown as Parameters<typeof exclusiveScan>[2],
      ),
    );
    expect(message).toBe(
      'exclusiveScan: the output holds i32 elements and the input f32; they must be the same',
    );
  });

  test('an operator the scans do not take', async () => {
    const message = await refusal((q) =>
      exclusiveScan(q, q.buffer(new Uint32Array(8)), q.buffer(new Uint32Array(8)), {
        op: 'bitXor' as Operator,
      }),
    );
    expect(message).toBe("exclusiveScan: op must be 'plus', 'minimum' or 'maximum', got bitXor");
  });

  test('an init the element type cannot hold', async () => {
    const message = await refusal((q) =>
      exclusiveScan(q, q.buffer(new Int32Array(8)), q.buffer(new Int32Array(8)), { init: 2 ** 31 }),
    );
    expect(message).toBe('exclusiveScan: init must be an i32 integer, got 2147483648');
  });

  test('a wrapped GPUBuffer that is not whole 16 bytes', async () => {
    const message = await refusal((q) => {
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
      const wrapped = q.buffer(q.device.createBuffer({ size: 20, usage }), u32);
      exclusiveScan(q, q.buffer(new Uint32Array(5)), wrapped);
    });
    expect(message).toBe(
      "exclusiveScan: the output's GPUBuffer holds 20 bytes, and exclusiveScan reads and writes whole 16 bytes (32 for its 5 elements): wrap a GPUBuffer whose size is a multiple of 16",
    );
  });

  test('an output the scan may not write, and an input it may not read', async () => {
    const q = await queueFor('subgroups');
    for (const [input, output, message] of [
      [
        q.buffer(new Uint32Array(8)),
        q.buffer(new Uint32Array(8), { access: 'read' }),
        "exclusiveScan: the output is a 'read' buffer, and exclusiveScan writes it",
      ],
      [
        q.buffer(new Uint32Array(8), { access: 'write' }),
        q.buffer(new Uint32Array(8)),
        "exclusiveScan: the input is a 'write' buffer, and exclusiveScan reads it",
      ],
    ] as const) {
      let error: unknown;
      try {
        exclusiveScan(q, input as never, output as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SyclError);
      expect((error as SyclError).errc).toBe(errc.accessor);
      expect((error as SyclError).message).toBe(message);
    }
  });
});
