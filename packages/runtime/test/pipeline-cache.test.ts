import { accessor, kernel, u32 } from '@syclts/dsl';
import { describe, expect, test, vi } from 'vitest';
import { build, errc, type Queue, type QueueOptions } from '../src/index.js';
import { MAX_BACKGROUND } from '../src/queue/launch.js';
import { factor, fill, fillNativeWgsl } from './fixtures/fill.js';
import { coeffs, mix, mixDefaults, mixExpected } from './fixtures/mix.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';
import {
  accessorBinding,
  attachAll,
  image,
  kernelInfo,
  launchBinding,
  program,
  scalarLeaf,
  specConstant,
} from './support/program.js';

const N = 130;
const expected = (k: number) => Array.from({ length: N }, (_, i) => (k * i) >>> 0);

/** Launches `fill` with `value` (or the default when undefined) and checks the output. */
async function launch(q: Queue, value: number | undefined): Promise<void> {
  const out = q.buffer(new Uint32Array(N).fill(POISON));
  await q
    .submit((cgh) => {
      if (value !== undefined) cgh.setSpecializationConstant(factor, value);
      cgh.parallelFor(N, fill, { out });
    })
    .wait();
  expect(Array.from(await out.read())).toEqual(expected(value ?? 7));
}

/** `fill` again, in an image with only the native variant. */
const nativeOnly = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {});
const nativeOnlyProgram = program([
  image({
    id: 'src/native-only.sycl.ts',
    wgsl: { native: fillNativeWgsl },
    specConstants: { 'src/fill.sycl.ts#factor': specConstant(u32, [scalarLeaf(0, 'u32')], 7) },
    kernels: {
      'src/native-only.sycl.ts#nativeOnly': kernelInfo({
        entryPoint: 'k_fill',
        bindings: [launchBinding(0), accessorBinding(1, 'out', u32, 'write')],
        specConstants: ['src/fill.sycl.ts#factor'],
        variants: ['native'],
      }),
    },
  }),
]);
attachAll(nativeOnlyProgram, {
  'src/native-only.sycl.ts#nativeOnly': nativeOnly,
  'src/fill.sycl.ts#factor': factor,
});

async function queue(options: QueueOptions): Promise<Queue> {
  return freshQueue(options);
}

