/**
 * `atomic(f32)` (emit/print/atomics.ts) on the adapter and on the interpreter, with fresh inputs
 * and outputs poisoned before the kernel writes them, against a CPU reference: sums of many
 * items on a few words (exact for small integers, within the bound of f32 additions in any
 * order otherwise), min and max exact on negative values, -0/+0, ±Infinity and NaN, and
 * load/store/exchange/compare-exchange round trips, on accessors, device globals (a struct's
 * member too) and workgroup memory.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import type { LinkResult } from '../../src/index.js';
import { emitProgram } from '../../src/index.js';
import { type InterpretLaunch, interpretKernel } from '../../src/interpret/index.js';
import { type Launch, linkSources, type Program, runKernel } from '../frontend/gpu.js';

const MODULE = 'src/fatomics.sycl.ts';
const SOURCE = `
import {
  accessor, atomic, atomicAdd, atomicCompareExchangeWeak, atomicExchange, atomicLoad, atomicMax,
  atomicMin, atomicStore, atomicSub, bitcastU32, deviceGlobal, f32, kernel, struct, u32,
  workgroupArray,
} from '@syclts/dsl';

export const totals = deviceGlobal(struct({ sum: atomic(f32), low: atomic(f32), high: atomic(f32), n: atomic(u32) }));
export const cell = deviceGlobal(atomic(f32));

// Item i adds x to sums[w], subtracts it from diffs[w], and takes min and max with it in lows[w]
// and highs[w]: w = (i / 32) % words, so that items running side by side share a word.
export const contend = kernel(
  { range: 1, args: {
    xs: accessor(f32, 'read'), sums: accessor(atomic(f32), 'read_write'),
    diffs: accessor(atomic(f32), 'read_write'), lows: accessor(atomic(f32), 'read_write'),
    highs: accessor(atomic(f32), 'read_write'), olds: accessor(f32, 'write'), words: u32 } },
  (item, _kh, { xs, sums, diffs, lows, highs, olds, words }) => {
    const i = item.getId(0);
    const x = xs[i]!;
    const w = (i / 32) % words;
    olds[i * 4] = atomicAdd(sums[w]!, x);
    olds[i * 4 + 1] = atomicSub(diffs[w]!, x);
    olds[i * 4 + 2] = atomicMin(lows[w]!, x);
    olds[i * 4 + 3] = atomicMax(highs[w]!, x);
  });

// The same on device globals: one struct of atomics, every item on the same words.
export const contendGlobal = kernel(
  { range: 1, args: { xs: accessor(f32, 'read') } },
  (item, _kh, { xs }) => {
    const x = xs[item.getId(0)]!;
    atomicAdd(totals.value.sum, x);
    atomicMin(totals.value.low, x);
    atomicMax(totals.value.high, x);
    atomicAdd(totals.value.n, 1);
  });

// Each item on its own word: load, exchange, compare-exchange (retried while it failed only
// spuriously, as a weak one may), store and load again.
export const roundTrip = kernel(
  { range: 1, args: {
    cells: accessor(atomic(f32), 'read_write'), stores: accessor(atomic(f32), 'read_write'),
    xs: accessor(f32, 'read'), ys: accessor(f32, 'read'), zs: accessor(f32, 'read'),
    out: accessor(f32, 'write'), flags: accessor(u32, 'write') } },
  (item, _kh, { cells, stores, xs, ys, zs, out, flags }) => {
    const i = item.getId(0);
    out[i * 4] = atomicLoad(cells[i]!);
    out[i * 4 + 1] = atomicExchange(cells[i]!, xs[i]!);
    let r = atomicCompareExchangeWeak(cells[i]!, ys[i]!, zs[i]!);
    for (let k = 0; k < 64 && !r.exchanged && bitcastU32(r.old_value) === bitcastU32(ys[i]!); k++) {
      r = atomicCompareExchangeWeak(cells[i]!, ys[i]!, zs[i]!);
    }
    out[i * 4 + 2] = r.old_value;
    flags[i] = r.exchanged ? 1 : 0;
    atomicStore(stores[i]!, zs[i]!);
    out[i * 4 + 3] = atomicLoad(stores[i]!);
  });

// The same on one device global, by item 0 of a single-item launch.
export const globalRoundTrip = kernel(
  { range: 1, args: { xs: accessor(f32, 'read'), out: accessor(f32, 'write'), flags: accessor(u32, 'write') } },
  (item, _kh, { xs, out, flags }) => {
    out[0] = atomicLoad(cell);
    out[1] = atomicExchange(cell, xs[0]!);
    let r = atomicCompareExchangeWeak(cell, xs[1]!, xs[2]!);
    for (let k = 0; k < 64 && !r.exchanged && bitcastU32(r.old_value) === bitcastU32(xs[1]!); k++) {
      r = atomicCompareExchangeWeak(cell, xs[1]!, xs[2]!);
    }
    out[2] = r.old_value;
    flags[0] = r.exchanged ? 1 : 0;
    out[3] = atomicLoad(cell);
    atomicStore(cell, xs[3]!);
  });

// Workgroup memory: item 0 stores the group's starting words, every item adds, subtracts, and
// takes min and max; then item 0 reads them, exchanges and compare-exchanges one.
export const grouped = kernel(
  { ndRange: 1, workgroupSize: [64], args: {
    xs: accessor(f32, 'read'), inits: accessor(f32, 'read'), out: accessor(f32, 'write') },
    local: { acc: workgroupArray(atomic(f32), 4) } },
  (item, _kh, { xs, inits, out }, { acc }) => {
    const l = item.getLocalId(0);
    const g = item.getGroup(0);
    if (l < 4) {
      atomicStore(acc[l]!, inits[g * 4 + l]!);
    }
    item.barrier();
    const x = xs[item.getGlobalId(0)]!;
    atomicAdd(acc[0]!, x);
    atomicSub(acc[1]!, x);
    atomicMin(acc[2]!, x);
    atomicMax(acc[3]!, x);
    item.barrier();
    if (l === 0) {
      const o = g * 12;
      out[o] = atomicLoad(acc[0]!);
      out[o + 1] = atomicLoad(acc[1]!);
      out[o + 2] = atomicLoad(acc[2]!);
      out[o + 3] = atomicLoad(acc[3]!);
      out[o + 4] = atomicExchange(acc[0]!, 2);
      let r = atomicCompareExchangeWeak(acc[0]!, 2, -0.5);
      for (let k = 0; k < 64 && !r.exchanged && r.old_value === 2; k++) {
        r = atomicCompareExchangeWeak(acc[0]!, 2, -0.5);
      }
      out[o + 5] = r.old_value;
      out[o + 6] = r.exchanged ? 1 : 0;
      const s = atomicCompareExchangeWeak(acc[0]!, 2, 7);
      out[o + 7] = s.old_value;
      out[o + 8] = s.exchanged ? 1 : 0;
      out[o + 9] = atomicLoad(acc[0]!);
    }
  });
`;

let linked: LinkResult;
let program: Program;
beforeAll(() => {
  linked = linkSources({ [MODULE]: SOURCE });
  program = emitProgram(linked, { validateIr: true });
});

const id = (name: string) => `${MODULE}#${name}`;
/** Poison: a NaN whose payload no kernel here computes. */
const POISON_BITS = 0x7fbadbad;
const poisoned = (n: number) => new Float32Array(new Uint32Array(n).fill(POISON_BITS).buffer);

