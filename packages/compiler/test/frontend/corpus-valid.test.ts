/**
 * The valid corpus: every module under test/corpus/valid compiles, links and emits WGSL that
 * Dawn accepts, and each kernel (with the device functions it calls) computes what the
 * reference below computes in JavaScript.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { compileModule } from '../../src/index.js';
import { buildProgram, type Launch, type Program, prng, runKernel } from './gpu.js';

const dir = new URL('../corpus/valid/', import.meta.url);
const sources: Record<string, string> = {};
for (const f of readdirSync(dir)
  .filter((f) => f.endsWith('.sycl.ts'))
  .sort()) {
  sources[`valid/${f}`] = readFileSync(new URL(f, dir), 'utf8');
}

let program: Program;
beforeAll(() => {
  program = buildProgram(sources);
});

const id = (module: string, name: string) => `valid/${module}.sycl.ts#${name}`;
const POISON = 0xdeadbeef;

function run(launch: Launch) {
  return runKernel(program, launch);
}
const u32s = (buf: ArrayBuffer | undefined) => Array.from(new Uint32Array(buf!));
const i32s = (buf: ArrayBuffer | undefined) => Array.from(new Int32Array(buf!));
const f32s = (buf: ArrayBuffer | undefined) => Array.from(new Float32Array(buf!));
const poisonedU32 = (n: number) => new Uint32Array(n).fill(POISON);
const poisonedF32 = (n: number) => new Float32Array(n).fill(Number.NaN);
const fr = Math.fround;

function expectClose(actual: readonly number[], expected: readonly number[], tolerance = 1e-5) {
  expect(actual).toHaveLength(expected.length);
  for (const [i, e] of expected.entries()) {
    const a = actual[i]!;
    if (Math.abs(a - e) > tolerance * Math.max(1, Math.abs(e))) {
      expect.fail(`element ${i}: ${a} is not within ${tolerance} of ${e}`);
    }
  }
}

function randomInts(rand: () => number, n: number, lo: number, hi: number): number[] {
  return Array.from({ length: n }, () => lo + Math.floor(rand() * (hi - lo + 1)));
}
function randomFloats(rand: () => number, n: number, lo: number, hi: number): number[] {
  return Array.from({ length: n }, () => fr(lo + rand() * (hi - lo)));
}

/** WGSL i32 division and remainder: no trap on zero or overflow. */
const idiv = (x: number, y: number) =>
  y === 0 ? x : x === -(2 ** 31) && y === -1 ? x : Math.trunc(x / y) | 0;
const irem = (x: number, y: number) =>
  y === 0 ? 0 : x === -(2 ** 31) && y === -1 ? 0 : (x % y) | 0;

test('every valid corpus module compiles and links to WGSL Dawn accepts', () => {
  const withKernels = Object.entries(sources)
    .filter(([, text]) => text.includes('= kernel('))
    .map(([module]) => module);
  expect(program.images.map((i) => i.id)).toEqual(withKernels);
  const kernels = program.images.flatMap((i) => Object.keys(i.kernels));
  expect(kernels.length).toBeGreaterThanOrEqual(33);
});

