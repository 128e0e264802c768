/**
 * WGSL's pack and unpack built-ins (§17.9, §17.10) on the adapter, on fresh inputs with the
 * quantization boundaries, the ends of the ranges and values beyond them mixed in: each result
 * is compared with the table's implementation (builtins/evaluate.ts, which the interpreter and
 * the constant checker run) and with a reference written here from WGSL's definitions. Then a
 * round trip, constant calls (checked at build time, evaluated by WGSL when the shader is
 * created) against the same calls at run time, and the diagnostics of bad calls.
 */
import { expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { type Value as BuiltinValue, IMPLEMENTATIONS } from '../../src/builtins/evaluate.js';
import { build } from '../../src/index.js';
import { gpu, runKernel } from '../support/gpu.js';

const M = 'src/pack.sycl.ts';
const IMPORTS = `import {
  accessor, bitcastU32, f32, i32, kernel, u32, vec2f, vec4f, vec4i, vec4u,
  pack4x8snorm, pack4x8unorm, pack2x16snorm, pack2x16unorm, pack2x16float,
  unpack4x8snorm, unpack4x8unorm, unpack2x16snorm, unpack2x16unorm, unpack2x16float,
  pack4xI8, pack4xU8, pack4xI8Clamp, pack4xU8Clamp, unpack4xI8, unpack4xU8,
} from '@syclts/dsl';`;

const PACKS = [
  'pack4x8snorm',
  'pack4x8unorm',
  'pack2x16snorm',
  'pack2x16unorm',
  'pack2x16float',
  'pack4xI8',
  'pack4xU8',
  'pack4xI8Clamp',
  'pack4xU8Clamp',
] as const;
/** Unpacks to f32 (14 components per input), then to i32 and u32 (4 each). */
const UNPACK_F32 = [
  ['unpack4x8snorm', 4],
  ['unpack4x8unorm', 4],
  ['unpack2x16snorm', 2],
  ['unpack2x16unorm', 2],
  ['unpack2x16float', 2],
] as const;

const components = (v: string, n: number) =>
  ['x', 'y', 'z', 'w'].slice(0, n).map((c) => `${v}.${c}`);

const source = `${IMPORTS}

export const pack = kernel(
  {
    range: 1,
    args: {
      fs: accessor(f32, 'read'), hs: accessor(f32, 'read'), is: accessor(i32, 'read'),
      us: accessor(u32, 'read'), out: accessor(u32, 'write'),
    },
  },
  (item, kh, { fs, hs, is, us, out }) => {
    const i = item.getId(0);
    const v = vec4f(fs[i * 4]!, fs[i * 4 + 1]!, fs[i * 4 + 2]!, fs[i * 4 + 3]!);
    const w = vec2f(fs[i * 4 + 2]!, fs[i * 4 + 3]!);
    const h = vec2f(hs[i * 2]!, hs[i * 2 + 1]!);
    const n = vec4i(is[i * 4]!, is[i * 4 + 1]!, is[i * 4 + 2]!, is[i * 4 + 3]!);
    const m = vec4u(us[i * 4]!, us[i * 4 + 1]!, us[i * 4 + 2]!, us[i * 4 + 3]!);
    out[i * 9] = pack4x8snorm(v);
    out[i * 9 + 1] = pack4x8unorm(v);
    out[i * 9 + 2] = pack2x16snorm(w);
    out[i * 9 + 3] = pack2x16unorm(w);
    out[i * 9 + 4] = pack2x16float(h);
    out[i * 9 + 5] = pack4xI8(n);
    out[i * 9 + 6] = pack4xU8(m);
    out[i * 9 + 7] = pack4xI8Clamp(n);
    out[i * 9 + 8] = pack4xU8Clamp(m);
  },
);

export const unpack = kernel(
  {
    range: 1,
    args: {
      xs: accessor(u32, 'read'), f: accessor(f32, 'write'), n: accessor(i32, 'write'),
      u: accessor(u32, 'write'),
    },
  },
  (item, kh, { xs, f, n, u }) => {
    const i = item.getId(0);
    const x = xs[i]!;
${UNPACK_F32.map(
  ([name, size], k) =>
    `    const r${k} = ${name}(x);\n${components(`r${k}`, size)
      .map(
        (c, j) =>
          `    f[i * 14 + ${UNPACK_F32.slice(0, k).reduce((s, [, z]) => s + z, 0) + j}] = ${c};`,
      )
      .join('\n')}`,
).join('\n')}
    const a = unpack4xI8(x);
    n[i * 4] = a.x; n[i * 4 + 1] = a.y; n[i * 4 + 2] = a.z; n[i * 4 + 3] = a.w;
    const b = unpack4xU8(x);
    u[i * 4] = b.x; u[i * 4 + 1] = b.y; u[i * 4 + 2] = b.z; u[i * 4 + 3] = b.w;
  },
);
`;

/* --------------------------------------------- references, from WGSL's definitions */

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
const fround = Math.fround;

/** Little-endian bytes (or 16-bit fields) as the u32 they make. */
function word(fields: readonly number[], width: 8 | 16): number {
  const bytes = new DataView(new ArrayBuffer(4));
  fields.forEach((v, i) => {
    if (width === 8) bytes.setUint8(i, v & 0xff);
    else bytes.setUint16(2 * i, v & 0xffff, true);
  });
  return bytes.getUint32(0, true);
}
function fields(x: number, width: 8 | 16, signed: boolean): number[] {
  const bytes = new DataView(new ArrayBuffer(4));
  bytes.setUint32(0, x, true);
  return Array.from({ length: 32 / width }, (_, i) =>
    width === 8
      ? signed
        ? bytes.getInt8(i)
        : bytes.getUint8(i)
      : signed
        ? bytes.getInt16(2 * i, true)
        : bytes.getUint16(2 * i, true),
  );
}

/** The f16 bits of an f32, rounded to nearest even, on the f32's bits. */
function halfOf(x: number): number {
  f32[0] = x;
  const b = f32Bits[0]!;
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  let mant = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  let shift = 13;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    shift = 14 - e;
    e = 0;
  }
  const kept = mant >>> shift;
  const rest = mant - kept * 2 ** shift;
  const half = 2 ** (shift - 1);
  let h = (e << 10) + (e === 0 ? kept : kept & 0x3ff);
  if (rest > half || (rest === half && (kept & 1) === 1)) h++;
  return sign | h;
}
/** The f32 an f16's bits hold, through the f32's bits. */
function halfValue(h: number): number {
  const sign = (h & 0x8000) << 16;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return (sign ? -1 : 1) * mant * 2 ** -24;
  f32Bits[0] = sign | ((exp === 0x1f ? 0xff : exp - 15 + 127) << 23) | (mant << 13);
  return f32[0]!;
}

