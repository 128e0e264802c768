/**
 * Launches issued without waiting share one command encoder, compute pass and submit: each must
 * still see its own values and arguments, keep queue order with copies, writes and reads, fail
 * alone when invalid, and give exactly what the same commands give with a wait after each.
 */
import { describe, expect, test } from 'vitest';
import { errc, type Queue, type SpecConstantPolicy } from '../src/index.js';
import { factor, fill } from './fixtures/fill.js';
import { accumulate, report, scale, total } from './fixtures/globals.js';
import { mismatched } from './fixtures/grid.js';
import { rejected } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

const N = 96;
const multiples = (k: number) => Array.from({ length: N }, (_, i) => (k * i) >>> 0);

test('a long run of launches in one task is submitted after 16, 32, 64 and then every 128 dispatches, each launch with its own values', async () => {
  const q = await freshQueue({ specConstants: 'emulated' });
  const warm = q.buffer(new Uint32Array(N));
  q.parallelFor(N, fill, { out: warm });
  await q.wait();
  const before = q.stats.batches;
  const factors = Array.from(randomU32(500, 510), (x) => 1 + (x % 1000));
  const outs = factors.map(() => q.buffer(new Uint32Array(N).fill(POISON)));
  for (const [i, k] of factors.entries()) {
    q.submit((cgh) => {
      cgh.setSpecializationConstant(factor, k);
      cgh.parallelFor(N, fill, { out: outs[i]! });
    });
  }
  // Submitted after 16, 48, 112, 240, 368 and 496 launches while the loop ran: the GPU had work
  // before the task ended, and no more than 128 launches are left for it once the host is done.
  expect(q.stats.batches - before).toBe(6);
  await q.wait();
  expect(q.stats.batches - before).toBe(7);
  for (const [i, k] of factors.entries()) {
    expect(Array.from(await outs[i]!.read())).toEqual(multiples(k));
  }
});

describe.each(['native', 'emulated', 'auto'] as const)('one flush (%s)', (policy) => {
  test('launches with distinct values and arguments each see their own', async () => {
    const q = await freshQueue({ specConstants: policy });
    const factors = Array.from(randomU32(24, 500), (x) => 1 + (x % 1000));
    const outs = factors.map(() => q.buffer(new Uint32Array(N).fill(POISON)));
    const events = factors.map((k, i) =>
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, k);
        cgh.parallelFor(N, fill, { out: outs[i]! });
      }),
    );
    expect(events.every((e) => e.status === 'submitted')).toBe(true);
    await q.wait();
    expect(q.stats.dispatches).toBe(factors.length);
    for (const [i, k] of factors.entries()) {
      expect(Array.from(await outs[i]!.read())).toEqual(multiples(k));
    }
  });

  test('repeated launches share one submission', async () => {
    const q = await freshQueue({ specConstants: policy });
    const out = q.buffer(new Uint32Array(N).fill(POISON));
    const factors = Array.from(randomU32(4, 505), (x) => 2 + (x % 1000));
    for (let i = 0; i < 200; i++) {
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, factors[i % 4]!);
        cgh.parallelFor(N, fill, { out });
      });
    }
    await q.wait();
    expect(Array.from(await out.read())).toEqual(multiples(factors[3]!));
    expect(q.stats.dispatches).toBe(200);
    // Launches waiting for a pipeline are recorded when it is ready, in one go; within one task
    // the batch is flushed after 16, 32 and 64 dispatches (so after 16, 48, 112), then at its end.
    const pairs = q.stats.pipelinesCreated;
    expect(q.stats.batches).toBeLessThanOrEqual(2 * pairs + 4);
  });

  test('writes, copies and reads between launches keep queue order', async () => {
    const q = await freshQueue({ specConstants: policy });
    const out = q.buffer(new Uint32Array(N).fill(POISON));
    const input = q.buffer(new Uint32Array(8), { access: 'read' });
    const seen: number[][] = [];
    q.submit((cgh) => {
      cgh.setSpecializationConstant(factor, 3);
      cgh.parallelFor(N, fill, { out });
    });
    const first = out.read();
    out.write(new Uint32Array(N).fill(9));
    const second = out.read();
    q.parallelFor(N, fill, { out });
    const third = out.read();
    // Device globals: a copy in, a launch that adds, a partial copy, a launch, a copy out.
    const values = Array.from(randomU32(8, 510), (x) => x % 100);
    input.write(Uint32Array.from(values));
    q.copy([1, 2, 3, 4, 5, 6, 7, 8], total);
    q.parallelFor(8, accumulate, { input });
    q.copy([1000, 1000], total, 2, 3);
    q.submit((cgh) => {
      cgh.setSpecializationConstant(scale, 2);
      cgh.parallelFor(8, accumulate, { input });
    });
    const after = new Array<number>(8).fill(POISON);
    const copied = q.copy(total, after);
    const reported = q.buffer(new Uint32Array(8).fill(POISON));
    q.parallelFor(8, report, { out: reported });
    seen.push(Array.from(await first), Array.from(await second), Array.from(await third));
    await copied.wait();
    expect(seen).toEqual([multiples(3), new Array(N).fill(9), multiples(7)]);
    const expectedTotal = values.map((v, i) => (i === 3 || i === 4 ? 1000 : i + 1 + v) + 2 * v);
    expect(after).toEqual(expectedTotal);
    expect(Array.from(await reported.read())).toEqual(expectedTotal);
  });
});