/** Runs the launch on the adapter and on the interpreter, each on its own copy of the inputs. */
async function both(launch: InterpretLaunch) {
  const gpu = await runKernel(program, launch as Launch);
  const cpu = interpretKernel(linked.images, launch);
  return { gpu, cpu };
}

const f32s = (b: ArrayBuffer | undefined) => [...new Float32Array(b!)];
/** The words themselves: a NaN read as a number may come back quieted. */
const u32s = (b: ArrayBuffer | undefined) => [...new Uint32Array(b!)];
const bitsOf = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0]!;
const f32Of = (bits: number) => new Float32Array(Uint32Array.of(bits).buffer)[0]!;

const show = (x: number) => `${Object.is(x, -0) ? '-0' : x} (0x${bitsOf(x).toString(16)})`;

/** Equal as f32 values: bit for bit, any NaN equal to any NaN (the interpreter keeps no payload). */
function sameF32(a: number, b: number): boolean {
  return Number.isNaN(a) ? Number.isNaN(b) : Object.is(a, b);
}

function expectSameF32(actual: readonly number[], expected: readonly number[], what: string) {
  expect(actual.length, what).toBe(expected.length);
  const wrong = actual.flatMap((a, i) =>
    sameF32(a, expected[i]!) ? [] : [`${what}[${i}]: ${show(a)}, expected ${show(expected[i]!)}`],
  );
  expect(wrong, what).toEqual([]);
}

