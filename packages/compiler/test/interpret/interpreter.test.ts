/**
 * The interpreter against the adapter on the rules WGSL fixes: each kernel runs both ways on the
 * same fresh inputs (edge values among them), every output must agree bit for bit (float
 * built-ins within the accuracy WGSL grants), and the key rules are checked against hand-computed
 * values too, so that a rule both sides got wrong the same way still fails.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { BUILTINS } from '../../src/builtins/overloads.js';
import type { LinkResult } from '../../src/index.js';
import { emitProgram } from '../../src/index.js';
import {
  INTERPRETED_BUILTINS,
  InterpretError,
  type InterpretLaunch,
  interpretKernel,
} from '../../src/interpret/index.js';
import { type Launch, linkSources, type Program, runKernel } from '../frontend/gpu.js';

const MODULE = 'interp/rules.sycl.ts';
const SOURCE = `
import {
  accessor, array, atomic, atomicAdd, atomicCompareExchangeWeak, atomicMax, atomicMin, atomicOr,
  bool, countLeadingZeros, countOneBits, countTrailingZeros, deviceFunction, deviceGlobal, f32,
  firstLeadingBit, firstTrailingBit, i32, kernel, mat2x2f, mul, reverseBits, specializationId,
  struct, u32, vec2f, workgroupArray, bitcastU32, exp2, fract, inverseSqrt, round,
} from '@syclts/dsl';

const Pair = struct({ n: i32, on: bool });
export const flag = deviceGlobal(bool);
export const pairs = deviceGlobal(array(Pair, 2));
export const scale = specializationId(i32, 3);

const bump = deviceFunction({ args: [array(i32, 3)], returns: i32 }, (xs) => {
  const ws = xs;
  ws[0] = ws[0]! + 100;
  return ws[0]! + ws[1]!;
});

export const integers = kernel(
  { range: 1, args: { ai: accessor(i32, 'read'), bi: accessor(i32, 'read'), su: accessor(u32, 'read'), out: accessor(u32, 'write') } },
  (item, kh, { ai, bi, su, out }) => {
    const i = item.getId(0);
    const a = ai[i]!;
    const b = bi[i]!;
    const s = su[i]!;
    const u = u32(a);
    const v = u32(b);
    const o = i * 12;
    out[o] = u32(a / b);
    out[o + 1] = u32(a % b);
    out[o + 2] = u / v;
    out[o + 3] = u % v;
    out[o + 4] = u32(a << s);
    out[o + 5] = u32(a >> s);
    out[o + 6] = u >> s;
    out[o + 7] = u32(a * b + kh.getSpecializationConstant(scale));
    out[o + 8] = u32(-a);
    out[o + 9] = u32(Math.abs(a));
    out[o + 10] = u32(Math.imul(a, b) - Math.min(a, b));
    out[o + 11] = u32(~a) ^ (u - v);
  });

export const conversions = kernel(
  { range: 1, args: { cf: accessor(f32, 'read'), out: accessor(u32, 'write') } },
  (item, _kh, { cf, out }) => {
    const i = item.getId(0);
    const x = cf[i]!;
    out[i * 4] = u32(i32(x));
    out[i * 4 + 1] = u32(x);
    out[i * 4 + 2] = u32(bool(x));
    out[i * 4 + 3] = bitcastU32(Math.floor(x) + Math.trunc(x) * Math.ceil(x));
  });

export const bits = kernel(
  { range: 1, args: { su: accessor(u32, 'read'), out: accessor(u32, 'write') } },
  (item, _kh, { su, out }) => {
    const i = item.getId(0);
    const u = su[i]!;
    const a = i32(u);
    out[i * 8] = countOneBits(u);
    out[i * 8 + 1] = reverseBits(u);
    out[i * 8 + 2] = countLeadingZeros(u);
    out[i * 8 + 3] = countTrailingZeros(u);
    out[i * 8 + 4] = firstLeadingBit(u);
    out[i * 8 + 5] = u32(firstLeadingBit(a));
    out[i * 8 + 6] = firstTrailingBit(u);
    out[i * 8 + 7] = Math.clz32(u >> 3);
  });

export const floats = kernel(
  { range: 1, args: { cf: accessor(f32, 'read'), out: accessor(f32, 'write') } },
  (item, _kh, { cf, out }) => {
    const i = item.getId(0);
    const x = cf[i]!;
    out[i * 8] = Math.sqrt(Math.abs(x));
    out[i * 8 + 1] = Math.sin(x);
    out[i * 8 + 2] = Math.exp(x / 8);
    out[i * 8 + 3] = exp2(x / 8);
    out[i * 8 + 4] = fract(x);
    out[i * 8 + 5] = inverseSqrt(Math.abs(x) + 1);
    out[i * 8 + 6] = round(x * 2);
    out[i * 8 + 7] = x / 3;
  });

export const composites = kernel(
  { range: 1, args: { ai: accessor(i32, 'read'), out: accessor(i32, 'write') } },
  (item, _kh, { ai, out }) => {
    const i = item.getId(0);
    const xs = [ai[i]!, i32(i), 7];
    const ys = xs;
    ys[1] = 50;
    const sum = bump(xs);
    const m = mat2x2f(vec2f(1, 2), vec2f(3, f32(i)));
    const r = mul(m, vec2f(2, 1));
    const p = Pair({ n: xs[1]!, on: i > 1 });
    const q = p;
    q.n = 9;
    out[i * 6] = xs[0]!;
    out[i * 6 + 1] = ys[1]!;
    out[i * 6 + 2] = sum;
    out[i * 6 + 3] = i32(r.x * 10 + r.y);
    out[i * 6 + 4] = p.n;
    out[i * 6 + 5] = q.on ? q.n : -q.n;
  });

export const globals = kernel(
  { range: 1, args: { ai: accessor(i32, 'read') } },
  (item, _kh, { ai }) => {
    const i = item.getId(0);
    if (i === 0) {
      flag.value = ai[0]! > 3;
      pairs.value[1] = { n: ai[1]!, on: !pairs.value[0]!.on };
    }
  });

export const shared = kernel(
  { ndRange: 2, workgroupSize: [2, 4], args: { out: accessor(u32, 'write'), hits: accessor(atomic(u32), 'read_write') }, local: { tile: workgroupArray(u32, 8) } },
  (item, _kh, { out, hits }, { tile }) => {
    const l = item.getLocalLinearId();
    tile[l] = item.getGlobalLinearId() * 10 + item.getGroup(0) + item.getGroup(1) * 100;
    item.barrier();
    out[item.getGlobalLinearId()] = tile[7 - l]! + item.getLocalId(1) * 1000;
    atomicAdd(hits[0]!, l + 1);
    atomicMax(hits[1]!, item.getGlobalLinearId());
    atomicMin(hits[2]!, item.getGlobalLinearId() + 5);
    atomicOr(hits[3]!, u32(1) << item.getLocalId(1));
    if (item.getGlobalLinearId() === 3) {
      const r = atomicCompareExchangeWeak(hits[4]!, 11, 12);
      out[32] = r.exchanged ? r.old_value : 99;
    }
  });

export const outOfBounds = kernel(
  { range: 1, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => {
    out[item.getId(0) + 4] = 1;
  });
`;

// Outside uniform control flow: the link step refuses it, as Dawn would.
const NON_UNIFORM = `
import { accessor, kernel, u32 } from '@syclts/dsl';
export const nonUniform = kernel(
  { ndRange: 1, workgroupSize: [4], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => {
    if (out[item.getLocalId(0)]! > 3) {
      item.barrier();
    }
    out[item.getLocalId(0)] = 1;
  });
`;

let linked: LinkResult;
let program: Program;
beforeAll(() => {
  linked = linkSources({ [MODULE]: SOURCE });
  program = emitProgram(linked, { validateIr: true });
});

const id = (name: string) => `${MODULE}#${name}`;
const POISON = 0xdeadbeef;

/** Runs the launch on the adapter and on the interpreter (each on its own copy of the inputs). */
async function both(launch: InterpretLaunch) {
  const gpu = await runKernel(program, launch as Launch);
  const cpu = interpretKernel(linked.images, launch);
  return { gpu, cpu };
}