describe('integers and control flow', () => {
  test('scale: a specialization constant, default and set', async () => {
    const n = 100;
    const byDefault = await run({
      kernel: id('scale', 'scale'),
      range: [n],
      args: { out: poisonedU32(n) },
    });
    expect(u32s(byDefault.accessors.out)).toEqual(Array.from({ length: n }, (_, i) => 7 * i));
    const set = await run({
      kernel: id('scale', 'scale'),
      range: [n],
      args: { out: poisonedU32(n) },
      specConstants: { [id('scale', 'factor')]: 3 },
    });
    expect(u32s(set.accessors.out)).toEqual(Array.from({ length: n }, (_, i) => 3 * i));
  });

  test('intOps: i32 wrap-around, division, remainder, shifts and bit operators', async () => {
    const rand = prng(11);
    const n = 64;
    const a = randomInts(rand, n, -(2 ** 31), 2 ** 31 - 1);
    const b = randomInts(rand, n, -1000, 1000);
    a[0] = -(2 ** 31);
    b[0] = -1;
    a[1] = 2 ** 31 - 1;
    const r = await run({
      kernel: id('integers', 'intOps'),
      range: [n],
      args: {
        a: Int32Array.from(a),
        b: Int32Array.from(b),
        out: new Int32Array(n * 8).fill(POISON | 0),
      },
    });
    const expected = a.flatMap((x, i) => {
      const y = b[i]!;
      return [
        (x + Math.imul(y, 3)) | 0,
        Math.imul(x, y),
        idiv(x, y | 1),
        irem(x, y | 1),
        (x << 3) ^ (y >> 2),
        ~x & (y | 0xff),
        (-x - 2147483647) | 0,
        x >> (y & 31),
      ];
    });
    expect(i32s(r.accessors.out)).toEqual(expected);
  });

  test('uintOps: u32 hashing with >>> and compound assignments', async () => {
    const rand = prng(12);
    const n = 50;
    const a = randomInts(rand, n, 0, 2 ** 32 - 1);
    const salt = 0x5bd1e995;
    const r = await run({
      kernel: id('integers', 'uintOps'),
      range: [n],
      args: { a: Uint32Array.from(a), out: poisonedU32(n), salt },
    });
    const expected = a.map((x, i) => {
      let h = (x ^ salt) >>> 0;
      h = Math.imul(h, 2654435761) >>> 0;
      h = (h ^ (h >>> 16)) >>> 0;
      h = (h + 0x9e3779b9) >>> 0;
      h = (h - i) >>> 0;
      h = (h << 1) >>> 0;
      h = (h | 1) >>> 0;
      return h % 1000003;
    });
    expect(u32s(r.accessors.out)).toEqual(expected);
  });

  test('increments: ++ and -- on integers and floats', async () => {
    const n = 20;
    const r = await run({
      kernel: id('integers', 'increments'),
      range: [n],
      args: { out: new Int32Array(n).fill(-7) },
    });
    expect(i32s(r.accessors.out)).toEqual(Array.from({ length: n }, (_, i) => (i + 2) * 10 + 3));
  });

  test('collatz: while, if/else and break', async () => {
    const rand = prng(13);
    const n = 40;
    const seeds = randomInts(rand, n, 1, 1000);
    const limit = 50;
    const r = await run({
      kernel: id('control', 'collatz'),
      range: [n],
      args: { seeds: Uint32Array.from(seeds), steps: poisonedU32(n), limit },
    });
    const expected = seeds.map((s) => {
      let x = s;
      let c = 0;
      while (x !== 1 && c < limit) {
        x = x % 2 === 0 ? x / 2 : 3 * x + 1;
        c++;
      }
      return c;
    });
    expect(u32s(r.accessors.steps)).toEqual(expected);
  });

  test('loops: nested for, continue and early return', async () => {
    const n = 20;
    const r = await run({
      kernel: id('control', 'loops'),
      range: [24],
      args: { out: new Int32Array(24).fill(-5), n },
    });
    expect(i32s(r.accessors.out)).toEqual(
      Array.from({ length: 24 }, (_, i) => (i < n ? (33 * i * (i + 1)) / 2 : -5)),
    );
  });

  test('logic: &&, ||, !, comparisons and nested ternaries', async () => {
    const rand = prng(14);
    const a = [...randomInts(rand, 60, -200, 200), 7, 100, -100, 0];
    const r = await run({
      kernel: id('control', 'logic'),
      range: [a.length],
      args: { a: Int32Array.from(a), out: new Int32Array(a.length).fill(-1) },
    });
    const expected = a.map((x) => {
      const positive = x > 0;
      const even = (x & 1) === 0;
      const big = x >= 100 || x <= -100;
      return positive && even ? 1 : !positive && !even ? 2 : big ? 3 : x !== 7 ? 4 : 5;
    });
    expect(i32s(r.accessors.out)).toEqual(expected);
  });

  test('grid2 and grid3: multi-dimensional basic ranges', async () => {
    const r2 = await run({
      kernel: id('ranges', 'grid2'),
      range: [5, 7],
      args: { out: poisonedU32(35) },
    });
    expect(u32s(r2.accessors.out)).toEqual(
      Array.from({ length: 35 }, (_, k) => Math.floor(k / 7) * 1000 + (k % 7) + 7_000_000),
    );
    const r3 = await run({
      kernel: id('ranges', 'grid3'),
      range: [3, 4, 5],
      args: { out: poisonedU32(60) },
    });
    expect(u32s(r3.accessors.out)).toEqual(
      Array.from({ length: 60 }, (_, k) => {
        const x = Math.floor(k / 20);
        const y = Math.floor(k / 5) % 4;
        const z = k % 5;
        return x * 10000 + y * 100 + z + 1_000_000;
      }),
    );
  });

  test('bits: integer bit built-ins, Math.clz32 and Math.imul', async () => {
    const rand = prng(15);
    const a = [...randomInts(rand, 30, 0, 2 ** 32 - 1), 0, 1, 0x80000000];
    const r = await run({
      kernel: id('extras', 'bits'),
      range: [a.length],
      args: { a: Uint32Array.from(a), out: poisonedU32(a.length * 6) },
    });
    const popcount = (x: number) => x.toString(2).replaceAll('0', '').length;
    const reverse = (x: number) =>
      Number.parseInt(x.toString(2).padStart(32, '0').split('').reverse().join(''), 2);
    const expected = a.flatMap((x) => [
      popcount(x),
      reverse(x),
      Math.clz32(x) + Math.clz32(x >>> 4) * 100,
      x === 0 ? 0xffffffff : 31 - Math.clz32(x),
      x === 0 ? 0xffffffff : 31 - Math.clz32(x & -x),
      Math.imul(x | 0, -3) >>> 0,
    ]);
    expect(u32s(r.accessors.out)).toEqual(expected);
  });

  test('flags: bool locals', async () => {
    const rand = prng(16);
    const a = randomInts(rand, 40, 0, 100);
    for (const strict of [0, 1]) {
      const r = await run({
        kernel: id('extras', 'flags'),
        range: [a.length],
        args: { a: Uint32Array.from(a), out: poisonedU32(a.length), strict },
      });
      const expected = a.map((x) => {
        const even = x % 2 === 0;
        return (strict ? even && x < 50 : even || x < 50) ? 1 : 0;
      });
      expect(u32s(r.accessors.out)).toEqual(expected);
    }
  });
});