const norm = (e: number, lo: number, scale: number) =>
  Math.floor(0.5 + scale * Math.min(1, Math.max(lo, e)));

const reference: Record<string, (v: readonly number[]) => number> = {
  pack4x8snorm: (v) =>
    word(
      v.map((e) => norm(e, -1, 127)),
      8,
    ),
  pack4x8unorm: (v) =>
    word(
      v.map((e) => norm(e, 0, 255)),
      8,
    ),
  pack2x16snorm: (v) =>
    word(
      v.map((e) => norm(e, -1, 32767)),
      16,
    ),
  pack2x16unorm: (v) =>
    word(
      v.map((e) => norm(e, 0, 65535)),
      16,
    ),
  pack2x16float: (v) => word(v.map(halfOf), 16),
  pack4xI8: (v) => word(v, 8),
  pack4xU8: (v) => word(v, 8),
  pack4xI8Clamp: (v) =>
    word(
      v.map((e) => Math.min(127, Math.max(-128, e))),
      8,
    ),
  pack4xU8Clamp: (v) =>
    word(
      v.map((e) => Math.min(255, e)),
      8,
    ),
};
const unpackReference: Record<string, (x: number) => number[]> = {
  unpack4x8snorm: (x) => fields(x, 8, true).map((v) => fround(Math.max(v / 127, -1))),
  unpack4x8unorm: (x) => fields(x, 8, false).map((v) => fround(v / 255)),
  unpack2x16snorm: (x) => fields(x, 16, true).map((v) => fround(Math.max(v / 32767, -1))),
  unpack2x16unorm: (x) => fields(x, 16, false).map((v) => fround(v / 65535)),
  unpack2x16float: (x) => fields(x, 16, false).map(halfValue),
  unpack4xI8: (x) => fields(x, 8, true),
  unpack4xU8: (x) => fields(x, 8, false),
};