const words = (b: ArrayBuffer | undefined) => [...new Uint32Array(b!)];
const I32_MIN = -(2 ** 31);

describe('integer rules', () => {
  test('division and remainder by zero and of MIN by -1, masked shifts, wrapping', async () => {
    const r = randomU32(24, 1);
    const n = 8;
    const ai = Int32Array.of(I32_MIN, I32_MIN, 7, -7, 5, r[0]! | 0, r[1]! | 0, -1);
    const bi = Int32Array.of(-1, 0, 0, 2, -3, r[2]! | 0, (r[3]! % 9) - 4, 3);
    const su = Uint32Array.of(32, 33, 31, 0, 100, r[4]!, r[5]! % 40, 1);
    const out = new Uint32Array(n * 12).fill(POISON);
    const { gpu, cpu } = await both({
      kernel: id('integers'),
      range: [n],
      args: { ai, bi, su, out },
      specConstants: { [id('scale')]: (r[6]! % 1000) - 500 },
    });
    expect(words(cpu.accessors.out)).toEqual(words(gpu.accessors.out));
    const o = new Int32Array(cpu.accessors.out!);
    expect([o[0], o[1]]).toEqual([I32_MIN, 0]); // MIN / -1, MIN % -1
    expect([o[12], o[13], o[14], o[15]]).toEqual([I32_MIN, 0, I32_MIN, 0]); // x / 0 == x, x % 0 == 0
    expect(o[4]).toBe(I32_MIN); // MIN << (32 % 32)
    expect(o[12 + 4]).toBe(0); // MIN << (33 % 32)
    expect(o[24 + 5]).toBe(0); // 7 >> 31
  });

  test('integer built-ins on edge and random values', async () => {
    const su = Uint32Array.of(0, 1, 0xffffffff, 0x80000000, 0x7fffffff, ...randomU32(11, 2));
    const out = new Uint32Array(su.length * 8).fill(POISON);
    const { gpu, cpu } = await both({ kernel: id('bits'), range: [su.length], args: { su, out } });
    expect(words(cpu.accessors.out)).toEqual(words(gpu.accessors.out));
    const o = words(cpu.accessors.out);
    expect(o.slice(0, 8)).toEqual([0, 0, 32, 32, 0xffffffff, 0xffffffff, 0xffffffff, 32]);
    expect(o.slice(16, 24)).toEqual([32, 0xffffffff, 0, 0, 31, 0xffffffff, 0, 3]);
  });
});

