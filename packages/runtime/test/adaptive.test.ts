/**
 * Adaptive specialization on the adapter: a kernel's integer and bool arguments (and its
 * emulated specialization constants) that stay the same run folded into a pipeline compiled in
 * the background. Every launch must give the generic path's results, bit for bit: before the
 * switch, while the pipeline compiles, after the switch, when the values change and when they
 * change back; no launch waits for the compile.
 */
import { expect, test } from 'vitest';
import { adaptive, STABLE_LAUNCHES } from '../src/adaptive.js';
import type { Queue, RuntimeStats } from '../src/index.js';
import * as adaptiveModule from './fixtures/compiled/adaptive.sycl.js';
import { compileFixture } from './support/compile.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

compileFixture('adaptive', adaptiveModule);
const { window, bias } = adaptiveModule;

const N = 96;
const LEN = 80;

interface Values {
  readonly taps: number;
  readonly shift: number;
  readonly flip: boolean;
  readonly d: number;
  readonly gain: number;
  readonly bias: number;
}

function expected(src: Uint32Array, v: Values): number[] {
  const hundred = v.d === 0 ? 100 : Math.floor(100 / v.d);
  return Array.from({ length: N }, (_, i) => {
    let sum = 0;
    for (let k = 0; k < v.taps; k++) {
      sum = (sum + (((src[(i + k) % LEN]! >>> (v.shift & 31)) ^ v.bias) >>> 0)) >>> 0;
    }
    const flipped = v.flip ? ~sum >>> 0 : sum;
    return (flipped + hundred + Math.trunc(Math.fround(v.gain))) >>> 0;
  });
}

let seed = 9000;

/** One launch with fresh random input into a poisoned output, checked against the CPU. */
async function launch(q: Queue, v: Values): Promise<void> {
  const input = Uint32Array.from(randomU32(LEN, seed++));
  const src = q.buffer(input, { access: 'read' });
  const dst = q.buffer(new Uint32Array(N).fill(POISON), { access: 'write' });
  q.submit((cgh) => {
    cgh.setSpecializationConstant(bias, v.bias);
    cgh.parallelFor(N, window, {
      src,
      dst,
      len: LEN,
      taps: v.taps,
      shift: v.shift,
      flip: v.flip,
      d: v.d,
      gain: v.gain,
    });
  });
  expect([...(await dst.read())]).toEqual(expected(input, v));
}