/** The table's implementation of `name` (what the interpreter and the constant checker run). */
function table(name: keyof typeof IMPLEMENTATIONS, arg: BuiltinValue): BuiltinValue {
  const impl = IMPLEMENTATIONS[name];
  if (!('whole' in impl)) throw new Error(`${name} is not a whole-value implementation`);
  return impl.whole([arg], [], { kind: 'scalar', scalar: 'u32' });
}

/** The f32 steps between two finite f32s of one sign. */
function ulpsApart(a: number, b: number): number {
  f32[0] = a;
  const x = f32Bits[0]!;
  f32[0] = b;
  const y = f32Bits[0]!;
  return (x ^ y) >>> 31 ? Number.POSITIVE_INFINITY : Math.abs(x - y);
}

/* ------------------------------------------------------------------------- inputs */

/** Exactly representable boundaries: ±1, 0, the half steps of each scale, beyond the range. */
const EDGES = [0, -0, 1, -1, 0.5, -0.5, 2, -2, 1e-30, -1e-30, 1e30, -1e30, 3e38, -3e38].concat(
  [255, 127, 65535, 32767].flatMap((s) =>
    [0.5, 1.5, s - 0.5, s / 2 - 0.5].flatMap((k) => [k / s, -k / s]),
  ),
);
/** f16's ends and steps: the largest finite, the smallest subnormal, ties between neighbours. */
const HALF_EDGES = [
  0,
  -0,
  1,
  -1,
  65504,
  -65504,
  65503,
  2 ** -24,
  -(2 ** -24),
  2 ** -25,
  3 * 2 ** -25,
  2 ** -14,
  2 ** -14 - 2 ** -24,
  1 + 2 ** -11,
  1 + 3 * 2 ** -11,
  -(1 + 2 ** -11),
  2048 + 1,
  2048 + 3,
];

function floats(count: number, seed: number): Float32Array {
  const r = randomU32(count * 2, seed);
  return Float32Array.from({ length: count }, (_, i) => {
    const a = r[2 * i]!;
    const b = r[2 * i + 1]!;
    switch (a % 4) {
      case 0:
        return EDGES[b % EDGES.length]!;
      case 1:
        return (b / 2 ** 32) * 3 - 1.5;
      case 2: {
        // Within a few f32 steps of a quantization boundary (k + 0.5) / scale.
        const scale = [255, 127, 65535, 32767][(a >>> 2) % 4]!;
        const k = (b % (scale + 1)) - (a & 16 ? 0 : scale);
        const x = fround((k + 0.5) / scale);
        f32[0] = x;
        f32Bits[0] = (f32Bits[0]! + ((a >>> 8) % 5) - 2) >>> 0;
        return Number.isFinite(f32[0]!) ? f32[0]! : x;
      }
      default: {
        f32Bits[0] = b;
        return Number.isFinite(f32[0]!) ? f32[0]! : 0;
      }
    }
  });
}

/** Finite values inside f16's range, most not exactly an f16 (subnormals included). */
function halves(count: number, seed: number): Float32Array {
  const r = randomU32(count, seed);
  return Float32Array.from(r, (b) => {
    if (b % 8 === 0) return HALF_EDGES[(b >>> 3) % HALF_EDGES.length]!;
    const exponent = ((b >>> 3) % 41) - 26;
    const x = fround((b & 1 ? -1 : 1) * (1 + ((b >>> 9) % 2 ** 23) / 2 ** 23) * 2 ** exponent);
    return Math.abs(x) <= 65504 ? x : 65504;
  });
}

