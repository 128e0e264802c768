/**
 * Every statement form the front end accepts lowers completely: each kernel below uses one form
 * (a `for` update of each expression kind among them) and writes a value that only that form's
 * effect produces. A form dropped from the WGSL leaves the poisoned output, or a wrong count.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { buildProgram, type Program, runKernel } from './gpu.js';

const MODULE = 'forms/statements.sycl.ts';
const SOURCE = `
import {
  accessor, atomic, atomicAdd, deviceFunction, deviceGlobal, f32, i32, kernel, u32, workgroupArray,
} from '@syclts/dsl';

export const calls = deviceGlobal(atomic(u32));
const bump = deviceFunction({ args: [] }, () => {
  atomicAdd(calls, 1);
});
const twice = deviceFunction({ args: [u32], returns: u32 }, (x) => x * 2);

export const postIncrement = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let s = u32(0); for (let i = u32(0); i < n; i++) { s += i; } out[item.getId(0)] = s; });
export const preIncrement = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let s = u32(0); for (let i = u32(0); i < n; ++i) { s += i; } out[item.getId(0)] = s; });
export const decrement = kernel({ range: 1, args: { out: accessor(i32, 'write'), n: i32 } },
  (item, _kh, { out, n }) => { let s = 0; for (let i = n; i > 0; i--) { s += i; } out[item.getId(0)] = s; });
export const compound = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let s = u32(0); for (let i = u32(0); i < n; i += 3) { s += i; } out[item.getId(0)] = s; });
export const plainAssign = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let s = u32(0); for (let i = u32(1); i < n; i = i * 2) { s += i; } out[item.getId(0)] = s; });
export const floatStep = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let s = u32(0); for (let x = 0.5; x < f32(n); x++) { s += 1; } out[item.getId(0)] = s; });
export const callUpdate = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let s = u32(0); for (let i = u32(0); i < n; bump()) { s += 1; i++; } out[item.getId(0)] = s; });
export const atomicUpdate = kernel({ range: 1, args: { out: accessor(u32, 'write'), count: accessor(atomic(u32), 'read_write'), n: u32 } },
  (item, _kh, { out, count, n }) => { let s = u32(0); for (let i = u32(0); i < n; atomicAdd(count[0]!, 2)) { s += 1; i++; } out[item.getId(0)] = s; });
export const barrierUpdate = kernel(
  { ndRange: 1, workgroupSize: [4], args: { out: accessor(u32, 'write'), n: u32 }, local: { shared: workgroupArray(u32, 4) } },
  (item, _kh, { out, n }, { shared }) => {
    const l = item.getLocalId(0);
    shared[l] = 0;
    for (let i = u32(0); i < n; item.barrier()) { if (l === 0) { shared[i % 4] += 1; } i++; }
    out[item.getGlobalId(0)] = shared[l]!;
  });
export const noInit = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let i = u32(0); let s = u32(0); for (; i < n; i++) { s += 2; } out[item.getId(0)] = s; });
export const assignInit = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let i = u32(9); let s = u32(0); for (i = 0; i < n; i++) { s += 1; } out[item.getId(0)] = s + i * 100; });
export const noCondition = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let s = u32(0); for (let i = u32(0); ; i++) { if (i >= n) { break; } s += 1; } out[item.getId(0)] = s; });
export const whileContinue = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let i = u32(0); let s = u32(0); while (i < n) { i++; if (i % 2 === 0) { continue; } s += i; } out[item.getId(0)] = s; });
export const blockAndIf = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { let s = u32(1); { const t = n + 1; if (t > 5) { s = t; } else { s = 0; } } out[item.getId(0)] = s; });
export const earlyReturn = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => { out[item.getId(0)] = 7; if (n > 2) { return; } out[item.getId(0)] = 8; });
export const callStatement = kernel({ range: 1, args: { out: accessor(u32, 'write'), count: accessor(atomic(u32), 'read_write'), n: u32 } },
  (item, _kh, { out, count, n }) => { bump(); bump(); atomicAdd(count[0]!, 1); out[item.getId(0)] = twice(n); });
`;

let program: Program;
beforeAll(() => {
  program = buildProgram({ [MODULE]: SOURCE });
});

const POISON = 0xdeadbeef;
const id = (name: string) => `${MODULE}#${name}`;
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
const upTo = (n: number, step = 1) =>
  Array.from({ length: Math.ceil(n / step) }, (_, k) => k * step);

/** Runs a one-item kernel with `n`; returns its output and the atomic counter. */
async function runOne(kernel: string, n: number, withCount = false) {
  const out = new Uint32Array(1).fill(POISON);
  const count = new Uint32Array(1).fill(5);
  const result = await runKernel(program, {
    kernel: id(kernel),
    range: [1],
    args: withCount ? { out, count, n } : { out, n },
    deviceGlobals: { [id('calls')]: new Uint32Array([100]) },
  });
  const calls = result.deviceGlobals[id('calls')];
  return {
    out: new Uint32Array(result.accessors.out!)[0]!,
    count: withCount ? new Uint32Array(result.accessors.count!)[0]! : null,
    calls: calls ? new Uint32Array(calls)[0]! : null,
  };
}