/** The reference min and max: -0 below +0, a NaN operand ignored, a NaN word replaced. */
function minMax(which: 'min' | 'max', word: number, x: number): number {
  if (Number.isNaN(x)) return word;
  if (Number.isNaN(word)) return x;
  if (word === x && word === 0) {
    const signs = [Object.is(word, -0), Object.is(x, -0)];
    return which === 'min' ? (signs.some(Boolean) ? -0 : 0) : signs.every(Boolean) ? -0 : 0;
  }
  return which === 'min' ? Math.min(word, x) : Math.max(word, x);
}

const SPECIALS = [-0, 0, Infinity, -Infinity, Number.NaN, -1, -3.5, 2.25, -1e30, 1e-30, -1.5e-38];

/** Fresh values of one kind: small integers, floats of mixed magnitudes, or with the specials. */
function values(kind: 'integers' | 'floats' | 'specials', n: number, seed: number): Float32Array {
  const r = randomU32(2 * n, seed);
  return Float32Array.from({ length: n }, (_, i) => {
    const a = r[2 * i]!;
    const b = r[2 * i + 1]!;
    if (kind === 'integers') return (a % 33) - 16;
    const float = ((a / 2 ** 32) * 2 - 1) * 2 ** ((b % 21) - 10);
    if (kind === 'floats') return float;
    return b % 3 === 0 ? SPECIALS[a % SPECIALS.length]! : float;
  });
}

/**
 * The bound on |computed - exact| for an f32 sum of `terms` taken in any order: each of the
 * n - 1 additions rounds a partial sum, at most the sum of |terms| in magnitude, by half an ULP
 * (2^-24 relative): (n - 1) 2^-24 sum |terms|, to first order, doubled for the second.
 */
function sumBound(terms: readonly number[]): number {
  const magnitude = terms.reduce((s, t) => s + Math.abs(t), 0);
  return 2 * (terms.length - 1) * 2 ** -24 * magnitude;
}