const INT_EDGES = [0, 1, -1, 127, 128, -128, -129, 255, 256, 2 ** 31 - 1, -(2 ** 31)];

function ints(count: number, seed: number): Int32Array {
  const r = randomU32(count, seed);
  return Int32Array.from(r, (b) =>
    b % 4 === 0
      ? INT_EDGES[(b >>> 2) % INT_EDGES.length]!
      : b % 4 === 1
        ? b | 0
        : ((b >>> 2) % 600) - 300,
  );
}

function built() {
  const { program, diagnostics } = build([{ module: M, source }], { validateIr: true });
  expect(diagnostics).toEqual([]);
  return program!.images[0]!;
}

const ITEMS = 4096;
const hex = (x: number) => `0x${(x >>> 0).toString(16).padStart(8, '0')}`;

test('each pack built-in computes WGSL values on the adapter, as the table and the reference do', async () => {
  const image = built();
  const fs = floats(ITEMS * 4, 0x9ac4);
  const hs = halves(ITEMS * 2, 0x9ac5);
  const is = ints(ITEMS * 4, 0x9ac6);
  const us = Uint32Array.from(ints(ITEMS * 4, 0x9ac7));
  const { accessors } = await runKernel(image, `${M}#pack`, {
    mode: 'native',
    range: [ITEMS],
    accessors: { fs, hs, is, us, out: new Uint32Array(ITEMS * 9).fill(0xdeadbeef) },
  });
  const got = new Uint32Array(accessors.out!);
  const mismatches: string[] = [];
  const tied = new Set<string>();
  for (let i = 0; i < ITEMS; i++) {
    const v = Array.from(fs.subarray(i * 4, i * 4 + 4));
    const args: Record<string, number[]> = {
      pack4x8snorm: v,
      pack4x8unorm: v,
      pack2x16snorm: v.slice(2),
      pack2x16unorm: v.slice(2),
      pack2x16float: Array.from(hs.subarray(i * 2, i * 2 + 2)),
      pack4xI8: Array.from(is.subarray(i * 4, i * 4 + 4)),
      pack4xI8Clamp: Array.from(is.subarray(i * 4, i * 4 + 4)),
      pack4xU8: Array.from(us.subarray(i * 4, i * 4 + 4)),
      pack4xU8Clamp: Array.from(us.subarray(i * 4, i * 4 + 4)),
    };
    PACKS.forEach((name, k) => {
      const want = reference[name]!(args[name]!);
      const mine = table(name, args[name]!) as number;
      const gpu = got[i * 9 + k]!;
      const ties = mine === want ? tiesTaken(name, args[name]!, gpu, want) : null;
      if (ties === null) {
        mismatches.push(
          `${name}(${args[name]!.join(', ')}): reference ${hex(want)}, table ${hex(mine)}, GPU ${hex(gpu)}`,
        );
      } else if (ties > 0) tied.add(name);
    });
  }
  expect(mismatches.slice(0, 20)).toEqual([]);
  // The inputs reach every scale's boundaries.
  expect(tied.size).toBeGreaterThan(0);
});

/**
 * pack2x16float's fields that differ from round-to-nearest: WGSL lets a run-time conversion to a
 * narrower float give either neighbour of a value it cannot hold (§15.7.6), and drivers round
 * toward zero (SwiftShader does, on f16 subnormals).
 */
function halfNeighbours(v: readonly number[], gpu: number, want: number): number | null {
  const g = fields(gpu, 16, false);
  const w = fields(want, 16, false);
  let taken = 0;
  for (let j = 0; j < 2; j++) {
    if (g[j] === w[j]) continue;
    const [a, b] = [halfValue(g[j]!), halfValue(w[j]!)];
    const between = Math.min(a, b) < v[j]! && v[j]! < Math.max(a, b);
    if (!between || Math.abs(g[j]! - w[j]!) !== 1) return null;
    taken++;
  }
  return taken;
}

/** [field width, lower bound, scale] of the normalized packs. */
const NORMS: Record<string, [8 | 16, number, number]> = {
  pack4x8snorm: [8, -1, 127],
  pack4x8unorm: [8, 0, 255],
  pack2x16snorm: [16, -1, 32767],
  pack2x16unorm: [16, 0, 65535],
};

