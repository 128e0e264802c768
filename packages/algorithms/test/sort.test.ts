/**
 * sort on the adapter against a CPU reference (JavaScript's stable sort): u32, i32 and f32 keys,
 * ascending and descending, alone and with u32, i32 and f32 values (the original indices, so the
 * values show stability), at sizes around the tile (2048), empty and single inputs, many equal
 * keys, already sorted and reversed input, in both lowerings of the group functions and on
 * the emulated path of the specialization constants; bad arguments refused.
 */

import { f32, u32, vec2u } from '@syclts/dsl';
import { type Queue, reinterpret } from '@syclts/runtime';
import { describe, expect, test } from 'vitest';
import type { Element } from '../src/operation.ts';
import { scratch } from '../src/scratch.ts';
import { type Sorted, sort } from '../src/sort.ts';
import {
  invalidMessage,
  type Lowering,
  POISON,
  randomF32,
  randomU32,
  sharedQueue,
  viewAs,
} from './support/queues.ts';

type Scalar = Element['scalar'];
type Elements = Uint32Array | Int32Array | Float32Array;

/** Where an f32 stands among the others: by value, -0 before +0, NaNs outside by sign. */
function f32Rank(x: number, bits: number): [number, number] {
  if (Number.isNaN(x)) return bits >>> 31 ? [-2, -bits] : [2, bits];
  return [0, x === 0 ? (Object.is(x, -0) ? -Number.MIN_VALUE : 0) : x];
}

/** The stable sort of indices by key, as JavaScript's `sort` (stable since ES2019) gives it. */
function reference(scalar: Scalar, keys: Elements, descending: boolean): number[] {
  const words = new Uint32Array(keys.buffer, keys.byteOffset, keys.length);
  const rank = (i: number): [number, number] =>
    scalar === 'f32' ? f32Rank(keys[i]!, words[i]!) : [0, keys[i]!];
  const order = Array.from(keys, (_, i) => i);
  order.sort((a, b) => {
    const [x0, x1] = rank(a);
    const [y0, y1] = rank(b);
    const c = x0 - y0 || (x1 < y1 ? -1 : x1 > y1 ? 1 : 0);
    return descending ? -c : c;
  });
  return order;
}

/** Keys of `scalar` from random words (some f32 specials among them), or from `distinct` values. */
function randomKeys(scalar: Scalar, n: number, seed: number, distinct: number): Elements {
  const words = randomU32(n, seed);
  if (distinct > 0) {
    const small = Array.from(words, (w) => (w % distinct) - (distinct >> 1));
    return scalar === 'u32'
      ? Uint32Array.from(small, (x) => x >>> 0)
      : scalar === 'i32'
        ? Int32Array.from(small)
        : Float32Array.from(small, (x) => x / 4);
  }
  if (scalar !== 'f32') return viewAs(scalar, words);
  const xs = randomF32(n, seed);
  // +0, -0, ±Infinity, ±NaN and the smallest subnormals, by their bits.
  const specials = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 1, 0x80000001];
  const bits = new Uint32Array(xs.buffer);
  for (let i = 0; i < xs.length; i += 97) bits[i] = specials[(i / 97) % specials.length]!;
  return xs;
}

interface Case {
  readonly keys: Scalar;
  readonly values?: Scalar;
  readonly descending?: boolean;
  /** Keys drawn from this many values (0: from every value). */
  readonly distinct?: number;
  readonly presorted?: 'ascending' | 'descending';
  /** Run on the emulated path of the specialization constants. */
  readonly emulated?: boolean;
}

async function run(lowering: Lowering, n: number, seed: number, c: Case): Promise<void> {
  const queue = await sharedQueue(lowering, c.emulated);
  let keys = randomKeys(c.keys, n, seed, c.distinct ?? 0);
  if (c.presorted) {
    const order = reference(c.keys, keys, c.presorted === 'descending');
    keys = viewAs(
      c.keys,
      Uint32Array.from(order, (i) => new Uint32Array(keys.buffer)[i]!),
    );
  }
  const want = reference(c.keys, keys, c.descending ?? false);
  // The spare buffers poisoned, so that an element the sort never wrote shows.
  for (const spare of ['sort keys', 'sort values', 'sort counts', 'sort offsets']) {
    const buffer = scratch(queue, spare, u32, Math.max(n, 256 * Math.ceil(n / 2048)));
    buffer.write(new Uint32Array(buffer.length).fill(POISON));
  }
  const keysBuffer = queue.buffer(keys as Uint32Array);
  const indices = Uint32Array.from(keys, (_, i) => i);
  const values =
    c.values === undefined
      ? undefined
      : queue.buffer(
          (c.values === 'f32'
            ? Float32Array.from(indices)
            : viewAs(c.values, indices)) as Uint32Array,
        );
  await sort(queue, keysBuffer as Sorted<Element>, {
    ...(values ? { values: values as Sorted<Element> } : {}),
    descending: c.descending ?? false,
  }).wait();
  const gotWords = new Uint32Array((await keysBuffer.read()).buffer);
  const keyWords = new Uint32Array(keys.buffer);
  const wantWords = Uint32Array.from(want, (i) => keyWords[i]!);
  const first = wantWords.findIndex((w, i) => w !== gotWords[i]);
  expect(first === -1 ? null : `key [${first}] ${gotWords[first]} vs ${wantWords[first]}`).toBe(
    null,
  );
  if (values) {
    const got = Array.from(await values.read(), Number);
    const bad = want.findIndex((w, i) => w !== got[i]);
    expect(bad === -1 ? null : `value [${bad}] ${got[bad]} vs ${want[bad]}`).toBe(null);
  }
}