test('an invalid launch in the middle of a flush fails its own event and no other', async () => {
  const q = await freshQueue();
  const before = q.buffer(new Uint32Array(N).fill(POISON));
  const bad = q.buffer(new Uint32Array(4).fill(POISON));
  const afterOut = q.buffer(new Uint32Array(N).fill(POISON));
  const a = q.parallelFor(N, fill, { out: before });
  const b = q.parallelFor(4, mismatched, { out: bad });
  const c = q.submit((cgh) => {
    cgh.setSpecializationConstant(factor, 11);
    cgh.parallelFor(N, fill, { out: afterOut });
  });
  await a.wait();
  const error = await rejected(() => b.wait());
  expect(error.errc).toBe(errc.build);
  expect(error.message).toContain('src/grid.sycl.ts#mismatched');
  await c.wait();
  expect(Array.from(await before.read())).toEqual(multiples(7));
  expect(Array.from(await afterOut.read())).toEqual(multiples(11));
  // The same invalid launch again fails again, each time, on its own wait().
  for (let i = 0; i < 3; i++) {
    const again = await rejected(() => q.parallelFor(4, mismatched, { out: bad }).wait());
    expect(again.message).toContain('src/grid.sycl.ts#mismatched');
  }
});

test('device loss while launches are recorded fails them', async () => {
  const q = await freshQueue();
  const out = q.buffer(new Uint32Array(N).fill(POISON));
  const events = [1, 2, 3].map((k) =>
    q.submit((cgh) => {
      cgh.setSpecializationConstant(factor, k);
      cgh.parallelFor(N, fill, { out });
    }),
  );
  q.device.destroy();
  for (const event of events) {
    const error = await rejected(() => event.wait());
    expect(error.message).toContain('the GPU device was lost');
  }
});

/** A random program of launches, copies, writes and reads, on a queue with the given policy. */
async function runProgram(q: Queue, seed: number, waitEach: boolean): Promise<unknown[]> {
  const rand = randomU32(400, seed);
  let r = 0;
  const next = (n: number) => rand[r++ % rand.length]! % n;
  const outs = [0, 1, 2].map(() => q.buffer(new Uint32Array(N).fill(POISON)));
  const input = q.buffer(new Uint32Array(8), { access: 'read' });
  const results: Promise<unknown>[] = [];
  const step = async (event: { wait(): Promise<void> } | null) => {
    if (waitEach && event) await event.wait();
  };
  for (let i = 0; i < 60; i++) {
    switch (next(6)) {
      case 0: {
        const k = next(5000);
        const out = outs[next(3)]!;
        await step(
          q.submit((cgh) => {
            cgh.setSpecializationConstant(factor, k);
            cgh.parallelFor(N, fill, { out });
          }),
        );
        break;
      }
      case 1: {
        const s = next(4);
        await step(
          q.submit((cgh) => {
            cgh.setSpecializationConstant(scale, s);
            cgh.parallelFor(8, accumulate, { input });
          }),
        );
        break;
      }
      case 2:
        await step(input.write(Uint32Array.from({ length: 8 }, () => next(50))));
        break;
      case 3:
        await step(q.copy([next(9), next(9)], total, 2, next(7)));
        break;
      case 4: {
        const host = new Array<number>(8).fill(POISON);
        const copied = q.copy(total, host);
        results.push(copied.wait().then(() => host));
        await step(copied);
        break;
      }
      default: {
        const read = outs[next(3)]!.read();
        results.push(read.then((v) => Array.from(v)));
        if (waitEach) await read;
      }
    }
  }
  return Promise.all(results);
}

test.each(['native', 'emulated', 'auto'] as SpecConstantPolicy[])(
  'random sequences give what a wait after every command gives (%s)',
  async (policy) => {
    for (const seed of [600, 601, 602]) {
      const batched = await runProgram(await freshQueue({ specConstants: policy }), seed, false);
      const stepped = await runProgram(await freshQueue({ specConstants: policy }), seed, true);
      expect(batched).toEqual(stepped);
      expect(batched.length).toBeGreaterThan(5);
    }
  },
);