/**
 * How many fields of a GPU's pack differ from WGSL's value, each by one step where the scaled
 * component is within f32 rounding of a half step (null when another field differs). WGSL
 * defines ⌊0.5 + scale·e⌋ exactly; drivers compute round(scale·e) in f32 (SPIR-V's
 * PackUnorm4x8), which lands on either side of such a tie.
 */
function tiesTaken(name: string, v: readonly number[], gpu: number, want: number): number | null {
  if (gpu === want) return 0;
  if (name === 'pack2x16float') return halfNeighbours(v, gpu, want);
  const norm = NORMS[name];
  if (!norm) return null;
  const [width, lo, scale] = norm;
  const g = fields(gpu, width, lo < 0);
  const w = fields(want, width, lo < 0);
  let ties = 0;
  for (let j = 0; j < v.length; j++) {
    if (g[j] === w[j]) continue;
    const y = scale * Math.min(1, Math.max(lo, v[j]!));
    const half = Math.abs(y - Math.floor(y) - 0.5) <= 2 ** -21 * Math.max(1, Math.abs(y));
    if (!half || Math.abs(g[j]! - w[j]!) !== 1) return null;
    ties++;
  }
  return ties;
}

// WGSL grants the unpacking of normalized values 3 ULP (the division); the others are exact.
test('each unpack built-in computes WGSL values on the adapter, as the table and the reference do', async () => {
  const image = built();
  const edges = [
    0, 0xffffffff, 0x80808080, 0x7f7f7f7f, 0x81818181, 0x00ff00ff, 0x80008000, 0x7fff7fff,
  ];
  edges.push(0x7bff7bff, 0xfbff0001, 0x03ff8400, 0x3c00bc00, 0x80010001);
  const xs = Uint32Array.from(randomU32(ITEMS, 0x3b7), (r, i) =>
    i < edges.length ? edges[i]! : r,
  );
  // f16 infinities and NaNs unpack to values no f32 comparison can hold: replaced by 1.0.
  for (let i = 0; i < xs.length; i++) {
    for (const shift of [0, 16]) {
      if (((xs[i]! >>> (shift + 10)) & 0x1f) === 0x1f)
        xs[i] = (xs[i]! & ~(0xffff << shift)) | (0x3c00 << shift);
    }
    xs[i] = xs[i]! >>> 0;
  }
  const { accessors } = await runKernel(image, `${M}#unpack`, {
    mode: 'native',
    range: [ITEMS],
    accessors: {
      xs,
      f: new Float32Array(ITEMS * 14).fill(Number.NaN),
      n: new Int32Array(ITEMS * 4).fill(0x5eadbeef),
      u: new Uint32Array(ITEMS * 4).fill(0x5eadbeef),
    },
  });
  const f = new Float32Array(accessors.f!);
  const n = new Int32Array(accessors.n!);
  const u = new Uint32Array(accessors.u!);
  const mismatches: string[] = [];
  const check = (name: string, x: number, gpu: readonly number[]) => {
    const want = unpackReference[name]!(x);
    const mine = table(name as keyof typeof IMPLEMENTATIONS, x) as number[];
    const ulps = name.endsWith('norm') ? 3 : 0;
    const same = (a: readonly number[], within: number) =>
      a.every((y, j) => y === want[j] || ulpsApart(y, want[j]!) <= within);
    if (!same(mine, 0) || !same(gpu, ulps)) {
      mismatches.push(`${name}(${hex(x)}): reference ${want}, table ${mine}, GPU ${gpu}`);
    }
  };
  for (let i = 0; i < ITEMS; i++) {
    let at = i * 14;
    for (const [name, size] of UNPACK_F32) {
      check(name, xs[i]!, Array.from(f.subarray(at, at + size)));
      at += size;
    }
    check('unpack4xI8', xs[i]!, Array.from(n.subarray(i * 4, i * 4 + 4)));
    check('unpack4xU8', xs[i]!, Array.from(u.subarray(i * 4, i * 4 + 4)));
  }
  expect(mismatches.slice(0, 20)).toEqual([]);
});

