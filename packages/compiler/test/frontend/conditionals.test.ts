/**
 * `c ? a : b` evaluates one branch, as in JavaScript: a branch with side effects runs only where
 * it is taken, and branches of any type (structs, arrays) choose, where WGSL's `select` would
 * evaluate both or not compile. `&&`/`||` keep short-circuiting around such branches, and every
 * operand is evaluated once, in the order written.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/build.js';
import { buildProgram, type Program, runKernel } from './gpu.js';

const MODULE = 'cond/conditionals.sycl.ts';
const SOURCE = `
import { accessor, atomic, atomicAdd, atomicLoad, deviceFunction, deviceGlobal, f32, kernel, struct, array, u32 } from '@syclts/dsl';

const Pair = struct({ a: u32, b: f32 });
export const calls = deviceGlobal(atomic(u32));
const bump = deviceFunction({ args: [u32], returns: u32 }, (x) => atomicAdd(calls, 1) + x);
const pick = deviceFunction({ args: [u32], returns: u32 }, (x) => {
  atomicAdd(calls, 100);
  return x;
});

export const effectBranch = kernel(
  { range: 1, args: { out: accessor(u32, 'write'), count: accessor(atomic(u32), 'read_write'), k: u32 } },
  (item, _kh, { out, count, k }) => {
    const i = item.getId(0);
    out[i] = i === k ? atomicAdd(count[0]!, 1) + 1000 : 7;
  });

export const effectCall = kernel(
  { range: 1, args: { out: accessor(u32, 'write'), k: u32 } },
  (item, _kh, { out, k }) => {
    const i = item.getId(0);
    const v = i < k ? bump(i) * 0 + i : pick(i + 1);
    out[i] = v;
  });

export const structs = kernel(
  { range: 1, args: { out: accessor(f32, 'write'), k: u32 } },
  (item, _kh, { out, k }) => {
    const i = item.getId(0);
    const p = i % 2 === 0 ? Pair({ a: i, b: 0.5 }) : Pair({ a: k, b: 2.5 });
    const arr = i < k ? [f32(1), f32(2), f32(3)] : [f32(10), f32(20), f32(30)];
    out[i] = f32(p.a) + p.b + arr[i % 3]!;
  });

export const shortCircuit = kernel(
  { range: 1, args: { out: accessor(u32, 'write'), k: u32 } },
  (item, _kh, { out, k }) => {
    const i = item.getId(0);
    let n = u32(0);
    while (i < k && (i % 3 === 0 ? pick(n) < 2 : n < 1)) { n++; }
    out[i] = n;
  });

export const ordered = kernel(
  { range: 1, args: { out: accessor(u32, 'write'), k: u32 } },
  (item, _kh, { out, k }) => {
    const i = item.getId(0);
    const before = atomicLoad(calls);
    out[i] = atomicLoad(calls) - before + (i === k ? pick(0) : 0);
  });
`;

let program: Program;
beforeAll(() => {
  program = buildProgram({ [MODULE]: SOURCE });
});

const POISON = 0xdeadbeef;
const id = (name: string) => `${MODULE}#${name}`;
const N = 40 + (randomU32(1, 77)[0]! % 40);
const K = randomU32(1, 78)[0]! % N;

describe('?: with side effects evaluates the taken branch only', () => {
  test('an atomic in one branch adds once, for the one item that takes it', async () => {
    const out = new Uint32Array(N).fill(POISON);
    const start = randomU32(1, 79)[0]! % 1000;
    const r = await runKernel(program, {
      kernel: id('effectBranch'),
      range: [N],
      args: { out, count: new Uint32Array([start]), k: K },
    });
    expect(new Uint32Array(r.accessors.count!)[0]).toBe(start + 1);
    const got = new Uint32Array(r.accessors.out!);
    expect(Array.from(got)).toEqual(
      Array.from({ length: N }, (_, i) => (i === K ? start + 1000 : 7)),
    );
  });

  test('device functions with effects run only in the branch taken', async () => {
    const out = new Uint32Array(N).fill(POISON);
    const r = await runKernel(program, {
      kernel: id('effectCall'),
      range: [N],
      args: { out, k: K },
      deviceGlobals: { [id('calls')]: new Uint32Array([3]) },
    });
    expect(Array.from(new Uint32Array(r.accessors.out!))).toEqual(
      Array.from({ length: N }, (_, i) => (i < K ? i : i + 1)),
    );
    // bump adds 1 for each of the K items below k, pick 100 for each of the others.
    expect(new Uint32Array(r.deviceGlobals[id('calls')]!)[0]).toBe(3 + K + 100 * (N - K));
  });
});

test('?: chooses between structs and arrays', async () => {
  const out = new Float32Array(N).fill(Number.NaN);
  const r = await runKernel(program, { kernel: id('structs'), range: [N], args: { out, k: K } });
  const expected = Array.from({ length: N }, (_, i) => {
    const p = i % 2 === 0 ? { a: i, b: 0.5 } : { a: K, b: 2.5 };
    const arr = i < K ? [1, 2, 3] : [10, 20, 30];
    return Math.fround(Math.fround(p.a + p.b) + arr[i % 3]!);
  });
  expect(Array.from(new Float32Array(r.accessors.out!))).toEqual(expected);
});

test('&& does not evaluate a right operand whose conditional has effects', async () => {
  const out = new Uint32Array(N).fill(POISON);
  const r = await runKernel(program, {
    kernel: id('shortCircuit'),
    range: [N],
    args: { out, k: K },
    deviceGlobals: { [id('calls')]: new Uint32Array([0]) },
  });
  // Items below k loop while their test holds: pick(n) < 2 twice for multiples of 3, n < 1 once.
  const expected = Array.from({ length: N }, (_, i): number => (i < K ? (i % 3 === 0 ? 2 : 1) : 0));
  expect(Array.from(new Uint32Array(r.accessors.out!))).toEqual(expected);
  const picks = expected.reduce((s, n, i) => s + (i < K && i % 3 === 0 ? n + 1 : 0), 0);
  expect(new Uint32Array(r.deviceGlobals[id('calls')]!)[0]).toBe(100 * picks);
});

test('operands before a hoisted branch are evaluated first', async () => {
  const out = new Uint32Array(1).fill(POISON);
  const r = await runKernel(program, {
    kernel: id('ordered'),
    range: [1],
    args: { out, k: 0 },
    deviceGlobals: { [id('calls')]: new Uint32Array([5]) },
  });
  // atomicLoad(calls) is read before pick(0) adds 100: the difference is 0, not 100.
  expect(new Uint32Array(r.accessors.out!)[0]).toBe(0);
});

test('select over a struct is refused at its call, with the conditional as the way out', () => {
  const source = `import { f32, kernel, accessor, select, struct, u32 } from '@syclts/dsl';
const P = struct({ a: f32 });
export const k = kernel({ range: 1, args: { out: accessor(f32, 'write') } }, (item, _kh, { out }) => {
  const p = select(P({ a: 1 }), P({ a: 2 }), item.getId(0) > 3);
  out[item.getId(0)] = p.a;
});`;
  const { program: built, diagnostics } = build([{ module: 'src/s.sycl.ts', source }]);
  expect(built).toBeNull();
  expect(diagnostics[0]).toMatchObject({ code: 'SYCL1012', span: { line: 4, column: 13 } });
  expect(diagnostics[0]!.message).toContain('write c ? a : b');
});

test('a for update whose conditional has effects is refused, with a hint', () => {
  const source = `import { accessor, deviceFunction, kernel, u32 } from '@syclts/dsl';
const f = deviceFunction({ args: [u32], returns: u32 }, (x) => x + 1);
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  for (let i = u32(0); i < 4; i = i > 1 ? f(i) : i + 1) { out[i] = i; }
});`;
  const { program: built, diagnostics } = build([{ module: 'src/f.sycl.ts', source }]);
  expect(built).toBeNull();
  expect(diagnostics[0]).toMatchObject({ code: 'SYCL1010', span: { line: 4, column: 31 } });
  expect(diagnostics[0]!.hint).toBe('move the update to the end of the loop body');
});