describe('floats, vectors and matrices', () => {
  test('floatOps: Math.* and DSL built-ins on f32', async () => {
    const rand = prng(21);
    const n = 48;
    const x = randomFloats(rand, n, -5, 5);
    const r = await run({
      kernel: id('floats', 'floatOps'),
      range: [n],
      args: { x: Float32Array.from(x), out: poisonedF32(n * 8) },
    });
    const expected = x.flatMap((v) => [
      Math.sqrt(Math.abs(v)) + Math.SQRT2,
      Math.floor(v * 3) - Math.ceil(v / 3),
      Math.floor(v + 0.5),
      Math.min(v, 0.25, -v) + Math.max(v, 1),
      Math.abs(v) ** 1.5 + Math.PI,
      (v * 2 + 0.5) * Math.min(1, Math.max(-1, v)),
      v * 0.75 + 10 * 0.25 + Math.trunc(fr(v * 7)) / 7,
      v > 0 ? Math.exp(v * 0.1) : Math.sin(v) + Math.cos(v),
    ]);
    // WGSL only bounds sin/cos to an absolute error of 2^-11 on [-π, π].
    expectClose(f32s(r.accessors.out), expected, 1e-3);
  });

  test('transcendental: trigonometric, hyperbolic, exponential built-ins', async () => {
    const rand = prng(22);
    const x = randomFloats(rand, 32, -2, 2);
    const r = await run({
      kernel: id('extras', 'transcendental'),
      range: [32],
      args: { x: Float32Array.from(x), out: poisonedF32(128) },
    });
    const expected = x.flatMap((v) => [
      Math.atan2(v, 1.5) + Math.atan(v),
      Math.tanh(v) * Math.cosh(v * 0.5),
      2 ** v + Math.log2(Math.abs(v) + 1),
      Math.log(Math.abs(v) + 2) * Math.tan(v * 0.25),
    ]);
    expectClose(f32s(r.accessors.out), expected, 1e-4);
  });

  test('pixels: RGBA8 unpacked, scaled and packed again; bytes swapped to BGRA', async () => {
    const rand = prng(24);
    const n = 64;
    const px = Uint32Array.from({ length: n }, () => Math.floor(rand() * 2 ** 32) >>> 0);
    px.set([0, 0xffffffff, 0x80402010]);
    // 0.8 · k/255 scaled back by 255 is never within f32 rounding of a half step.
    const gain = 0.8;
    const r = await run({
      kernel: id('extras', 'pixels'),
      range: [n],
      args: { px, out: poisonedU32(n * 2), gain },
    });
    const bytes = (p: number) => [0, 8, 16, 24].map((k) => (p >>> k) & 0xff);
    const word = (b: readonly number[]) =>
      (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
    const expected = Array.from(px, (p) => {
      const [r8, g8, b8, a8] = bytes(p);
      const scaled = [r8!, g8!, b8!].map((k) =>
        Math.floor(0.5 + 255 * Math.min(1, fr(fr(k / 255) * fr(gain)))),
      );
      return [word([...scaled, a8!]), word([b8!, g8!, r8!, a8!])];
    }).flat();
    expect(u32s(r.accessors.out)).toEqual(expected);
  });

  type V = number[];
  const vadd = (a: V, b: V) => a.map((x, i) => x + b[i]!);
  const vsub = (a: V, b: V) => a.map((x, i) => x - b[i]!);
  const vdot = (a: V, b: V) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  const vlen = (a: V) => Math.sqrt(vdot(a, a));

  test('vectorOps: add/sub/mul, swizzles, cross, dot, normalize, length', async () => {
    const rand = prng(23);
    const n = 16;
    const a = randomFloats(rand, n * 4, -3, 3);
    const b = randomFloats(rand, n * 4, -3, 3);
    const k = 1.25;
    const r = await run({
      kernel: id('vectors', 'vectorOps'),
      range: [n],
      args: { a: Float32Array.from(a), b: Float32Array.from(b), out: poisonedF32(n * 4), k },
    });
    const expected = Array.from({ length: n }, (_, i) => {
      const u = a.slice(i * 4, i * 4 + 4);
      const v = b.slice(i * 4, i * 4 + 4);
      const s = vadd(
        u.slice(0, 3).map((x) => x * k),
        [v[2]!, v[1]!, v[0]!],
      );
      const nu = u.slice(0, 3).map((x) => x / vlen(u.slice(0, 3)));
      const w = vsub(v.slice(0, 3), [1, 2, 3]);
      const c = [
        nu[1]! * w[2]! - nu[2]! * w[1]!,
        nu[2]! * w[0]! - nu[0]! * w[2]!,
        nu[0]! * w[1]! - nu[1]! * w[0]!,
      ];
      return [...vadd(s, c), vdot(u, v) + vlen(v.slice(0, 2))];
    }).flat();
    expectClose(f32s(r.accessors.out), expected, 1e-4);
  });

  test('swizzles: component writes, comparisons, select, all, any', async () => {
    const rand = prng(24);
    const n = 32;
    const a = randomFloats(rand, n * 4, -1, 3);
    const r = await run({
      kernel: id('vectors', 'swizzles'),
      range: [n],
      args: { a: Float32Array.from(a), out: poisonedF32(n * 4) },
    });
    const expected = Array.from({ length: n }, (_, i) => {
      const src = a.slice(i * 4, i * 4 + 4);
      const v = [src[3]!, src[2]!, src[1]!, src[0]!];
      v[0] = fr(v[1]! + 1);
      v[2] = fr(v[0]! * 2);
      const positive = v.map((x) => x > 0);
      const picked = v.map((x, j) => (positive[j] ? x : -1));
      if (positive.every(Boolean)) return [picked[0]!, picked[1]!, 100, 100];
      return positive.some(Boolean) ? picked : v.map((x) => -x);
    }).flat();
    expectClose(f32s(r.accessors.out), expected);
  });

  test('intVectors: integer vectors with scalars and splats', async () => {
    const n = 10;
    const k = -3;
    const r = await run({
      kernel: id('vectors', 'intVectors'),
      range: [n],
      args: { out: new Int32Array(n * 2).fill(99), k },
    });
    const expected = Array.from({ length: n }, (_, i) => [i * k + 3 - 14, -i * k + 3 - 16]).flat();
    expect(i32s(r.accessors.out)).toEqual(expected);
  });

  test('matrices: construction, products, transpose, determinant', async () => {
    const rand = prng(25);
    const n = 8;
    const cols = randomFloats(rand, n * 9, -2, 2);
    const m = new Float32Array(n * 12);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++)
        for (let r = 0; r < 3; r++) m[i * 12 + c * 4 + r] = cols[i * 9 + c * 3 + r]!;
    }
    const vs = randomFloats(rand, n * 4, -2, 2);
    const r = await run({
      kernel: id('matrices', 'matrices'),
      range: [n],
      args: { m, v: Float32Array.from(vs), out: poisonedF32(n * 8) },
    });
    const expected = Array.from({ length: n }, (_, i) => {
      const a = (c: number, row: number) => cols[i * 9 + c * 3 + row]!;
      const x = vs.slice(i * 4, i * 4 + 3);
      const y = [0, 1, 2].map((row) => a(0, row) * x[0]! + a(1, row) * x[1]! + a(2, row) * x[2]!);
      const t12 = [0, 1, 2].reduce((s, k) => s + a(2, k) * a(1, k), 0);
      const det =
        a(0, 0) * (a(1, 1) * a(2, 2) - a(2, 1) * a(1, 2)) -
        a(1, 0) * (a(0, 1) * a(2, 2) - a(2, 1) * a(0, 2)) +
        a(2, 0) * (a(0, 1) * a(1, 2) - a(1, 1) * a(0, 2));
      const z = [x[0]! + 3 * x[1]!, 2 * x[0]! + 4 * x[1]!];
      return [...y, t12, det, x[2]! * 3 + a(2, 0), z[0]! - z[1]!, -8];
    }).flat();
    expectClose(f32s(r.accessors.out), expected, 1e-4);
  });

  test('rotatePoints: a device function over a matrix', async () => {
    const rand = prng(26);
    const n = 16;
    const p = randomFloats(rand, n * 2, -2, 2);
    const angle = 0.3;
    const r = await run({
      kernel: id('extras', 'rotatePoints'),
      range: [n],
      args: { p: Float32Array.from(p), out: poisonedF32(n * 2), angle },
    });
    const expected = Array.from({ length: n }, (_, i) => {
      const t = fr(angle * i);
      const [x, y] = [p[i * 2]!, p[i * 2 + 1]!];
      return [Math.cos(t) * x - Math.sin(t) * y, Math.sin(t) * x + Math.cos(t) * y];
    }).flat();
    expectClose(f32s(r.accessors.out), expected, 2e-3);
  });

  test('transform: a 4x4 matrix, atomics on device-global fields through .value', async () => {
    const rand = prng(28);
    const n = 20;
    const p = randomFloats(rand, n * 4, -3, 3);
    const m = randomFloats(rand, 16, -2, 2);
    const r = await run({
      kernel: id('extras', 'transform'),
      range: [n],
      args: { p: Float32Array.from(p), m: Float32Array.from(m), out: poisonedF32(n * 4) },
      deviceGlobals: { [id('extras', 'events')]: Int32Array.from([5, -1000]) },
    });
    const results = Array.from({ length: n }, (_, i) =>
      [0, 1, 2, 3].map((row) =>
        [0, 1, 2, 3].reduce((s, c) => s + m[c * 4 + row]! * p[i * 4 + c]!, 0),
      ),
    );
    expectClose(f32s(r.accessors.out), results.flat(), 1e-4);
    const events = i32s(r.deviceGlobals[id('extras', 'events')]);
    expect(events[0]).toBe(5 + n);
    expect(events[1]).toBe(Math.max(-1000, ...results.map((v) => Math.floor(v[3]!))));
  });

  test('conversions: scalar and vector conversions, bit casts', async () => {
    const rand = prng(27);
    const n = 32;
    const x = randomFloats(rand, n, -50, 50);
    const r = await run({
      kernel: id('conversions', 'conversions'),
      range: [n],
      args: { x: Float32Array.from(x), out: poisonedU32(n * 6) },
    });
    const bits = (f: number) => new Uint32Array(Float32Array.of(f).buffer)[0]!;
    const expected = x.flatMap((v, i) => [
      Math.trunc(fr(Math.abs(v) * 10)),
      (Math.trunc(fr(v * 3)) + 100) >>> 0,
      bits(v),
      (i % 2) + 10,
      bits(1 + i),
      (2 * Math.trunc(v) + 1000) >>> 0,
    ]);
    expect(u32s(r.accessors.out)).toEqual(expected);
  });
});

