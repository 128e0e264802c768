/**
 * reduce on the adapter against a CPU reference: u32, i32 and f32 with plus, minimum and
 * maximum, with and without init, from one element to more than the first launch's grid holds
 * in one sweep, an empty input (the result is init), and the same f32 bits from run to run.
 */
import { describe, expect, test } from 'vitest';
import type { Element, Operator } from '../src/operation.ts';
import { reduce } from '../src/reduce.ts';
import {
  invalidMessage,
  POISON,
  queueFor,
  randomF32,
  randomU32,
  sharedQueue,
  viewAs,
} from './support/queues.ts';

type Scalar = Element['scalar'];

const IDENTITY: Readonly<Record<Operator, Readonly<Record<Scalar, number>>>> = {
  plus: { u32: 0, i32: 0, f32: 0 },
  minimum: { u32: 0xffffffff, i32: 0x7fffffff, f32: Infinity },
  maximum: { u32: 0, i32: -0x80000000, f32: -Infinity },
};

function fold(scalar: Scalar, op: Operator, xs: ArrayLike<number>, init: number): number {
  let acc = init;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (op === 'minimum') acc = Math.min(acc, x);
    else if (op === 'maximum') acc = Math.max(acc, x);
    else if (scalar === 'u32') acc = (acc + x) >>> 0;
    else if (scalar === 'i32') acc = (acc + x) | 0;
    else acc += x;
  }
  return acc;
}

const arrays = {
  u32: (n: number, seed: number) => randomU32(n, seed),
  i32: (n: number, seed: number) => viewAs('i32', randomU32(n, seed)),
  f32: (n: number, seed: number) => randomF32(n, seed),
};

/** One element of `scalar` holding the poison's bits. */
const poisoned = (scalar: Scalar) => viewAs(scalar, Uint32Array.of(POISON));

describe.each(['u32', 'i32', 'f32'] as const)('%s', (scalar) => {
  test.each(['plus', 'minimum', 'maximum'] as const)(
    '%s, with and without init, at sizes from 1 to 100,003 and, for plus, past one sweep of the grid',
    async (op) => {
      const q = await sharedQueue('subgroups');
      let seed = 0x7ed + scalar.length * 13 + op.length;
      // Past one sweep of the grid (2^23 elements) once per element type: the sweep's loop is
      // the same code for every operator, and each such size costs seconds on a software adapter.
      const sizes = [1, 5, 255, 4097, 100_003, ...(op === 'plus' ? [2048 * 256 * 16 + 9] : [])];
      for (const n of sizes) {
        for (const withInit of [false, true]) {
          seed += 1;
          const xs = arrays[scalar](n, seed);
          const init = withInit ? arrays[scalar](1, seed + 7)[0]! : null;
          const out = q.buffer(poisoned(scalar) as Uint32Array);
          await reduce(
            q,
            q.buffer(xs as Uint32Array, { access: 'read' }),
            out,
            init === null ? { op } : { op, init },
          ).wait();
          const [got] = await out.read();
          const want = fold(scalar, op, xs, init ?? IDENTITY[op][scalar]);
          if (scalar === 'f32' && op === 'plus') {
            const magnitude = fold(
              'f32',
              'plus',
              Float32Array.from(xs, Math.abs),
              Math.abs(init ?? 0),
            );
            expect(Math.abs(got! - want)).toBeLessThanOrEqual(1e-5 * magnitude);
          } else {
            expect(got).toBe(scalar === 'f32' ? Math.fround(want) : want);
          }
        }
      }
    },
  );
});

test('an empty input gives init', async () => {
  const q = await queueFor('workgroup');
  const out = q.buffer(Int32Array.of(POISON | 0));
  await reduce(q, q.buffer(new Int32Array(0)), out, { op: 'maximum', init: -17 }).wait();
  expect(Array.from(await out.read())).toEqual([-17]);
});

test('an f32 sum is the same bits from run to run', async () => {
  const q = await queueFor('subgroups');
  const xs = q.buffer(randomF32(300_001, 0xb175));
  const sums: number[] = [];
  for (let run = 0; run < 3; run++) {
    const out = q.buffer(Float32Array.of(Number.NaN));
    await reduce(q, xs, out).wait();
    sums.push((await out.read())[0]!);
  }
  expect(sums[0]).not.toBeNaN();
  expect(new Set(sums).size).toBe(1);
});

test('the workgroup lowering gives the same integer results', async () => {
  const q = await queueFor('workgroup');
  const xs = randomU32(70_001, 0x3c);
  const out = q.buffer(Uint32Array.of(POISON));
  await reduce(q, q.buffer(xs), out, { op: 'minimum' }).wait();
  expect((await out.read())[0]).toBe(fold('u32', 'minimum', xs, 0xffffffff));
});

test('the same buffer in and out is refused', async () => {
  const q = await queueFor('subgroups');
  const b = q.buffer(new Float32Array(4));
  expect(invalidMessage(() => reduce(q, b, b))).toBe(
    'reduce: the input and the output are the same memory; pass another buffer for the output',
  );
});