describe.each(['subgroups', 'workgroup'] as const)('in the %s lowering', (lowering) => {
  test('u32 keys at sizes around the tile', async () => {
    let seed = 0x5027 + lowering.length;
    for (const n of [0, 1, 2, 255, 2047, 2048, 2049, 3 * 2048 + 5, 40_001]) {
      await run(lowering, n, seed++, { keys: 'u32' });
    }
  });

  test.each(['i32', 'f32'] as const)('%s keys, ascending and descending', async (keys) => {
    let seed = 0x51ed + lowering.length + keys.length;
    for (const n of [2, 3 * 2048 + 5]) {
      for (const descending of [false, true]) {
        await run(lowering, n, seed++, { keys, descending });
      }
    }
  });

  test.each(['u32', 'i32', 'f32'] as const)(
    'u32 keys with %s values: many equal keys keep their order',
    async (values) => {
      let seed = 0x57ab + lowering.length + values.length;
      for (const n of [1, 2049, 10_007]) {
        await run(lowering, n, seed++, { keys: 'u32', values, distinct: 13 });
      }
    },
  );

  test('one key for all, already sorted, reversed, descending pairs', async () => {
    let seed = 0x50e + lowering.length;
    await run(lowering, 5000, seed++, { keys: 'u32', values: 'u32', distinct: 1 });
    await run(lowering, 5000, seed++, { keys: 'i32', values: 'i32', presorted: 'ascending' });
    await run(lowering, 5000, seed++, { keys: 'u32', values: 'u32', presorted: 'descending' });
    await run(lowering, 5000, seed++, {
      keys: 'f32',
      values: 'f32',
      descending: true,
      distinct: 7,
    });
    await run(lowering, 5000, seed++, {
      keys: 'u32',
      values: 'u32',
      descending: true,
      distinct: 99,
    });
  });
});

test('the emulated path of the specialization constants gives the same results', async () => {
  await run('subgroups', 5000, 0x5e, {
    keys: 'f32',
    values: 'i32',
    descending: true,
    emulated: true,
  });
  await run('workgroup', 5000, 0x5f, { keys: 'i32', emulated: true });
});

test('2^18 f32 keys with u32 values', async () => {
  await run('subgroups', 2 ** 18, 0x2018, { keys: 'f32', values: 'u32' });
});

describe('bad arguments are refused before anything runs', () => {
  const refusal = async (call: (q: Queue) => unknown) => {
    const queue = await sharedQueue('subgroups');
    return invalidMessage(() => call(queue));
  };

  test('keys of another type', async () => {
    const message = await refusal((q) => sort(q, q.buffer(vec2u, 8) as unknown as Sorted<Element>));
    expect(message).toBe('sort: keys must hold u32, i32 or f32 elements, got a buffer of vector');
  });

  test('keys the sort cannot write', async () => {
    const message = await refusal((q) =>
      sort(q, q.buffer(new Uint32Array(8), { access: 'read' }) as unknown as Sorted<Element>),
    );
    expect(message).toBe(
      'sort: keys must be a read_write buffer (the sort is in place), got a read buffer',
    );
  });

  test('values shorter than the keys', async () => {
    const message = await refusal((q) =>
      sort(q, q.buffer(new Uint32Array(8)), { values: q.buffer(new Float32Array(7)) }),
    );
    expect(message).toBe('sort: values holds 7 elements, fewer than the 8 keys');
  });

  test("values in the keys' memory", async () => {
    const message = await refusal((q) => {
      const keys = q.buffer(new Uint32Array(8));
      sort(q, keys, { values: reinterpret(keys, f32) });
    });
    expect(message).toBe(
      'sort: the keys and the values are the same memory; pass another buffer for the values',
    );
  });

  test('values of another type', async () => {
    const message = await refusal((q) =>
      sort(q, q.buffer(new Uint32Array(8)), {
        values: q.buffer(vec2u, 8) as unknown as Sorted<Element>,
      }),
    );
    expect(message).toBe('sort: values must hold u32, i32 or f32 elements, got a buffer of vector');
  });
});