test('float-to-integer conversions saturate; floor, trunc, ceil round exactly', async () => {
  const r = randomU32(8, 3);
  const cf = Float32Array.of(
    3e9,
    -3e9,
    2.75,
    -2.75,
    0,
    4294967040,
    2147483520,
    ...[...r].map((x) => Math.fround((x / 2 ** 32 - 0.5) * 2 ** ((x % 40) - 8))),
  );
  const out = new Uint32Array(cf.length * 4).fill(POISON);
  const { gpu, cpu } = await both({
    kernel: id('conversions'),
    range: [cf.length],
    args: { cf, out },
  });
  expect(words(cpu.accessors.out)).toEqual(words(gpu.accessors.out));
  const o = words(cpu.accessors.out);
  expect(o.slice(0, 3)).toEqual([2 ** 31 - 128, 3e9, 1]);
  expect(o.slice(4, 7)).toEqual([I32_MIN >>> 0, 0, 1]);
  expect(o.slice(12, 14)).toEqual([-2 >>> 0, 0]);
});

test('float built-ins agree within the accuracy WGSL grants', async () => {
  const cf = Float32Array.from(randomU32(32, 4), (x) => Math.fround((x / 2 ** 32 - 0.5) * 40));
  const out = new Float32Array(cf.length * 8).fill(Number.NaN);
  const { gpu, cpu } = await both({ kernel: id('floats'), range: [cf.length], args: { cf, out } });
  const g = new Float32Array(gpu.accessors.out!);
  const c = new Float32Array(cpu.accessors.out!);
  // sqrt and exp: a few ULP; sin: absolute 2^-11 on [-pi, pi], more outside; x / 3: 2.5 ULP.
  const allowed = [2 ** -21, 2 ** -9, 2 ** -20, 2 ** -20, 0, 2 ** -21, 0, 2 ** -22];
  for (let k = 0; k < c.length; k++) {
    const tol = allowed[k % 8]! * Math.max(1, Math.abs(c[k]!));
    expect(Math.abs(g[k]! - c[k]!), `output ${k}: gpu ${g[k]}, cpu ${c[k]}`).toBeLessThanOrEqual(
      tol,
    );
  }
  expect(c[6]).toBe(roundHalfEven(Math.fround(cf[0]! * 2)));
});

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