/** Launches with `v` until one runs specialised (the compile finishes in the background). */
async function launchUntilSpecialized(q: Queue, v: Values): Promise<number> {
  const before = specialized(q);
  for (let i = 1; i <= 400; i++) {
    await launch(q, v);
    if (specialized(q) > before) return i;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the specialised pipeline never took over');
}

const counters = (s: Readonly<RuntimeStats>) => ({
  started: s.specializationsStarted,
  used: s.specializedLaunches,
  dropped: s.specializationsDropped,
});
/** Launches that ran on a folded pipeline so far. */
const specialized = (q: Queue) => q.stats.specializedLaunches ?? 0;

/** Holds back the creation of folded pipelines until `open()`; counts them. */
function gateFolded(q: Queue): { open(): void; readonly created: number } {
  const device = q.device;
  const create = device.createComputePipelineAsync.bind(device);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = { open, created: 0 };
  device.createComputePipelineAsync = async (descriptor) => {
    // The folded entry point's pipelines (besides those it gets for launches that bind their own
    // record, made once it runs).
    const own = /one dispatch|no launch slots/.test(descriptor.label ?? '');
    if (descriptor.compute.entryPoint?.endsWith('_folded') && !own) {
      state.created++;
      await gate;
    }
    return create(descriptor);
  };
  return state;
}

const first: Values = { taps: 7, shift: 3, flip: true, d: 7, gain: 2.75, bias: 0x5a5a };
const second: Values = { taps: 12, shift: 0, flip: false, d: 3, gain: 2.75, bias: 0x5a5a };

test('results stay the same before, during and after the switch, and when values change and change back', async () => {
  const q = await freshQueue({ adaptive });
  const gate = gateFolded(q);
  // Before: the first STABLE_LAUNCHES - 1 launches of a value set run generic and start nothing.
  for (let i = 1; i < STABLE_LAUNCHES; i++) await launch(q, first);
  expect(counters(q.stats)).toEqual({ started: 0, used: 0, dropped: 0 });
  // The STABLE_LAUNCHES-th starts the compile.
  await launch(q, first);
  expect(counters(q.stats)).toEqual({ started: 1, used: 0, dropped: 0 });
  // During: the pipeline's creation is held back; launches run and finish on the generic path.
  for (let i = 0; i < 6; i++) await launch(q, first);
  expect(gate.created).toBe(1);
  expect(counters(q.stats)).toEqual({ started: 1, used: 0, dropped: 0 });
  // After: once the pipeline is made, launches run on it.
  gate.open();
  await launchUntilSpecialized(q, first);
  const used = specialized(q);
  for (let i = 0; i < 5; i++) await launch(q, first);
  expect(specialized(q)).toBe(used + 5);
  // New values: dropped at once, generic until they are stable, then their own pipeline.
  await launch(q, second);
  expect(counters(q.stats)).toEqual({ started: 1, used: used + 5, dropped: 1 });
  await launchUntilSpecialized(q, second);
  expect(q.stats.specializationsStarted).toBe(2);
  // Back to the first values: their pipeline is in the cache and runs from the first launch.
  await launch(q, first);
  expect(q.stats.specializationsDropped).toBe(2);
  const back = specialized(q);
  await launch(q, first);
  expect(specialized(q)).toBe(back + 1);
  expect(q.stats.specializationsStarted).toBe(2);
  expect(gate.created).toBe(2);
  // A value of the f32 argument (never folded) changes nothing of that.
  await launch(q, { ...first, gain: 9.5 });
  expect(specialized(q)).toBe(back + 2);
});

test('values that alternate never start a compile; a specialization constant is part of the values', async () => {
  const q = await freshQueue({ adaptive });
  for (let i = 0; i < 3 * STABLE_LAUNCHES; i++) await launch(q, i % 2 ? first : second);
  for (let i = 0; i < 3 * STABLE_LAUNCHES; i++) {
    await launch(q, { ...first, bias: i % 2 ? 1 : 2 });
  }
  expect(counters(q.stats)).toEqual({ started: 0, used: 0, dropped: 0 });
});

test('emulated specialization constants are specialised too, under the emulated policy', async () => {
  const q = await freshQueue({ adaptive, specConstants: 'emulated' });
  const v: Values = { ...first, bias: 0x1234 };
  for (let i = 0; i < STABLE_LAUNCHES; i++) await launch(q, v);
  expect(q.stats.emulatedLaunches).toBe(STABLE_LAUNCHES);
  await launchUntilSpecialized(q, v);
  const emulated = q.stats.emulatedLaunches;
  for (let i = 0; i < 3; i++) await launch(q, v);
  expect(q.stats.emulatedLaunches).toBe(emulated);
  await launch(q, { ...v, bias: 0x4321 });
  expect(q.stats.emulatedLaunches).toBe(emulated + 1);
  expect(q.stats.specializationsDropped).toBe(1);
});

test('a folded value whose pipeline cannot be created (100 / 0 at pipeline creation) stays on the generic path, tried once', async () => {
  const q = await freshQueue({ adaptive });
  const v: Values = { ...first, d: 0 };
  for (let i = 0; i < STABLE_LAUNCHES; i++) await launch(q, v);
  expect(q.stats.specializationsStarted).toBe(1);
  for (let i = 0; i < 20; i++) {
    await launch(q, v);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(counters(q.stats)).toEqual({ started: 1, used: 0, dropped: 0 });
});

test('without the adaptive property a queue never folds: no folded pipeline, no counters', async () => {
  const q = await freshQueue();
  const gate = gateFolded(q);
  gate.open();
  // Past 4 x STABLE_LAUNCHES launches, and on until 'auto' has moved to the native pipeline (its
  // compile runs beside the launches: on a loaded software adapter that can take seconds).
  const until = performance.now() + 20_000;
  for (let i = 0; i < 4 * STABLE_LAUNCHES || !q.stats.nativeLaunches; i++) {
    if (performance.now() > until) break;
    await launch(q, first);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  expect(gate.created).toBe(0);
  expect(q.stats.specializationsStarted).toBeUndefined();
  expect(q.stats.specializedLaunches).toBeUndefined();
  expect(q.stats.specializationsDropped).toBeUndefined();
  // 'auto' as before: the emulated pipeline, and the native one of the constant's value.
  expect(q.stats.pipelinesCreated).toBe(2);
  expect(q.stats.nativeLaunches).toBeGreaterThan(0);
});

test('Queue.create refuses an adaptive option that is not the adaptive value', async () => {
  await expect(freshQueue({ adaptive: {} as unknown as typeof adaptive })).rejects.toThrow(
    /adaptive must be @syclts\/runtime\/adaptive's adaptive/,
  );
});