describe('the pipeline cache (native)', () => {
  test('N launches with K distinct value sets create exactly K pipelines', async () => {
    const q = await queue({ specConstants: 'native' });
    const values = [3, 5, 3, 9, 5, 3, 9, 9, 5, 3];
    for (const v of values) await launch(q, v);
    expect(q.stats.pipelinesCreated).toBe(3);
    expect(q.stats.pipelineCacheHits).toBe(values.length - 3);
    expect(q.stats.nativeLaunches).toBe(values.length);
  });

  test('float values name their pipelines exactly: fractions, -0 apart from 0, equal values once', async () => {
    const q = await queue({ specConstants: 'native' });
    const run = async (coeffs0: number) => {
      const triple: [number, number, number] = [coeffs0, 1.5, -2];
      const values = { ...mixDefaults, coeffs: triple };
      const out = q.buffer(new Float32Array(N).fill(Number.NaN), { access: 'write' });
      await q
        .submit((cgh) => {
          cgh.setSpecializationConstant(coeffs, triple);
          cgh.parallelFor(N, mix, { out });
        })
        .wait();
      expect(Array.from(await out.read())).toEqual(mixExpected(N, values));
    };
    // Fractions one f32 step apart, 0 and -0 (different pipeline constants), then each again.
    const step = 2 ** -20;
    const sets = [0.1, Math.fround(0.1) + step, 0, -0];
    for (const c of sets) await run(c);
    expect(q.stats.pipelinesCreated).toBe(sets.length);
    for (const c of [...sets, 0.1 + 2 ** -40]) await run(c);
    expect(q.stats.pipelinesCreated).toBe(sets.length);
  });

  test('values equal to the defaults use the default pipeline', async () => {
    const q = await queue({ specConstants: 'native' });
    await launch(q, undefined);
    expect(q.stats.pipelinesCreated).toBe(1);
    await launch(q, 7);
    await launch(q, undefined);
    await launch(q, 7);
    expect(q.stats.pipelinesCreated).toBe(1);
    await launch(q, 8);
    expect(q.stats.pipelinesCreated).toBe(2);
  });

  test('a pipeline built for a bundle serves launches with the same values, and back', async () => {
    const q = await queue({ specConstants: 'native' });
    const input = q.getKernelBundle({ state: 'input', kernels: [fill] });
    input.setSpecializationConstant(factor, 9);
    await build(input);
    expect(q.stats.pipelinesCreated).toBe(1);
    await launch(q, 9);
    expect(q.stats.pipelinesCreated).toBe(1);
    await launch(q, 10);
    const other = q.getKernelBundle({ state: 'input', kernels: [fill] });
    other.setSpecializationConstant(factor, 10);
    await build(other);
    expect(q.stats.pipelinesCreated).toBe(2);
  });

  test('the cache is bounded: least recently used pipelines are dropped', async () => {
    const q = await queue({ specConstants: 'native', pipelineCacheSize: 2 });
    for (const v of [3, 5, 9]) await launch(q, v);
    expect(q.stats.pipelineCacheEvictions).toBe(1);
    await launch(q, 5);
    expect(q.stats.pipelinesCreated).toBe(3);
    await launch(q, 3);
    expect(q.stats.pipelinesCreated).toBe(4);
    expect(q.stats.pipelineCacheEvictions).toBe(2);
    await launch(q, 5);
    expect(q.stats.pipelinesCreated).toBe(4);
  });

  test('launch plans keep no pipelines past the bound: what the cache dropped is created again', async () => {
    const q = await queue({ specConstants: 'native', pipelineCacheSize: 2 });
    // Counted on the device itself: every pipeline the runtime holds was created here (besides
    // those of launches that bind their own record, made with its overrides off for a pipeline
    // already counted).
    let created = 0;
    const createAsync = q.device.createComputePipelineAsync.bind(q.device);
    q.device.createComputePipelineAsync = (descriptor) => {
      if (!/one dispatch|no launch slots/.test(descriptor.label ?? '')) created++;
      return createAsync(descriptor);
    };
    const create = q.device.createComputePipeline.bind(q.device);
    q.device.createComputePipeline = (descriptor) => {
      created++;
      return create(descriptor);
    };
    const [a, b, c] = Array.from(randomU32(3, 440), (x, i) => (x % 1000) * 3 + i + 10);
    // Twice each, so a value's pipeline is ready when launched again; three values cycle
    // through a cache of two, so each comes back after the cache dropped it.
    for (let round = 0; round < 3; round++) {
      for (const v of [a!, b!, c!]) {
        await launch(q, v);
        await launch(q, v);
      }
    }
    expect(created).toBe(9);
    expect(q.stats.pipelinesCreated).toBe(9);
    expect(q.stats.pipelineCacheEvictions).toBe(7);
  });

  test('a pipeline a launch waits for is made in the call when the task asks for no other; several in one task, asynchronously', async () => {
    const q = await queue({ specConstants: 'native' });
    const made = { inCall: 0, async: 0 };
    const createAsync = q.device.createComputePipelineAsync.bind(q.device);
    q.device.createComputePipelineAsync = (descriptor) => {
      made.async++;
      return createAsync(descriptor);
    };
    const create = q.device.createComputePipeline.bind(q.device);
    q.device.createComputePipeline = (descriptor) => {
      made.inCall++;
      return create(descriptor);
    };
    const values = Array.from(randomU32(4, 441), (x, i) => (x % 1000) * 4 + i + 10);
    await launch(q, values[0]);
    expect(made).toEqual({ inCall: 1, async: 0 });
    const outs = values.slice(1).map((v) => {
      const out = q.buffer(new Uint32Array(N).fill(POISON));
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, v);
        cgh.parallelFor(N, fill, { out });
      });
      return { v, out };
    });
    await q.wait();
    expect(made).toEqual({ inCall: 1, async: 3 });
    for (const { v, out } of outs) expect(Array.from(await out.read())).toEqual(expected(v));
    await launch(q, values[2]);
    expect(q.stats.pipelinesCreated).toBe(4);
  });

  test('launches without waiting in between still run in order with their own values', async () => {
    const q = await queue({ specConstants: 'native' });
    const out = q.buffer(new Uint32Array(N).fill(POISON));
    const snapshots = [11, 12, 13, 14].map((v) => {
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, v);
        cgh.parallelFor(N, fill, { out });
      });
      return out.read();
    });
    const results = await Promise.all(snapshots);
    expect(results.map((r) => Array.from(r))).toEqual([11, 12, 13, 14].map(expected));
  });
});