test('unpacking and packing again gives the bits back, and packing quantized values and unpacking gives them back', async () => {
  const roundTrip = `${IMPORTS}

export const trip = kernel(
  { range: 1, args: { xs: accessor(u32, 'read'), out: accessor(u32, 'write'), fs: accessor(f32, 'write') } },
  (item, kh, { xs, out, fs }) => {
    const i = item.getId(0);
    const x = xs[i]!;
    out[i * 7] = pack4x8snorm(unpack4x8snorm(x));
    out[i * 7 + 1] = pack4x8unorm(unpack4x8unorm(x));
    out[i * 7 + 2] = pack2x16snorm(unpack2x16snorm(x));
    out[i * 7 + 3] = pack2x16unorm(unpack2x16unorm(x));
    out[i * 7 + 4] = pack2x16float(unpack2x16float(x));
    out[i * 7 + 5] = pack4xI8(unpack4xI8(x));
    out[i * 7 + 6] = pack4xU8(unpack4xU8(x));
    const q = vec4f(f32(x & 255) / 255, f32((x >>> 8) & 255) / 255, f32((x >>> 16) & 255) / 255, f32(x >>> 24) / 255);
    const r = unpack4x8unorm(pack4x8unorm(q));
    fs[i * 4] = r.x - q.x; fs[i * 4 + 1] = r.y - q.y; fs[i * 4 + 2] = r.z - q.z; fs[i * 4 + 3] = r.w - q.w;
  },
);
`;
  const { program, diagnostics } = build([{ module: M, source: roundTrip }], { validateIr: true });
  expect(diagnostics).toEqual([]);
  // f16 infinities and NaNs (any exponent of all ones) are left out: they are not values.
  const xs = randomU32(ITEMS, 0x7219);
  xs.set([0, 0x80808080, 0x80008000, 0x7f7f7f7f, 0x81818181, 0x7bff7bff, 0x03ff0001]);
  xs.forEach((r, i) => {
    if (((r >>> 10) & 0x1f) === 0x1f || ((r >>> 26) & 0x1f) === 0x1f)
      xs[i] = (r & 0xbbffbbff) >>> 0;
  });
  const { accessors } = await runKernel(program!.images[0]!, `${M}#trip`, {
    mode: 'native',
    range: [ITEMS],
    accessors: {
      xs,
      out: new Uint32Array(ITEMS * 7).fill(0xdeadbeef),
      fs: new Float32Array(ITEMS * 4).fill(Number.NaN),
    },
  });
  const out = new Uint32Array(accessors.out!);
  // snorm's most negative field, -128 or -32768, unpacks to -1 as -127 or -32767 does.
  const snorm = (x: number, width: 8 | 16) =>
    word(
      fields(x, width, true).map((v) => Math.max(v, -(2 ** (width - 1)) + 1)),
      width,
    );
  const want = Array.from(xs, (x) => [snorm(x, 8), x, snorm(x, 16), x, x, x, x]).flat();
  const wrong = want.flatMap((w, j) =>
    out[j] === w
      ? []
      : [`${hex(xs[Math.floor(j / 7)]!)} #${j % 7}: ${hex(out[j]!)}, not ${hex(w)}`],
  );
  expect(wrong.slice(0, 10)).toEqual([]);
  expect(new Float32Array(accessors.fs!).every((d) => d === 0)).toBe(true);
});

/** Built alone: the diagnostics (code and message), and whether a program came out. */
function diagnose(body: string) {
  const module = `${IMPORTS}
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } }, (item, kh, { out, n }) => {
  ${body}
});
`;
  const { program, diagnostics } = build([{ module: M, source: module }]);
  return {
    built: program !== null,
    diagnostics: diagnostics.map((d) => `${d.code}: ${d.message}`),
  };
}