test('arrays and structs are values; matrices multiply column-major', async () => {
  const ai = Int32Array.from(randomU32(4, 5), (x) => (x % 1000) - 500);
  const out = new Int32Array(4 * 6).fill(POISON | 0);
  const { gpu, cpu } = await both({ kernel: id('composites'), range: [4], args: { ai, out } });
  expect(words(cpu.accessors.out)).toEqual(words(gpu.accessors.out));
  const o = new Int32Array(cpu.accessors.out!);
  // xs keeps ai[2] (ys and the callee's parameter are copies); sum = ai[2] + 100 + 2.
  expect([...o.slice(12, 18)]).toEqual([ai[2]!, 50, ai[2]! + 102, 5 * 10 + 6, 2, 9]);
});

test('bool in device globals is stored as u32 and read back as bool', async () => {
  const r = randomU32(1, 6);
  const ai = Int32Array.of(5, (r[0]! % 1000) + 1);
  const start = Uint32Array.of(1, 17, 0, 0);
  const { gpu, cpu } = await both({
    kernel: id('globals'),
    range: [1],
    args: { ai },
    deviceGlobals: { [id('flag')]: Uint32Array.of(0xdead), [id('pairs')]: start },
  });
  for (const g of ['flag', 'pairs']) {
    expect(words(cpu.deviceGlobals[id(g)])).toEqual(words(gpu.deviceGlobals[id(g)]));
  }
  expect(words(cpu.deviceGlobals[id('flag')])).toEqual([1]);
  expect(words(cpu.deviceGlobals[id('pairs')])).toEqual([1, 17, ai[1]!, 0]);
});

test('a 2-D workgroup exchanges through workgroup memory across a barrier; atomics sum', async () => {
  const out = new Uint32Array(33).fill(POISON);
  const hits = Uint32Array.of(randomU32(1, 7)[0]! >>> 4, 0, 1000, 0, 11);
  const { gpu, cpu } = await both({
    kernel: id('shared'),
    range: [4, 8],
    args: { out, hits },
  });
  expect(words(cpu.accessors.out)).toEqual(words(gpu.accessors.out));
  expect(words(cpu.accessors.hits)).toEqual(words(gpu.accessors.hits));
  const h = words(cpu.accessors.hits);
  expect(h.slice(1)).toEqual([31, 5, 15, 12]);
  expect(h[0]).toBe((hits[0]! + 4 * 36) >>> 0);
  expect(words(cpu.accessors.out)[32]).toBe(11);
});