describe('many items on a few words of an accessor', () => {
  const N = 256;
  const WORDS = 8;
  const wordOf = (i: number) => Math.floor(i / 32) % WORDS;

  test.each(['integers', 'floats', 'specials'] as const)('%s', async (kind) => {
    const seed = { integers: 1, floats: 2, specials: 3 }[kind];
    const xs = values(kind, N, seed);
    if (kind === 'specials') {
      // Words 4 and 5 see only zeros of both signs and NaN: the order of -0 and +0 decides.
      const r = randomU32(N, seed + 50);
      for (let i = 0; i < N; i++) {
        if (wordOf(i) === 4 || wordOf(i) === 5) xs[i] = [-0, 0, Number.NaN][r[i]! % 3]!;
      }
    }
    // Starting words: small integers for the sums; numbers, zeros, NaN or an infinity for min/max.
    const sums = values('integers', WORDS, seed + 10);
    const diffs = values('integers', WORDS, seed + 20);
    const [low, high] = values('floats', 2, seed + 30);
    const lows = Float32Array.of(Infinity, Number.NaN, 0, low!, 0, 0, Number.NaN, -0);
    const highs = Float32Array.of(-Infinity, Number.NaN, -0, high!, -0, -0, Number.NaN, 0);
    const olds = poisoned(4 * N);
    const launch = {
      kernel: id('contend'),
      range: [N],
      args: { xs, sums, diffs, lows, highs, olds, words: WORDS },
    };
    const { gpu, cpu } = await both(launch);

    for (const [side, run] of [
      ['gpu', gpu],
      ['interpreter', cpu],
    ] as const) {
      const terms = (w: number) => [...xs].filter((_, i) => wordOf(i) === w);
      // min and max: exact, whatever the order.
      const expect4 = (init: Float32Array, which: 'min' | 'max') =>
        Array.from({ length: WORDS }, (_, w) =>
          terms(w).reduce((m, x) => minMax(which, m, x), init[w]!),
        );
      expectSameF32(f32s(run.accessors.lows), expect4(lows, 'min'), `${side} lows`);
      expectSameF32(f32s(run.accessors.highs), expect4(highs, 'max'), `${side} highs`);
      // Each old value of min/max is the starting word or an operand of the same word.
      const o = f32s(run.accessors.olds);
      for (let i = 0; i < N; i++) {
        const w = wordOf(i);
        const seen = [lows[w]!, highs[w]!, ...terms(w)];
        expect(
          seen.some((s) => sameF32(s, o[4 * i + 2]!)),
          `${side} old min ${i}`,
        ).toBe(true);
        expect(
          seen.some((s) => sameF32(s, o[4 * i + 3]!)),
          `${side} old max ${i}`,
        ).toBe(true);
      }
      if (kind === 'specials') continue;
      const gotSums = f32s(run.accessors.sums);
      const gotDiffs = f32s(run.accessors.diffs);
      for (let w = 0; w < WORDS; w++) {
        const t = terms(w);
        const sum = t.reduce((s, x) => s + x, sums[w]!);
        const diff = t.reduce((s, x) => s - x, diffs[w]!);
        if (kind === 'integers') {
          // Exact: every partial sum is an integer far below 2^24.
          expect(gotSums[w], `${side} sum ${w}`).toBe(sum);
          expect(gotDiffs[w], `${side} diff ${w}`).toBe(diff);
        } else {
          const bound = sumBound([sums[w]!, ...t]);
          expect(Math.abs(gotSums[w]! - sum), `${side} sum ${w}`).toBeLessThanOrEqual(bound);
          expect(Math.abs(gotDiffs[w]! - diff), `${side} diff ${w}`).toBeLessThanOrEqual(bound);
        }
      }
      // Every old value was written (no poison left), and for integers each is an integer.
      expect(u32s(run.accessors.olds).filter((x) => x === POISON_BITS)).toEqual([]);
      if (kind === 'integers') {
        // The adds of one word ran one after another: the olds are its partial sums, each
        // once, so {olds} + {final} is {old + x} + {start} (exact for small integers), and
        // likewise for the subtractions.
        const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
        for (let w = 0; w < WORDS; w++) {
          const items = Array.from({ length: N }, (_, i) => i).filter((i) => wordOf(i) === w);
          for (const [j, start, final, sign] of [
            [0, sums[w]!, gotSums[w]!, 1],
            [1, diffs[w]!, gotDiffs[w]!, -1],
          ] as const) {
            const olds = items.map((i) => o[4 * i + j]!);
            const nexts = items.map((i) => o[4 * i + j]! + sign * xs[i]!);
            expect(sorted([...olds, final]), `${side} word ${w} (${j})`).toEqual(
              sorted([...nexts, start]),
            );
          }
        }
      }
    }
  });
});