describe('the emulated variant', () => {
  test('value changes create no pipeline, and launches in flight keep their own values', async () => {
    const q = await queue({ specConstants: 'emulated' });
    const values = [21, 22, 23, 24, 25, 26];
    const outs = values.map(() => q.buffer(new Uint32Array(N).fill(POISON)));
    values.forEach((v, i) => {
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, v);
        cgh.parallelFor(N, fill, { out: outs[i]! });
      });
    });
    const results = await Promise.all(outs.map((o) => o.read()));
    expect(results.map((r) => Array.from(r))).toEqual(values.map(expected));
    expect(q.stats.pipelinesCreated).toBe(1);
    expect(q.stats.emulatedLaunches).toBe(values.length);
    expect(q.stats.nativeLaunches).toBe(0);
  });

  test('a per-kernel policy overrides the queue policy', async () => {
    const q = await queue({
      specConstants: 'native',
      kernelSpecConstants: new Map([[fill, 'emulated']]),
    });
    await launch(q, 4);
    await launch(q, 6);
    expect(q.stats.emulatedLaunches).toBe(2);
    expect(q.stats.pipelinesCreated).toBe(1);
  });

  test("'emulated' for a kernel without an emulated variant: an error per kernel, native for the queue", async () => {
    const q = await queue({ kernelSpecConstants: new Map([[nativeOnly, 'emulated']]) });
    const out = q.buffer(new Uint32Array(N).fill(POISON));
    expect(() => q.parallelFor(N, nativeOnly, { out })).toThrow(
      expect.objectContaining({ errc: errc.featureNotSupported }),
    );
    const r = await queue({ specConstants: 'emulated' });
    const out2 = r.buffer(new Uint32Array(N).fill(POISON));
    await r.parallelFor(N, nativeOnly, { out: out2 }).wait();
    expect(Array.from(await out2.read())).toEqual(expected(7));
    expect(r.stats.nativeLaunches).toBe(1);
  });
});

