import { u32 } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { factor, fill } from './fixtures/fill.js';
import { freshQueue, POISON } from './support/gpu.js';

const expected = (n: number, k: number) => Array.from({ length: n }, (_, i) => (k * i) >>> 0);

describe('the skeleton kernel out[i] = factor * i', () => {
  test('runs with the default, then with a value set on the handler (native)', async () => {
    const q = await freshQueue({ specConstants: 'native' });
    const n = 1000;
    const out = q.buffer(u32, new Uint32Array(n).fill(POISON), { access: 'write' });
    await q.submit((cgh) => cgh.parallelFor(n, fill, { out })).wait();
    expect(Array.from(await out.read())).toEqual(expected(n, 7));

    await out.write(new Uint32Array(n).fill(POISON)).wait();
    await q
      .submit((cgh) => {
        cgh.setSpecializationConstant(factor, 13);
        cgh.parallelFor([n], fill, { out });
      })
      .wait();
    expect(Array.from(await out.read())).toEqual(expected(n, 13));
    expect(q.stats.pipelinesCreated).toBe(2);
    expect(q.stats.nativeLaunches).toBe(2);
  });

  test('emulated: the same results, one pipeline for every value', async () => {
    const q = await freshQueue({ specConstants: 'emulated' });
    const n = 333;
    const out = q.buffer(new Uint32Array(n).fill(POISON));
    for (const k of [7, 3, 1_000_003]) {
      await q
        .submit((cgh) => {
          cgh.setSpecializationConstant(factor, k);
          cgh.parallelFor(n, fill, { out });
        })
        .wait();
      expect(Array.from(await out.read())).toEqual(expected(n, k));
    }
    expect(q.stats.pipelinesCreated).toBe(1);
    expect(q.stats.emulatedLaunches).toBe(3);
  });
});