test('many items on a struct of atomics in a device global', async () => {
  const N = 512;
  const xs = values('integers', N, 5);
  // A NaN in the high word: the first number replaces it.
  const start = new ArrayBuffer(16);
  const view = new DataView(start);
  const sum0 = values('integers', 1, 6)[0]!;
  view.setFloat32(0, sum0, true);
  view.setFloat32(4, Infinity, true);
  view.setUint32(8, 0x7fc00000, true);
  view.setUint32(12, 3, true);
  const { gpu, cpu } = await both({
    kernel: id('contendGlobal'),
    range: [N],
    args: { xs },
    deviceGlobals: { [id('totals')]: new Uint32Array(start) },
  });
  for (const run of [gpu, cpu]) {
    const bytes = run.deviceGlobals[id('totals')]!;
    const f = new Float32Array(bytes);
    const u = new Uint32Array(bytes);
    expect(f[0]).toBe(xs.reduce((s, x) => s + x, sum0));
    expect(f[1]).toBe(Math.min(...xs));
    expect(f[2]).toBe(Math.max(...xs));
    expect(u[3]).toBe(3 + N);
  }
});

describe('round trips', () => {
  test('load, exchange, compare-exchange by bits and store on accessor elements', async () => {
    const N = 64;
    const r = randomU32(4 * N, 7);
    const pick = (i: number) =>
      // A special, or random bits of a normal finite number: exponent 1 to 254, never a NaN
      // payload, which a JavaScript number may not carry from one array to another.
      r[i]! % 2 === 0
        ? SPECIALS[r[i]! % SPECIALS.length]!
        : f32Of(((r[i]! & 0x807fffff) | ((1 + ((r[i]! >>> 23) % 254)) << 23)) >>> 0);
    const cells = Float32Array.from({ length: N }, (_, i) => pick(i));
    const xs = Float32Array.from({ length: N }, (_, i) => pick(N + i));
    // The comparand: the exchanged value itself (exchanges), its zero of the other sign, or
    // another value (does not).
    const ys = Float32Array.from({ length: N }, (_, i) => {
      const x = xs[i]!;
      const c = r[2 * N + i]! % 3;
      if (c === 0) return x;
      if (c === 1 && x === 0) return Object.is(x, 0) ? -0 : 0;
      return pick(3 * N + i);
    });
    ys[0] = 0;
    xs[0] = -0;
    ys[1] = Number.NaN;
    xs[1] = Number.NaN;
    const zs = Float32Array.from({ length: N }, (_, i) => pick(2 * N + i));
    const out = poisoned(4 * N);
    const flags = new Uint32Array(N).fill(0xdeadbeef);
    const stores = poisoned(N);
    const { gpu, cpu } = await both({
      kernel: id('roundTrip'),
      range: [N],
      args: { cells, stores, xs, ys, zs, out, flags },
    });
    const exchanged = [...xs].map((x, i) => bitsOf(x) === bitsOf(ys[i]!));
    expect(exchanged[0]).toBe(false);
    expect(exchanged[1]).toBe(true);
    for (const [side, run] of [
      ['gpu', gpu],
      ['interpreter', cpu],
    ] as const) {
      const o = f32s(run.accessors.out);
      expectSameF32(
        o,
        [...cells].flatMap((c, i) => [c, c, xs[i]!, zs[i]!]),
        `${side} out`,
      );
      expect([...new Uint32Array(run.accessors.flags!)], `${side} flags`).toEqual(
        exchanged.map(Number),
      );
      expectSameF32(
        f32s(run.accessors.cells),
        [...xs].map((x, i) => (exchanged[i] ? zs[i]! : x)),
        `${side} cells`,
      );
      expectSameF32(f32s(run.accessors.stores), [...zs], `${side} stores`);
      expect(
        u32s(run.accessors.out).filter((x) => x === POISON_BITS),
        `${side} poison`,
      ).toEqual([]);
    }
  });

  test.each([
    ['equal bits', 2.5, 2.5, true],
    ['-0 is not +0', -0, 0, false],
    ['+0 is not -0', 0, -0, false],
    ['the same NaN', Number.NaN, Number.NaN, true],
    ['-Infinity', -Infinity, -Infinity, true],
  ] as const)('on a device global: %s', async (_name, held, compare, swaps) => {
    const [a, b] = values('floats', 2, 8);
    const xs = Float32Array.of(held, compare, a!, b!);
    const start = Float32Array.of(values('integers', 1, 9)[0]!);
    const out = poisoned(4);
    const flags = new Uint32Array(1).fill(0xdeadbeef);
    const { gpu, cpu } = await both({
      kernel: id('globalRoundTrip'),
      range: [1],
      args: { xs, out, flags },
      deviceGlobals: { [id('cell')]: start },
    });
    for (const run of [gpu, cpu]) {
      const after = swaps ? a! : held;
      expectSameF32(f32s(run.accessors.out), [start[0]!, start[0]!, held, after], 'out');
      expect(new Uint32Array(run.accessors.flags!)[0]).toBe(Number(swaps));
      expectSameF32(f32s(run.deviceGlobals[id('cell')]), [b!], 'cell');
    }
  });
});