describe('what WGSL leaves undefined is an error with its position', () => {
  test('a barrier that only some items of a workgroup reach never gets to run', () => {
    expect(() => linkSources({ [MODULE]: NON_UNIFORM })).toThrow(/\[SYCL2020\]/);
  });

  test('group functions: the work-group arrives, and each item gets its result', () => {
    const module = 'interp/joint.sycl.ts';
    const joint = linkSources({
      [module]: `
import { accessor, exclusiveScanOverGroup, f32, groupBarrier, jointInclusiveScan, jointReduce, kernel, plus, workgroupArray } from '@syclts/dsl';
export const scan = kernel(
  { ndRange: 1, workgroupSize: [4], args: { out: accessor(f32, 'write') },
    local: { xs: workgroupArray(f32, 6) } },
  (item, _kh, { out }, local) => {
    const g = item.getGroup();
    const l = item.getLocalId(0);
    local.xs[l] = f32(l + 1);
    if (l < 2) { local.xs[l + 4] = f32(l + 5); }
    groupBarrier(g);
    jointInclusiveScan(g, local.xs, local.xs, plus);
    out[l] = local.xs[l]! + jointReduce(g, local.xs, plus) * 100;
    if (l < 2) { out[l + 4] = local.xs[l + 4]!; }
    out[l + 6] = exclusiveScanOverGroup(g, f32(l + 1), plus);
  });
`,
    });
    const out = new Float32Array(10).fill(Number.NaN);
    const { accessors } = interpretKernel(joint.images, {
      kernel: `${module}#scan`,
      range: [4],
      args: { out },
    });
    // Scanned in place: 1 3 6 10 15 21, their sum 56; the items' exclusive prefix sums 0 1 3 6.
    expect([...new Float32Array(accessors.out!)]).toEqual([
      5601, 5603, 5606, 5610, 15, 21, 0, 1, 3, 6,
    ]);
  });

  test("sub-groups are runs of the kernel's required size, else of min(32, the work-group's)", () => {
    const module = 'interp/sizes.sycl.ts';
    const kernelOf = (name: string, spec: string) => `
export const ${name} = kernel({ ndRange: 1, workgroupSize: [12], ${spec}args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  const sg = item.getSubGroup();
  out[item.getGlobalId(0)] = sg.getMaxLocalRange() * 1000 + sg.getGroupId() * 100 + sg.getLocalId() * 10 + sg.getLocalRange() % 10;
});`;
    const sized = linkSources({
      [module]: `import { accessor, kernel, u32 } from '@syclts/dsl';${kernelOf('four', 'subGroupSize: 4, ')}${kernelOf('free', '')}`,
    });
    const run = (name: string) => [
      ...new Uint32Array(
        interpretKernel(sized.images, {
          kernel: `${module}#${name}`,
          range: [12],
          args: { out: new Uint32Array(12).fill(0xdeadbeef) },
        }).accessors.out!,
      ),
    ];
    expect(run('four')).toEqual(
      Array.from({ length: 12 }, (_, i) => 4000 + Math.floor(i / 4) * 100 + (i % 4) * 10 + 4),
    );
    expect(run('free')).toEqual(Array.from({ length: 12 }, (_, i) => 12000 + i * 10 + 2));
  });

  test('a reduction runs as the link step lowered it: the kernel, then its finishing kernel', () => {
    const module = 'interp/sum.sycl.ts';
    const linked = linkSources({
      [module]: `
import { accessor, i32, kernel, maximum, reduction } from '@syclts/dsl';
export const peak = kernel(
  { range: 1, args: { xs: accessor(i32, 'read'), top: reduction(i32, maximum) } },
  (item, _kh, { xs, top }) => {
    const x = xs[item.getId(0)]!;
    if (x % 2 == 0) { return; }
    top.combine(x);
  });
`,
    });
    const xs = Int32Array.from(randomU32(150, 0x51), (r) => (r % 20001) - 10000);
    // The basic kernel's work-groups of 64: three, the last partial.
    const partials = new Int32Array(3).fill(0x7eadbeef);
    const main = interpretKernel(linked.images, {
      kernel: `${module}#peak`,
      range: [150],
      args: { xs, top: partials },
    });
    const odd = [...xs].filter((x) => x % 2 !== 0);
    const byGroup = [0, 1, 2].map((g) =>
      Math.max(-(2 ** 31), ...[...xs.subarray(64 * g, 64 * g + 64)].filter((x) => x % 2 !== 0)),
    );
    expect([...new Int32Array(main.accessors.top!)]).toEqual(byGroup);
    const target = Int32Array.of(-(2 ** 30));
    const finished = interpretKernel(linked.images, {
      kernel: `${module}#peak~top`,
      range: [256],
      local: [256],
      args: {
        partials: new Int32Array(main.accessors.top!),
        target,
        count: 3,
        keep: 1,
      },
    });
    expect(new Int32Array(finished.accessors.target!)[0]).toBe(Math.max(-(2 ** 30), ...odd));
  });

  test('a reduction with a device function combines in the order of the items', () => {
    const module = 'interp/chain.sycl.ts';
    const linked = linkSources({
      [module]: `
import { accessor, deviceFunction, kernel, reduction, vec4u } from '@syclts/dsl';
const times = deviceFunction({ args: [vec4u, vec4u], returns: vec4u }, (a, b) =>
  vec4u(a.x * b.x + a.y * b.z, a.x * b.y + a.y * b.w, a.z * b.x + a.w * b.z, a.z * b.y + a.w * b.w));
export const chain = kernel(
  { range: 1, args: { ms: accessor(vec4u, 'read'), product: reduction(vec4u, [1, 0, 0, 1], times) } },
  (item, _kh, { ms, product }) => { product.combine(ms[item.getId(0)]!); });
`,
    });
    type M = readonly [number, number, number, number];
    const mul = (x: number, y: number) => Math.imul(x, y) >>> 0;
    const times = (a: M, b: M): M => [
      (mul(a[0], b[0]) + mul(a[1], b[2])) >>> 0,
      (mul(a[0], b[1]) + mul(a[1], b[3])) >>> 0,
      (mul(a[2], b[0]) + mul(a[3], b[2])) >>> 0,
      (mul(a[2], b[1]) + mul(a[3], b[3])) >>> 0,
    ];
    // Odd diagonals, even elsewhere: the product modulo 2^32 stays invertible (never zero).
    const words = randomU32(4 * 150, 0xc4a);
    const ms = Uint32Array.from(
      words,
      (w, i) => (i % 4 === 0 || i % 4 === 3 ? w | 1 : w & ~1) >>> 0,
    );
    const matrix = (a: Uint32Array, i: number): M => [
      a[4 * i]!,
      a[4 * i + 1]!,
      a[4 * i + 2]!,
      a[4 * i + 3]!,
    ];
    const partials = new Uint32Array(4 * 3).fill(0x7eadbeef);
    const main = interpretKernel(linked.images, {
      kernel: `${module}#chain`,
      range: [150],
      args: { ms, product: partials },
    });
    const inOrder = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => matrix(ms, from + i)).reduce(times, [
        1, 0, 0, 1,
      ] as M);
    const byGroup = new Uint32Array(main.accessors.product!);
    expect([0, 1, 2].map((g) => matrix(byGroup, g))).toEqual([
      inOrder(0, 64),
      inOrder(64, 128),
      inOrder(128, 150),
    ]);
    const prior: M = [3, 2, 4, 7];
    const target = Uint32Array.from(prior);
    const finished = interpretKernel(linked.images, {
      kernel: `${module}#chain~product`,
      range: [256],
      local: [256],
      args: { partials: byGroup, target, count: 3, keep: 1 },
    });
    expect(matrix(new Uint32Array(finished.accessors.target!), 0)).toEqual(
      times(prior, inOrder(0, 150)),
    );
  });

  test('a span reduction: a histogram, each value reduced on its own', () => {
    const module = 'interp/bins.sycl.ts';
    const linked = linkSources({
      [module]: `
import { accessor, kernel, plus, reduction, span, u32 } from '@syclts/dsl';
export const histogram = kernel(
  { range: 1, args: { xs: accessor(u32, 'read'), bins: reduction(span(u32, 8), plus) } },
  (item, _kh, { xs, bins }) => { bins[xs[item.getId(0)]! % 8]!.combine(1); });
`,
    });
    const xs = randomU32(150, 0xb15);
    const partials = new Uint32Array(3 * 8).fill(0x7eadbeef);
    const main = interpretKernel(linked.images, {
      kernel: `${module}#histogram`,
      range: [150],
      args: { xs, bins: partials },
    });
    const count = (from: number, to: number) => {
      const bins = Array<number>(8).fill(0);
      for (const x of xs.subarray(from, to)) bins[x % 8]!++;
      return bins;
    };
    expect([...new Uint32Array(main.accessors.bins!)]).toEqual([
      ...count(0, 64),
      ...count(64, 128),
      ...count(128, 150),
    ]);
    const target = Uint32Array.from({ length: 8 }, (_, k) => 100 * k);
    const finished = interpretKernel(linked.images, {
      kernel: `${module}#histogram~bins`,
      range: [256],
      local: [256],
      args: { partials: new Uint32Array(main.accessors.bins!), target, count: 3, keep: 1 },
    });
    expect([...new Uint32Array(finished.accessors.target!)]).toEqual(
      count(0, 150).map((c, k) => c + 100 * k),
    );
  });

  test('an index past the end of an accessor', () => {
    const out = new Uint32Array(4);
    let error: unknown;
    try {
      interpretKernel(linked.images, { kernel: id('outOfBounds'), range: [1], args: { out } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InterpretError);
    expect((error as Error).message).toMatch(
      /^interp\/rules\.sycl\.ts:\d+:\d+: index 4 is out of bounds \(length 4\)/,
    );
  });
});

test('every built-in device code can call has an implementation in the interpreter', () => {
  const missing = [...BUILTINS.values()]
    .map((b) => b.wgsl)
    .filter((n) => !INTERPRETED_BUILTINS.has(n));
  expect(missing).toEqual([]);
  expect(BUILTINS.size).toBeGreaterThan(50);
});