describe('composites, specialization constants, globals, atomics', () => {
  test('integrate: struct accessors, struct value argument, object literals', async () => {
    const rand = prng(31);
    const n = 12;
    const data = new ArrayBuffer(n * 24);
    const f = new Float32Array(data);
    const u = new Uint32Array(data);
    const src = Array.from({ length: n }, (_, i) => ({
      p: randomFloats(rand, 2, -5, 5),
      v: randomFloats(rand, 2, -5, 5),
      m: fr(1 + rand()),
      id: i * 7,
    }));
    for (const [i, s] of src.entries()) {
      f.set([...s.p, ...s.v, s.m], i * 6);
      u[i * 6 + 5] = s.id;
    }
    const step = { dt: 0.25, gravity: 9.5 };
    const r = await run({
      kernel: id('structs', 'integrate'),
      range: [n],
      args: { ps: new Float32Array(data), step },
    });
    const out = new Float32Array(r.accessors.ps!);
    const outU = new Uint32Array(r.accessors.ps!);
    for (const [i, s] of src.entries()) {
      const vy = fr(s.v[1]! - fr(step.gravity * step.dt));
      expectClose(Array.from(out.slice(i * 6, i * 6 + 5)), [
        s.p[0]! + s.v[0]! * step.dt,
        s.p[1]! + vy * step.dt,
        -s.v[0]!,
        vy,
        s.m * 2,
      ]);
      expect(outU[i * 6 + 5]).toBe(s.id + 1000);
    }
  });

  test('nested: nested struct locals written field by field', async () => {
    const r = await run({
      kernel: id('structs', 'nested'),
      range: [9],
      args: { out: poisonedU32(9) },
    });
    expect(u32s(r.accessors.out)).toEqual(Array.from({ length: 9 }, (_, i) => (3 * i + 5) * 3));
  });

  test('localArrays and arrayOfArrays: local arrays indexed dynamically', async () => {
    const n = 12;
    const r = await run({
      kernel: id('arrays', 'localArrays'),
      range: [n],
      args: { out: poisonedF32(n) },
    });
    expectClose(
      f32s(r.accessors.out),
      Array.from({ length: n }, (_, i) => 4 * i + 60 * i + 250 * i + (i % 5 === 2 ? -1 : 2.5) + 5),
    );
    const r2 = await run({
      kernel: id('arrays', 'arrayOfArrays'),
      range: [n],
      args: { out: poisonedU32(n) },
    });
    expect(u32s(r2.accessors.out)).toEqual(
      Array.from({ length: n }, (_, i) => {
        const row1 = [4, 5, 6];
        row1[i % 3] = i;
        return [1, 2, 3][i % 3]! + row1[(i + 1) % 3]! * 100 + n * 10000;
      }),
    );
  });

  test('constantTables: top-level constant arrays and objects in device code', async () => {
    const n = 15;
    const r = await run({
      kernel: id('arrays', 'constantTables'),
      range: [n],
      args: { out: poisonedF32(n) },
    });
    const primes = [2, 3, 5, 7, 11];
    expectClose(
      f32s(r.accessors.out),
      Array.from(
        { length: n },
        (_, i) => primes[i % 5]! * 100 + [0.5, 0.25, 0.125][i % 3]! + 10 + 5,
      ),
    );
  });

  test('conv3x3: CP015 convolution with composite coefficients, default and set', async () => {
    const rand = prng(32);
    const [w, h] = [13, 9];
    const src = randomFloats(rand, w * h, 0, 1);
    const reference = (c: number[]) =>
      Array.from({ length: w * h }, (_, k) => {
        const [y, x] = [Math.floor(k / w), k % w];
        let acc = 0;
        for (let dy = 0; dy < 3; dy++) {
          for (let dx = 0; dx < 3; dx++) {
            const sy = Math.min(Math.max(y + dy - 1, 0), h - 1);
            const sx = Math.min(Math.max(x + dx - 1, 0), w - 1);
            acc += c[dy * 3 + dx]! * src[sy * w + sx]!;
          }
        }
        return acc;
      });
    const launch = {
      kernel: id('specconsts', 'conv3x3'),
      range: [h, w],
      args: { src: Float32Array.from(src), dst: poisonedF32(w * h), width: w, height: h },
    };
    const blur = await run(launch);
    expectClose(
      f32s(blur.accessors.dst),
      reference([1, 2, 1, 2, 4, 2, 1, 2, 1].map((x) => x / 16)),
    );
    const sharpen = [0, -1, 0, -1, 5, -1, 0, -1, 0];
    const set = await run({
      ...launch,
      args: { ...launch.args, dst: poisonedF32(w * h) },
      specConstants: { [id('specconsts', 'coeffs')]: sharpen },
    });
    expectClose(f32s(set.accessors.dst), reference(sharpen), 1e-4);
    const { object } = compileModule(sources['valid/specconsts.sycl.ts']!, {
      module: 'valid/specconsts.sycl.ts',
      loadImport: (_from, specifier) => ({
        module: 'valid/mathlib.sycl.ts',
        source: sources[`valid/${specifier.slice(2)}`]!,
      }),
    });
    expect(object?.specConstants.find((c) => c.name === 'sharpen')?.defaultValue).toEqual(sharpen);
  });

  test('tuned: struct, bool and scalar specialization constants with folded and zero defaults', async () => {
    const rand = prng(33);
    const n = 16;
    const x = randomFloats(rand, n, -3, 3);
    const base = { kernel: id('specconsts', 'tuned'), range: [n] };
    const r = await run({ ...base, args: { x: Float32Array.from(x), out: poisonedF32(n) } });
    const image = program.images.find((i) => i.id === 'valid/specconsts.sycl.ts')!;
    expect(image.specConstants[id('specconsts', 'tuning')]!.defaultValue).toEqual({
      gain: 3,
      offset: [0.25, -0.5],
      enabled: true,
      steps: 3,
    });
    expect(image.specConstants[id('specconsts', 'threshold')]!.defaultValue).toBe(-15);
    expect(image.specConstants[id('specconsts', 'noDefault')]!.defaultValue).toBe(0);
    expect(image.specConstants[id('specconsts', 'flag')]!.defaultValue).toBe(false);
    expectClose(
      f32s(r.accessors.out),
      x.map((v0) => {
        let v = v0;
        for (let s = 0; s < 3; s++) v = v * 3 + 0.25 + 0.5;
        return v > -15 ? v * 2 : -15;
      }),
      1e-4,
    );
    const set = await run({
      ...base,
      args: { x: Float32Array.from(x), out: poisonedF32(n) },
      specConstants: {
        [id('specconsts', 'tuning')]: { gain: 1, offset: [0, 0], enabled: false, steps: 9 },
        [id('specconsts', 'threshold')]: 1,
        [id('specconsts', 'noDefault')]: 5,
        [id('specconsts', 'flag')]: true,
      },
    });
    expectClose(
      f32s(set.accessors.out),
      x.map((v) => (v > 1 ? v * 2 : 1) + 1005),
    );
  });

  test('useFunctions: device functions across modules, raw WGSL, a void function', async () => {
    const rand = prng(34);
    const n = 24;
    const x = randomFloats(rand, n, 0, 1);
    const r = await run({
      kernel: id('functions', 'useFunctions'),
      range: [n],
      args: { x: Float32Array.from(x), out: poisonedF32(n * 4) },
    });
    expectClose(
      f32s(r.accessors.out),
      x.flatMap((v) => [
        10 * v,
        1 + v * v * (3 - 2 * v),
        0.2126 * v + 0.7152 * 2 * v + 0.0722,
        v * 2 + 0.5,
      ]),
      1e-4,
    );
    expect(u32s(r.deviceGlobals[id('mathlib', 'calls')])[0]).toBe(3 * n);
  });

  test('countInside: type aliases, local and imported', async () => {
    const rand = prng(35);
    const n = 40;
    const spheres = new Float32Array(n * 4);
    for (let i = 0; i < n; i++)
      spheres.set([...randomFloats(rand, 3, -1, 1), fr(0.2 + rand() * 1.3)], i * 4);
    const p = 0.125;
    const r = await run({
      kernel: id('aliases', 'countInside'),
      range: [n],
      args: { spheres, out: poisonedU32(n), p },
    });
    const expected = Array.from({ length: n }, (_, i) => {
      const [cx, cy, cz, rad] = Array.from(spheres.slice(i * 4, i * 4 + 4));
      const d = (p - cx!) ** 2 + (p - cy!) ** 2 + (p - cz!) ** 2;
      return d <= rad! * rad! ? 1 : 0;
    });
    expect(u32s(r.accessors.out)).toEqual(expected);
    expect(expected).toContain(0);
    expect(expected).toContain(1);
  });

  test('valueArgs: vector and struct value arguments', async () => {
    const n = 10;
    const r = await run({
      kernel: id('extras', 'valueArgs'),
      range: [n],
      args: {
        out: poisonedF32(n),
        offset: [1.5, -2],
        light: { color: [1, 7, 3], intensity: 0.5 },
        scale: -4,
      },
    });
    expectClose(
      f32s(r.accessors.out),
      Array.from({ length: n }, (_, i) => i * 1.5 - 2 + 3.5 - 4 * i),
    );
  });

  test('maskedCounts: a raw-WGSL function with its own locals', async () => {
    const rand = prng(36);
    const a = randomInts(rand, 20, 0, 2 ** 32 - 1);
    const r = await run({
      kernel: id('extras', 'maskedCounts'),
      range: [20],
      args: { a: Uint32Array.from(a), out: poisonedU32(20) },
    });
    const popcount = (x: number) => (x >>> 0).toString(2).replaceAll('0', '').length;
    expect(u32s(r.accessors.out)).toEqual(a.map((x) => popcount(x & 0x0f0f0f0f) + (x >>> 24)));
  });

  test('accumulate: device globals counted atomically, indexed and written by field', async () => {
    const rand = prng(37);
    const n = 64;
    const x = randomFloats(rand, n, -4, 4);
    const table0 = randomFloats(rand, 8, 0, 1);
    const r = await run({
      kernel: id('globals', 'accumulate'),
      range: [n],
      args: { x: Float32Array.from(x), out: poisonedU32(n) },
      deviceGlobals: { [id('globals', 'table')]: Float32Array.from(table0) },
    });
    expect(u32s(r.accessors.out)).toEqual(Array(n).fill(1));
    expect(u32s(r.deviceGlobals[id('globals', 'total')])[0]).toBe(n);
    expectClose(
      f32s(r.deviceGlobals[id('globals', 'table')]),
      table0.map((t, i) => x[i]! * 2 + t),
    );
    const stats = r.deviceGlobals[id('globals', 'stats')]!;
    expect(new Uint32Array(stats)[0]).toBe(42);
    expect(new Float32Array(stats)[1]).toBe(x[3]);
  });

  test('histogram: atomicAdd on an atomic accessor', async () => {
    const rand = prng(38);
    const values = randomInts(rand, 500, 0, 1000);
    const r = await run({
      kernel: id('atomics', 'histogram'),
      range: [values.length],
      args: { values: Uint32Array.from(values), bins: new Uint32Array(10), binCount: 10 },
    });
    const expected = Array(10).fill(0);
    for (const v of values) expected[v % 10]++;
    expect(u32s(r.accessors.bins)).toEqual(expected);
  });

  test('extremes: i32 atomics, exchange and compare-exchange', async () => {
    const rand = prng(39);
    const values = randomInts(rand, 100, -5000, 5000);
    const r = await run({
      kernel: id('atomics', 'extremes'),
      range: [values.length],
      args: {
        values: Int32Array.from(values),
        acc: Int32Array.from([-1e6, 1e6, 0, 100, 0, 12345, 0]),
      },
    });
    const acc = i32s(r.accessors.acc);
    expect(acc.slice(0, 6)).toEqual([
      Math.max(...values),
      Math.min(...values),
      values.reduce((o, v) => o | (v & 0xff), 0),
      100 - values.length,
      5,
      0,
    ]);
  });
});