describe("the 'auto' policy: tiered", () => {
  test('a new value set runs emulated at once, and native once its pipeline compiled', async () => {
    const q = await queue({ specConstants: 'auto' });
    await launch(q, 41);
    // The first launch did not wait for its native pipeline: it ran emulated.
    expect(q.stats).toMatchObject({
      emulatedLaunches: 1,
      nativeLaunches: 0,
      emulatedWhileCompiling: 1,
      backgroundCompiles: 1,
    });
    // Later launches with that value set take the native pipeline as soon as it is ready,
    // with the same results.
    let launches = 1;
    while (q.stats.nativeLaunches === 0) {
      await launch(q, 41);
      launches++;
      expect(launches).toBeLessThan(10_000);
    }
    expect(q.stats.backgroundCompiles).toBe(1);
    expect(q.stats.pipelinesCreated).toBe(2);
    await launch(q, 41);
    expect(q.stats.nativeLaunches).toBe(2);
  });

  test('a new value set sets its compile timer only after its submit (and after a waiting host asked for completion)', async () => {
    const q = await queue({ specConstants: 'auto' });
    await launch(q, 41);
    while (q.stats.nativeLaunches === 0) await launch(q, 41);
    const order: string[] = [];
    const { queue: gpuQueue } = q.device;
    const submit = gpuQueue.submit.bind(gpuQueue);
    gpuQueue.submit = (buffers) => {
      order.push('submit');
      submit(buffers);
    };
    const done = gpuQueue.onSubmittedWorkDone.bind(gpuQueue);
    gpuQueue.onSubmittedWorkDone = () => {
      order.push('done');
      return done();
    };
    const realSetTimeout = globalThis.setTimeout;
    const spyTimers = () =>
      vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, ms?: number) => {
        order.push('timer');
        return realSetTimeout(handler, ms);
      }) as typeof setTimeout);
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const out = q.buffer(new Uint32Array(N).fill(POISON));
    const waited = q.buffer(new Uint32Array(N).fill(POISON));
    const launchOf = (value: number, target: typeof out) =>
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, value);
        cgh.parallelFor(N, fill, { out: target });
      });

    // Not waited for: the batch is submitted at the end of the task, then the timer is set.
    let timers = spyTimers();
    launchOf(42, out);
    expect(order).toEqual([]);
    await nextTurn();
    timers.mockRestore();
    // Under load the 0 ms timer may fire before the next turn: its compile then asks for
    // completion itself ('done' after the timer), as in the waited case below.
    expect(order.slice(0, 2)).toEqual(['submit', 'timer']);
    expect(order.slice(2).every((e) => e === 'done')).toBe(true);
    expect(q.stats.backgroundCompiles).toBe(2);
    // With no further launch or wait, its native pipeline is created and becomes ready.
    const creations: Promise<GPUComputePipeline>[] = [];
    const create = q.device.createComputePipelineAsync.bind(q.device);
    q.device.createComputePipelineAsync = (descriptor) => {
      const creation = create(descriptor);
      creations.push(creation);
      return creation;
    };
    for (let i = 0; creations.length === 0; i++) {
      expect(i).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await creations[0];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(Array.from(await out.read())).toEqual(expected(42));
    const native = q.stats.nativeLaunches;
    await launch(q, 42);
    expect(q.stats.nativeLaunches).toBe(native + 1);

    // Waited for at once: the wait submits and asks for completion before the timer is set.
    order.length = 0;
    timers = spyTimers();
    const completion = launchOf(43, waited).wait();
    await nextTurn();
    timers.mockRestore();
    expect(order.slice(0, 3)).toEqual(['submit', 'done', 'timer']);
    await completion;
    expect(Array.from(await waited.read())).toEqual(expected(43));
  });

  test('values seen before run native; each distinct set is compiled once', async () => {
    const q = await queue({ specConstants: 'auto' });
    for (const v of [3, 5]) {
      // Until a launch of v runs native.
      for (let native = q.stats.nativeLaunches; q.stats.nativeLaunches === native; ) {
        native = q.stats.nativeLaunches;
        await launch(q, v);
      }
    }
    const before = { ...q.stats };
    for (let i = 0; i < 20; i++) await launch(q, i % 2 ? 3 : 5);
    expect(q.stats.nativeLaunches - before.nativeLaunches).toBe(20);
    expect(q.stats.emulatedLaunches).toBe(before.emulatedLaunches);
    expect(q.stats.pipelinesCreated).toBe(3);
  });

  test(`a stream of new values compiles at most ${MAX_BACKGROUND} in the background at once`, async () => {
    const q = await queue({ specConstants: 'auto' });
    const outs = Array.from({ length: 10 }, () => q.buffer(new Uint32Array(N).fill(POISON)));
    const events = outs.map((out, i) =>
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, 500 + i);
        cgh.parallelFor(N, fill, { out });
      }),
    );
    expect(q.stats.backgroundCompiles).toBe(MAX_BACKGROUND);
    expect(q.stats.emulatedWhileCompiling).toBe(10);
    await Promise.all(events.map((e) => e.wait()));
    for (const [i, out] of outs.entries()) {
      expect(Array.from(await out.read())).toEqual(expected(500 + i));
    }
  });

  test('a kernel without an emulated variant waits for its native pipeline', async () => {
    const q = await queue({ specConstants: 'auto' });
    for (let i = 0; i < 4; i++) {
      const out = q.buffer(new Uint32Array(N).fill(POISON));
      await q
        .submit((cgh) => {
          cgh.setSpecializationConstant(factor, 40 + i);
          cgh.parallelFor(N, nativeOnly, { out });
        })
        .wait();
      expect(Array.from(await out.read())).toEqual(expected(40 + i));
    }
    expect(q.stats.emulatedLaunches).toBe(0);
    expect(q.stats.pipelinesCreated).toBe(4);
  });
});