// A fresh n per run (replayable by its seed), large enough that every loop runs several times.
const n = 5 + (randomU32(1, 91)[0]! % 20);
console.log(`[syclts] statement forms: n=${n}`);

describe('for loops keep their update, whatever its expression kind', () => {
  test.each([
    ['postIncrement', sum(upTo(n))],
    ['preIncrement', sum(upTo(n))],
    ['compound', sum(upTo(n, 3))],
    ['plainAssign', sum([1, 2, 4, 8, 16, 32].filter((x) => x < n))],
    ['floatStep', n],
    ['noInit', 2 * n],
    ['assignInit', n + n * 100],
    ['noCondition', n],
  ])('%s', async (kernel, expected) => {
    expect((await runOne(kernel, n)).out).toBe(expected);
  });

  test('decrement (i32)', async () => {
    const out = new Int32Array(1).fill(-1);
    const result = await runKernel(program, {
      kernel: id('decrement'),
      range: [1],
      args: { out, n },
    });
    expect(new Int32Array(result.accessors.out!)[0]).toBe(sum(upTo(n + 1)));
  });

  test('a device function call as the update runs once per iteration', async () => {
    expect(await runOne('callUpdate', n)).toEqual({ out: n, count: null, calls: 100 + n });
  });

  test('an atomic call as the update runs once per iteration', async () => {
    expect(await runOne('atomicUpdate', n, true)).toMatchObject({ out: n, count: 5 + 2 * n });
  });

  test('a barrier as the update keeps the loop', async () => {
    const out = new Uint32Array(4).fill(POISON);
    const result = await runKernel(program, {
      kernel: id('barrierUpdate'),
      range: [4],
      local: [4],
      args: { out, n },
    });
    const expected = [0, 1, 2, 3].map((l) => upTo(n).filter((i) => i % 4 === l).length);
    expect(Array.from(new Uint32Array(result.accessors.out!))).toEqual(expected);
  });
});

describe('the other statement forms', () => {
  test('while with continue', async () => {
    const odd = upTo(n + 1).filter((i) => i > 0 && i % 2 === 1);
    expect((await runOne('whileContinue', n)).out).toBe(sum(odd));
  });

  test('blocks, if/else, const', async () => {
    expect((await runOne('blockAndIf', n)).out).toBe(n + 1);
    expect((await runOne('blockAndIf', 2)).out).toBe(0);
  });

  test('early return', async () => {
    expect((await runOne('earlyReturn', n)).out).toBe(7);
    expect((await runOne('earlyReturn', 1)).out).toBe(8);
  });

  test('call statements', async () => {
    expect(await runOne('callStatement', n, true)).toEqual({ out: 2 * n, count: 6, calls: 102 });
  });
});