test('constant calls fold at build time to what WGSL and the GPU compute at run time', async () => {
  // Away from ties (see tiesTaken): WGSL, the constant checker and drivers agree exactly.
  const v = [0.1, -0.7, 1.5, -2];
  const h = [0.333, -70000 / 2 ** 4];
  const ints4 = [-129, 5, 200, -1];
  const word0 = 0x80ff7f01;
  const words = [0x3c00c000, 0x80017bff];
  // Each call with its arguments as constants, or plus zeros the kernel reads (at run time).
  const callsWith = (f: string, i: string, u: string) => {
    const of = (p: string, xs: readonly number[]) => xs.map((x) => `${p}${x}`).join(', ');
    const us = ints4.map((x) => x >>> 0);
    return [
      `pack4x8snorm(vec4f(${of(f, v)}))`,
      `pack4x8unorm(vec4f(${of(f, v)}))`,
      `pack2x16snorm(vec2f(${of(f, v.slice(0, 2))}))`,
      `pack2x16unorm(vec2f(${of(f, v.slice(0, 2))}))`,
      `pack2x16float(vec2f(${of(f, h)}))`,
      `pack4xI8(vec4i(${of(i, ints4)}))`,
      `pack4xU8(vec4u(${of(u, us)}))`,
      `pack4xI8Clamp(vec4i(${of(i, ints4)}))`,
      `pack4xU8Clamp(vec4u(${of(u, us)}))`,
      ...['unpack4x8snorm', 'unpack4x8unorm', 'unpack4xI8', 'unpack4xU8'].flatMap((g) =>
        ['x', 'y', 'z', 'w'].map((c) => `bitcastU32(${g}(${u}${word0}).${c})`),
      ),
      ...['unpack2x16snorm', 'unpack2x16unorm', 'unpack2x16float'].flatMap((g) =>
        words.flatMap((w) => ['x', 'y'].map((c) => `bitcastU32(${g}(${u}${w}).${c})`)),
      ),
    ];
  };
  const calls = callsWith('', '', '');
  const atRun = callsWith('zf + ', 'zi + ', 'n + ');
  const both = `${IMPORTS}
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } }, (item, kh, { out, n }) => {
  const zf = f32(n);
  const zi = i32(n);
${calls.map((c, i) => `  out[${i}] = ${c};`).join('\n')}
${atRun.map((c, i) => `  out[${calls.length + i}] = ${c};`).join('\n')}
});
`;
  const { program, diagnostics } = build([{ module: M, source: both }], { validateIr: true });
  expect(diagnostics).toEqual([]);
  const wgsl = program!.images[0]!.wgsl.native!;
  expect(wgsl).toContain('= pack4x8snorm(vec4<f32>(0.10000000149011612f, -0.699999988079071f');
  const { accessors } = await runKernel(program!.images[0]!, `${M}#k`, {
    mode: 'native',
    range: [1],
    values: { n: 0 },
    accessors: { out: new Uint32Array(calls.length * 2).fill(0xdeadbeef) },
  });
  const out = Array.from(new Uint32Array(accessors.out!)).map(hex);
  const bits = (x: number) => {
    f32[0] = x;
    return f32Bits[0]!;
  };
  const fromTable = [
    table('pack4x8snorm', v),
    table('pack4x8unorm', v),
    table('pack2x16snorm', v.slice(0, 2)),
    table('pack2x16unorm', v.slice(0, 2)),
    table('pack2x16float', h.map(fround)),
    table('pack4xI8', ints4),
    table(
      'pack4xU8',
      ints4.map((x) => x >>> 0),
    ),
    table('pack4xI8Clamp', ints4),
    table(
      'pack4xU8Clamp',
      ints4.map((x) => x >>> 0),
    ),
    ...(['unpack4x8snorm', 'unpack4x8unorm'] as const).flatMap((f) =>
      (table(f, word0) as number[]).map(bits),
    ),
    ...(['unpack4xI8', 'unpack4xU8'] as const).flatMap((f) => table(f, word0) as number[]),
    ...(['unpack2x16snorm', 'unpack2x16unorm', 'unpack2x16float'] as const).flatMap((f) =>
      words.flatMap((w) => (table(f, w) as number[]).map(bits)),
    ),
  ].map((x) => hex(x as number));
  // At run time within what WGSL grants the GPU (the first test's allowances), else exactly;
  // a constant exactly, but for pack2x16float's conversion to f16, which may give either
  // neighbour in a constant too (Tint's rounds toward zero, the checker to nearest).
  const allowed = (side: readonly string[], atRun: boolean) =>
    side.map((got, j) => {
      const name = /^(?:bitcastU32\()?(\w+)/.exec(calls[j]!)![1]!;
      const [g, w] = [Number(got), Number(fromTable[j]!)];
      if (name === 'pack2x16float' && halfNeighbours(h.map(fround), g, w) !== null) {
        return fromTable[j];
      }
      if (atRun && name.startsWith('unpack') && name.endsWith('norm')) {
        f32Bits[0] = g;
        const x = f32[0]!;
        f32Bits[0] = w;
        return ulpsApart(x, f32[0]!) <= 3 ? fromTable[j] : got;
      }
      return got;
    });
  const constant = allowed(out.slice(0, calls.length), false);
  const runTime = allowed(out.slice(calls.length), true);
  expect({ constant, runTime }).toEqual({
    constant: fromTable,
    runTime: fromTable,
  });
});

test("the constant checker evaluates the calls: a folded zero divides, pack2x16float's range is WGSL's", async () => {
  expect(diagnose('out[0] = n / pack4xU8(vec4u(0, 0, 0, 0));').diagnostics).toEqual([
    'SYCL1024: integer division by a constant zero is invalid in WGSL',
  ]);
  expect(diagnose('out[0] = n / pack4xU8(vec4u(0, 0, 1, 0));')).toEqual({
    built: true,
    diagnostics: [],
  });
  expect(diagnose('out[0] = n << pack4xU8(vec4u(32, 0, 0, 0));').diagnostics).toEqual([
    'SYCL1024: a shift by 32 is invalid in WGSL: the amount must be less than 32',
  ]);
  expect(diagnose('out[0] = bitcastU32(unpack2x16float(0x7c00).x);').diagnostics).toEqual([
    'SYCL1024: this constant expression is invalid in WGSL: the result overflows f32',
  ]);
  // Refused exactly where Dawn refuses the same WGSL: outside ±65504, even where f16 rounds back.
  const { device } = await gpu();
  for (const x of ['65504', '-65504', '65505', '-65505', '65519', '65520', '1e30', '1e-30']) {
    const ours = diagnose(`out[0] = pack2x16float(vec2f(0.5, ${x}));`);
    const module = device.createShaderModule({
      code: `@compute @workgroup_size(1) fn main() { let x = pack2x16float(vec2f(0.5, ${x})); _ = x; }`,
    });
    const dawn = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
    expect({ x, refused: !ours.built }).toEqual({ x, refused: dawn.length > 0 });
    if (!ours.built)
      expect(ours.diagnostics[0]).toMatch(
        /^SYCL1024: pack2x16float's component .* outside f16's finite range/,
      );
  }
});

test('a call no overload takes names the overloads', () => {
  expect(diagnose('out[0] = pack4x8unorm(vec4i(1, 2, 3, 4));').diagnostics).toEqual([
    'SYCL1012: no overload of pack4x8unorm takes (vec4<i32>): pack4x8unorm(vec4<f32>) -> u32',
  ]);
  expect(diagnose('out[0] = pack2x16float(vec4f(1, 2, 3, 4));').diagnostics).toEqual([
    'SYCL1012: no overload of pack2x16float takes (vec4<f32>): pack2x16float(vec2<f32>) -> u32',
  ]);
  // A u32 in every overload: told as the argument's type, as for Math.clz32.
  expect(diagnose('out[0] = bitcastU32(unpack4x8unorm(f32(n)).x);').diagnostics).toEqual([
    'SYCL1012: argument 1 of unpack4x8unorm must be u32, not f32',
  ]);
  expect(diagnose('out[0] = pack4xU8(vec4i(1, 2, 3, 4));').diagnostics).toEqual([
    'SYCL1012: no overload of pack4xU8 takes (vec4<i32>): pack4xU8(vec4<u32>) -> u32',
  ]);
});