test('workgroup memory: sums, min and max per group, then exchange and compare-exchange', async () => {
  const GROUPS = 4;
  const N = 64 * GROUPS;
  const xs = values('specials', N, 11);
  // Group 0 and 1 sum small integers only (exact); 2 and 3 hold the specials.
  xs.set(values('integers', 128, 12), 0);
  const inits = new Float32Array(4 * GROUPS);
  for (let g = 0; g < GROUPS; g++) {
    const [s, d] = values('integers', 2, 13 + g);
    inits.set([s!, d!, g % 2 ? Number.NaN : Infinity, g % 2 ? -Infinity : -0], 4 * g);
  }
  const out = poisoned(12 * GROUPS);
  const { gpu, cpu } = await both({
    kernel: id('grouped'),
    range: [N],
    local: [64],
    args: { xs, inits, out },
  });
  for (const [side, run] of [
    ['gpu', gpu],
    ['interpreter', cpu],
  ] as const) {
    const o = f32s(run.accessors.out);
    for (let g = 0; g < GROUPS; g++) {
      const t = [...xs.slice(64 * g, 64 * (g + 1))];
      const at = o.slice(12 * g, 12 * g + 12);
      const low = t.reduce((m, x) => minMax('min', m, x), inits[4 * g + 2]!);
      const high = t.reduce((m, x) => minMax('max', m, x), inits[4 * g + 3]!);
      expectSameF32(at.slice(2, 4), [low, high], `${side} group ${g} min/max`);
      if (g < 2) {
        const sum = t.reduce((s, x) => s + x, inits[4 * g]!);
        const diff = t.reduce((s, x) => s - x, inits[4 * g + 1]!);
        expectSameF32(at.slice(0, 2), [sum, diff], `${side} group ${g} sums`);
        expectSameF32([at[4]!], [sum], `${side} group ${g} exchange`);
      }
      // Exchanged 2 in; compare-exchange 2 → -0.5 succeeds, then 2 → 7 fails and sees -0.5.
      expectSameF32(at.slice(5, 10), [2, 1, -0.5, 0, -0.5], `${side} group ${g} round trip`);
      const words = u32s(run.accessors.out).slice(12 * g + 10, 12 * g + 12);
      expect(words, `${side} unwritten`).toEqual([POISON_BITS, POISON_BITS]);
    }
  }
});