describe('nd-range kernels', () => {
  test('ndQueries: every nd-item query in two dimensions', async () => {
    const r = await run({
      kernel: id('ndrange', 'ndQueries'),
      range: [4, 8],
      local: [2, 4],
      args: { out: poisonedU32(32 * 6) },
    });
    const expected = Array.from({ length: 32 }, (_, g) => {
      const [row, col] = [Math.floor(g / 8), g % 8];
      return [
        row * 100 + col,
        (row % 2) * 100 + (col % 4),
        Math.floor(row / 2) * 100 + Math.floor(col / 4),
        204,
        202,
        (row % 2) * 4 + (col % 4) + 4000 + 800000,
      ];
    }).flat();
    expect(u32s(r.accessors.out)).toEqual(expected);
  });

  test('reduce: workgroup memory, barriers and a workgroup atomic', async () => {
    const rand = prng(41);
    const n = 256;
    const x = randomFloats(rand, n, -1, 1);
    const r = await run({
      kernel: id('ndrange', 'reduce'),
      range: [n],
      local: [64],
      args: { x: Float32Array.from(x), sums: poisonedF32(4) },
    });
    expectClose(
      f32s(r.accessors.sums),
      [0, 1, 2, 3].map((g) => x.slice(g * 64, g * 64 + 64).reduce((s, v) => s + v, 0) + 64000),
      1e-5,
    );
  });

  test('matmul: CP015 blocked multiply, block size as a specialization constant', async () => {
    const rand = prng(42);
    const n = 8;
    const a = randomFloats(rand, n * n, -1, 1);
    const b = randomFloats(rand, n * n, -1, 1);
    const expected = Array.from({ length: n * n }, (_, k) => {
      const [row, col] = [Math.floor(k / n), k % n];
      let s = 0;
      for (let j = 0; j < n; j++) s += a[row * n + j]! * b[j * n + col]!;
      return s;
    });
    for (const block of [4, 2]) {
      const r = await run({
        kernel: id('ndrange', 'matmul'),
        range: [n, n],
        local: [block, block],
        args: { a: Float32Array.from(a), b: Float32Array.from(b), c: poisonedF32(n * n), n },
        specConstants: block === 4 ? {} : { [id('ndrange', 'blockSize')]: block },
      });
      expectClose(f32s(r.accessors.c), expected, 1e-4);
    }
  });
});