test('the WGSL holds the f32 bits in atomic<u32>, each helper printed once per address space', () => {
  const wgsl = program.images[0]!.wgsl.native!;
  expect(wgsl).not.toContain('atomic<f32>');
  for (const helper of [
    'H_atomicAdd_f32_storage',
    'H_atomicSub_f32_storage',
    'H_atomicMin_f32_storage',
    'H_atomicMax_f32_storage',
    'H_atomicCompareExchangeWeak_f32_storage',
    'H_atomicAdd_f32_workgroup',
    'H_atomicSub_f32_workgroup',
    'H_atomicMin_f32_workgroup',
    'H_atomicMax_f32_workgroup',
    'H_atomicCompareExchangeWeak_f32_workgroup',
  ]) {
    expect(wgsl.split(`fn ${helper}(`).length - 1, helper).toBe(1);
  }
  expect(wgsl).toContain('var<workgroup> ');
  expect(wgsl).toMatch(/var<workgroup> \w+: array<atomic<u32>, 4u>;/);
  expect(wgsl).toContain('bitcast<f32>(atomicExchange(');
  expect(wgsl).toContain('atomicStore(&');
});

describe('docs/device-code.md, "Atomics"', () => {
  const docs = readFileSync(new URL('../../../../docs/device-code.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('## Atomics'), docs.indexOf('## Limits'));

  test('the helper it shows is the one printed', () => {
    const shown = /```wgsl\n([\s\S]*?)```/.exec(section)![1]!.trimEnd();
    expect(program.images[0]!.wgsl.native).toContain(shown);
  });

  test('its per-work-group sum runs: one f32 atomicAdd per group', async () => {
    const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const module = 'src/sum.sycl.ts';
    const source = `import { accessor, atomic, atomicAdd, deviceGlobal, f32, kernel, u32, workgroupArray } from '@syclts/dsl';\n${example}`;
    const sumLinked = linkSources({ [module]: source });
    const sumProgram = emitProgram(sumLinked, { validateIr: true });
    const N = 256 * 8;
    const xs = Float32Array.from(randomU32(N, 21), (x) => (x % 2001) - 1000);
    const launch = {
      kernel: `${module}#sum`,
      range: [N],
      local: [256],
      args: { xs },
      deviceGlobals: { [`${module}#total`]: Float32Array.of(0.5) },
    };
    const gpu = await runKernel(sumProgram, launch as Launch);
    const cpu = interpretKernel(sumLinked.images, launch);
    const expected = xs.reduce((s, x) => s + x, 0.5);
    for (const run of [gpu, cpu])
      expect(f32s(run.deviceGlobals[`${module}#total`])).toEqual([expected]);
  });
});

describe('f32 atomics in every place and shape the language allows', () => {
  const module = 'src/shapes.sycl.ts';
  const source = `
import {
  accessor, atomic, atomicAdd, atomicCompareExchangeWeak, atomicExchange, atomicLoad, atomicMax,
  atomicMin, atomicStore, atomicSub, deviceFunction, deviceGlobal, f32, kernel, specializationId,
  struct, u32, wgsl, workgroupArray,
} from '@syclts/dsl';

const Range = struct({ lo: atomic(f32), hi: atomic(f32) });
export const cell = deviceGlobal(atomic(f32), {}, 0.25);
export const ranges = deviceGlobal(Range);
export const gain = specializationId(f32, 2);

const bump = deviceFunction({ args: [f32], returns: f32 }, (x) => atomicAdd(cell, x));
// Raw WGSL sees the bits: an atomic<u32>.
const peek = deviceFunction({ args: [], returns: f32 }, () => wgsl\`return bitcast<f32>(atomicLoad(&\${cell}));\`);

export const shapes = kernel(
  { ndRange: 1, workgroupSize: [4], args: { rs: accessor(Range, 'read_write'), out: accessor(f32, 'write') },
    local: { w: workgroupArray(struct({ s: atomic(f32), n: atomic(u32) }), 2) } },
  (item, kh, { rs, out }, { w }) => {
    const i = item.getGlobalId(0);
    const l = item.getLocalId(0);
    const x = f32(i) * kh.getSpecializationConstant(gain);
    atomicMin(rs[0]!.lo, x);
    atomicMax(rs[0]!.hi, x);
    atomicMin(ranges.value.lo, -x);
    atomicMax(ranges.value.hi, -x);
    atomicAdd(w[l % 2]!.s, x);
    atomicAdd(w[l % 2]!.n, 1);
    bump(1);
    item.barrier();
    // Atomics in a branch of ?:, after && (short-circuiting), in a for update, as a member's base.
    out[i * 4] = l === 0 ? atomicLoad(w[0]!.s) : atomicSub(w[1]!.s, 0.5);
    if (l > 1 && atomicExchange(w[1]!.s, 3) > 100) {
      out[i * 4] = -1;
    }
    let k = 0;
    for (; k < 2; atomicAdd(rs[1]!.hi, 0.5)) {
      k++;
    }
    out[i * 4 + 1] = atomicCompareExchangeWeak(rs[1]!.lo, 123, 4).old_value;
    item.barrier();
    if (l === 0) {
      atomicStore(rs[1]!.lo, atomicLoad(cell));
    }
    out[i * 4 + 2] = f32(atomicLoad(w[0]!.n));
    out[i * 4 + 3] = 1;
  });

// The interpreter runs no raw WGSL: this one runs on the adapter only.
export const peekCell = kernel({ range: 1, args: { out: accessor(f32, 'write') } }, (item, _kh, { out }) => {
  out[item.getId(0)] = peek();
});
`;

  test.each(['native', 'emulated'] as const)(
    '%s: builds, runs on the adapter, agrees with the interpreter',
    async (mode) => {
      const shapesLinked = linkSources({ [module]: source }, 'both');
      const shapesProgram = emitProgram(shapesLinked, { validateIr: true });
      const rs = Float32Array.of(Infinity, -Infinity, 123, 0);
      const out = poisoned(16);
      const launch = {
        kernel: `${module}#shapes`,
        mode,
        range: [4],
        args: { rs, out },
        specConstants: { [`${module}#gain`]: 1.5 },
        deviceGlobals: {
          [`${module}#cell`]: Float32Array.of(0.25),
          [`${module}#ranges`]: Float32Array.of(Infinity, -Infinity),
        },
      };
      const gpu = await runKernel(shapesProgram, launch as Launch);
      const cpu = interpretKernel(shapesLinked.images, launch);
      for (const [side, run] of [
        ['gpu', gpu],
        ['interpreter', cpu],
      ] as const) {
        // Four items of x = 0, 1.5, 3, 4.5: four bumps of 1 from 0.25; min and max of -x
        // (-0 for the first); min and max of x; eight for-updates adding 0.5 from 0; the
        // compare-exchanged word stored over with the cell.
        expectSameF32(f32s(run.deviceGlobals[`${module}#cell`]), [4.25], `${side} cell`);
        expectSameF32(f32s(run.deviceGlobals[`${module}#ranges`]), [-4.5, -0], `${side} ranges`);
        expectSameF32(f32s(run.accessors.rs), [0, 4.5, 4.25, 4], `${side} rs`);
        // Item 0 reads w[0].s (0 + 3); every item sees two adds on w[0].n, and writes 1.
        const o = f32s(run.accessors.out);
        expectSameF32(
          [o[0]!, ...[2, 6, 10, 14].map((j) => o[j]!), ...[3, 7, 11, 15].map((j) => o[j]!)],
          [3, 2, 2, 2, 2, 1, 1, 1, 1],
          `${side} out`,
        );
        expect(
          u32s(run.accessors.out).filter((x) => x === POISON_BITS),
          `${side} poison`,
        ).toEqual([]);
      }
      const peeked = await runKernel(shapesProgram, {
        kernel: `${module}#peekCell`,
        mode,
        range: [2],
        args: { out: poisoned(2) },
        deviceGlobals: { [`${module}#cell`]: Float32Array.of(-2.5) },
      });
      expectSameF32(f32s(peeked.accessors.out).slice(0, 2), [-2.5, -2.5], 'peek');
    },
  );
});
