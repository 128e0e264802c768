/**
 * f16 kernels (fixtures/compiled/half.sycl.ts) on a queue whose device has `shader-f16`, against
 * references computed here with binary16 rounding (the ABI's `f16Round`, to nearest even). Shared
 * by f16.test.ts and run.ts (the same checks outside the test runner). Each check gives the
 * mismatches it found, as lines; none means it passed.
 */
import {
  f16,
  f16Bits,
  f16BitsToNumber,
  f16Round,
  f32,
  i32,
  vec2h,
  vec3h,
  vec4h,
} from '@syclts/dsl';
import { randomU32 } from '../../../../test-inputs.ts';
import { ndRange, type Queue } from '../../src/index.js';
import {
  arith,
  builtins,
  constants,
  convert,
  gain,
  literals,
  Mixed,
  offsets,
  structs,
  table,
  vectors,
} from '../fixtures/compiled/half.sycl.js';

/** A NaN with a payload no kernel computes: what an output element holds until a kernel writes it. */
const POISON_BITS = 0x7dea;
/** Composite elements are written as host values, which must be finite: one no kernel gives. */
const POISON_VALUE = -65504;
/** The smallest normal binary16 magnitude: WGSL lets a GPU flush results below it to zero. */
const MIN_NORMAL = 2 ** -14;

export interface F16Check {
  readonly name: string;
  run(queue: Queue, seed: number): Promise<string[]>;
}

/**
 * Random binary16 values (exact as numbers), of magnitudes in [2^minExp, 2^(maxExp+1)), with
 * either sign: sums and products stay normal and finite, quotients within 2^±12.
 */
export function randomHalves(count: number, seed: number, minExp = -6, maxExp = 5): number[] {
  const words = randomU32(count, seed);
  return Array.from(words, (w) => {
    const exponent = minExp + ((w >>> 11) % (maxExp - minExp + 1));
    const value = (1 + (w & 0x3ff) / 1024) * 2 ** exponent;
    return w & 0x80000000 ? -value : value;
  });
}

const bitsOf = (values: readonly number[]): Uint16Array => Uint16Array.from(values, f16Bits);
const hex = (bits: number): string => `0x${bits.toString(16).padStart(4, '0')}`;

/**
 * Whether the f16 a kernel wrote (`got`, a number) is one of the `wanted` real values rounded to
 * binary16, or within `ulps` of one: several are given where WGSL lets a GPU choose (a multiply
 * and an add fused or not; either neighbour in a conversion). A wanted value below the normal
 * range may also come back as zero.
 */
function halfMatches(got: number, wanted: readonly number[], ulps = 0): boolean {
  return wanted.some((real) => {
    const want = f16Round(real);
    if (Object.is(got, want)) return true;
    if (Math.abs(want) < MIN_NORMAL && got === 0) return true;
    return ulps > 0 && Math.abs(got - want) <= ulps * ulpOf(want);
  });
}

/** The spacing of binary16 values at `x`'s magnitude. */
function ulpOf(x: number): number {
  const magnitude = Math.abs(x);
  if (magnitude < MIN_NORMAL) return 2 ** -24;
  return 2 ** (Math.floor(Math.log2(magnitude)) - 10);
}

/** The two binary16 values around `x` (equal when `x` is one). */
function neighbours(x: number): [number, number] {
  const nearest = f16Round(x);
  if (nearest === x) return [x, x];
  const bits = f16Bits(nearest);
  // Step the magnitude's bits towards x: one below or above the nearest value.
  const away = Math.abs(x) > Math.abs(nearest) ? bits + 1 : bits - 1;
  return [nearest, f16BitsToNumber(away)];
}

function mismatch(
  list: string[],
  what: string,
  inputs: string,
  got: number,
  wanted: readonly number[],
): void {
  if (list.length >= 8) return;
  const want = wanted.map((w) => `${f16Round(w)} (${hex(f16Bits(w))})`).join(' or ');
  list.push(`${what}: ${inputs}: got ${got} (${hex(f16Bits(got))}), expected ${want}`);
}

const arithCheck: F16Check = {
  name: 'arithmetic: + - * are correctly rounded, / within 2.5 ULP, negation exact',
  async run(q, seed) {
    const n = 1000 + (randomU32(1, seed)[0]! % 500);
    const a = randomHalves(n, seed + 1);
    const b = randomHalves(n, seed + 2);
    const out = q.buffer(f16, new Uint16Array(n * 5).fill(POISON_BITS));
    await q
      .parallelFor(n, arith, {
        a: q.buffer(f16, bitsOf(a), { access: 'read' }),
        b: q.buffer(f16, bitsOf(b), { access: 'read' }),
        out,
      })
      .wait();
    const got = Array.from(await out.read(), f16BitsToNumber);
    const bad: string[] = [];
    const ops = [
      ['a + b', (x: number, y: number) => x + y, 0],
      ['a - b', (x: number, y: number) => x - y, 0],
      ['a * b', (x: number, y: number) => x * y, 0],
      ['a / b', (x: number, y: number) => x / y, 2.5],
      ['-a', (x: number) => -x, 0],
    ] as const;
    for (let i = 0; i < n; i++) {
      ops.forEach(([what, op, ulps], k) => {
        const value = got[i * 5 + k]!;
        const want = op(a[i]!, b[i]!);
        if (!halfMatches(value, [want], ulps)) {
          mismatch(bad, what, `a=${a[i]} b=${b[i]}`, value, [want]);
        }
      });
    }
    return bad;
  },
};

const convertCheck: F16Check = {
  name: 'conversions: f32 and i32 to f16 (either neighbour, as WGSL allows), f16 to f32 and i32 exact',
  async run(q, seed) {
    const n = 1000 + (randomU32(1, seed)[0]! % 500);
    // f32 values across f16's normal range (many not representable in f16), and integers up to 65504.
    const x = Array.from(randomU32(n, seed + 1), (w, i) => {
      const magnitude = Math.fround((1 + (w & 0xfffff) / 2 ** 20) * 2 ** (((w >>> 20) % 30) - 14));
      const value = Math.min(magnitude, 65504);
      return i % 2 ? -value : value;
    });
    const ints = Array.from(randomU32(n, seed + 2), (w) => (w % 131009) - 65504);
    const h = randomHalves(n, seed + 3, -2, 15);
    const toHalf = q.buffer(f16, new Uint16Array(n * 2).fill(POISON_BITS));
    const fromHalf = q.buffer(f32, new Float32Array(n).fill(Number.NaN));
    const intsOut = q.buffer(i32, new Int32Array(n * 2).fill(0x7eadbeef));
    await q
      .parallelFor(n, convert, {
        x: q.buffer(Float32Array.from(x), { access: 'read' }),
        n: q.buffer(Int32Array.from(ints), { access: 'read' }),
        h: q.buffer(f16, bitsOf(h), { access: 'read' }),
        toHalf,
        fromHalf,
        ints: intsOut,
      })
      .wait();
    const halves = Array.from(await toHalf.read(), f16BitsToNumber);
    const floats = await fromHalf.read();
    const integers = await intsOut.read();
    const bad: string[] = [];
    for (let i = 0; i < n; i++) {
      const fromF32 = halves[i * 2]!;
      if (!halfMatches(fromF32, neighbours(x[i]!))) {
        mismatch(bad, 'f16(f32)', `x=${x[i]}`, fromF32, neighbours(x[i]!));
      }
      const fromI32 = halves[i * 2 + 1]!;
      if (!halfMatches(fromI32, neighbours(ints[i]!))) {
        mismatch(bad, 'f16(i32)', `n=${ints[i]}`, fromI32, neighbours(ints[i]!));
      }
      if (floats[i] !== h[i]) bad.push(`f32(f16): h=${h[i]}: got ${floats[i]}`);
      if (integers[i * 2] !== Math.trunc(h[i]!)) {
        bad.push(`i32(f16): h=${h[i]}: got ${integers[i * 2]}`);
      }
      if (integers[i * 2 + 1] !== Math.trunc(Math.abs(h[i]!))) {
        bad.push(`u32(abs(f16)): h=${h[i]}: got ${integers[i * 2 + 1]}`);
      }
    }
    return bad.slice(0, 8);
  },
};

const literalsCheck: F16Check = {
  name: 'literals and constants folded at build time, rounded to nearest even',
  async run(q, seed) {
    const n = 500 + (randomU32(1, seed)[0]! % 500);
    const x = randomHalves(n, seed + 1, -6, 2);
    const out = q.buffer(f16, new Uint16Array(n * 4).fill(POISON_BITS));
    await q
      .parallelFor(n, literals, { x: q.buffer(f16, bitsOf(x), { access: 'read' }), out })
      .wait();
    const got = Array.from(await out.read(), f16BitsToNumber);
    const bad: string[] = [];
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      const wanted = [
        v * f16Round(0.1),
        v + f16Round(1 / 3),
        65504 - v,
        Math.max(v, 0.5) + Math.min(v, -0.25),
      ];
      wanted.forEach((want, k) => {
        if (!halfMatches(got[i * 4 + k]!, [want])) {
          mismatch(bad, `literal case ${k}`, `x=${v}`, got[i * 4 + k]!, [want]);
        }
      });
    }
    return bad;
  },
};

const vectorsCheck: F16Check = {
  name: 'vec2h and vec4h in buffers and a scalar f16 argument',
  async run(q, seed) {
    const n = 300 + (randomU32(1, seed)[0]! % 300);
    const flat = randomHalves(n * 6, seed + 1);
    const [k] = randomHalves(1, seed + 2);
    const p = Array.from({ length: n }, (_, i): [number, number] => [
      flat[i * 6]!,
      flat[i * 6 + 1]!,
    ]);
    const v = Array.from({ length: n }, (_, i): [number, number, number, number] => [
      flat[i * 6 + 2]!,
      flat[i * 6 + 3]!,
      flat[i * 6 + 4]!,
      flat[i * 6 + 5]!,
    ]);
    const outP = q.buffer(
      vec2h,
      Array.from({ length: n }, (): [number, number] => [POISON_VALUE, POISON_VALUE]),
    );
    const outQ = q.buffer(
      vec4h,
      Array.from({ length: n }, (): [number, number, number, number] => [
        POISON_VALUE,
        POISON_VALUE,
        POISON_VALUE,
        POISON_VALUE,
      ]),
    );
    await q
      .parallelFor(n, vectors, {
        p: q.buffer(vec2h, p, { access: 'read' }),
        q: q.buffer(vec4h, v, { access: 'read' }),
        outP,
        outQ,
        k: k!,
      })
      .wait();
    const gotP = await outP.read();
    const gotQ = await outQ.read();
    const bad: string[] = [];
    for (let i = 0; i < n; i++) {
      const [u0, u1] = p[i]!;
      const [v0, v1, v2, v3] = v[i]!;
      // u * k + v.wz: a GPU may fuse the multiply and the add (one rounding) or not (two).
      const muladd = (x: number, y: number, z: number) => [f16Round(x * y) + z, x * y + z];
      const wantP = [muladd(u0, k!, v3), muladd(u1, k!, v2)];
      const wantQ = [muladd(-v0, k!, u0), muladd(-v1, k!, u1), [u1 - v2], [u0 + v3]];
      wantP.forEach((want, c) => {
        if (!halfMatches(gotP[i]![c]!, want)) {
          mismatch(bad, `outP[${c}]`, `u=${p[i]} v=${v[i]} k=${k}`, gotP[i]![c]!, want);
        }
      });
      wantQ.forEach((want, c) => {
        if (!halfMatches(gotQ[i]![c]!, want)) {
          mismatch(bad, `outQ[${c}]`, `u=${p[i]} v=${v[i]} k=${k}`, gotQ[i]![c]!, want);
        }
      });
    }
    return bad;
  },
};

const structsCheck: F16Check = {
  name: 'f16 members of structs in a buffer and of a struct value argument (uniform)',
  async run(q, seed) {
    const n = 200 + (randomU32(1, seed)[0]! % 200);
    const live = n - 1 - (randomU32(1, seed + 9)[0]! % 20);
    const r = randomHalves(n * 8 + 3, seed + 1);
    const src = Array.from({ length: n }, (_, i) => ({
      a: r[i * 8]!,
      b: [r[i * 8 + 1]!, r[i * 8 + 2]!, r[i * 8 + 3]!] as [number, number, number],
      c: Math.fround(r[i * 8 + 4]! * 1.0001),
      d: [r[i * 8 + 5]!, r[i * 8 + 6]!] as [number, number],
      e: r[i * 8 + 7]!,
    }));
    const shift: [number, number] = [r[n * 8 + 1]!, r[n * 8 + 2]!];
    const params = { scale: r[n * 8]!, shift, n: live };
    const poison = {
      a: POISON_VALUE,
      b: [0, 0, POISON_VALUE] as [number, number, number],
      c: -1,
      d: [0, POISON_VALUE] as [number, number],
      e: 0,
    };
    const dst = q.buffer(Mixed, Array(n).fill(poison));
    await q
      .parallelFor(n, structs, {
        src: q.buffer(Mixed, src, { access: 'read' }),
        dst,
        params,
      })
      .wait();
    const got = await dst.read();
    const bad: string[] = [];
    const [s0, s1] = params.shift;
    for (let i = 0; i < n; i++) {
      const m = src[i]!;
      const g = got[i]!;
      const want =
        i < live
          ? {
              a: f16Round(m.a * params.scale),
              b: [m.b[0] + s0, m.b[1] + s1, m.b[2] + m.e].map(f16Round),
              c: Math.fround(m.c + m.a),
              d: [m.d[0] * s0, m.d[1] * s1].map(f16Round),
              e: f16Round(m.e - params.scale),
            }
          : poison;
      const same =
        g.a === want.a &&
        g.c === want.c &&
        g.e === want.e &&
        g.b.every((x, c) => x === want.b[c]) &&
        g.d.every((x, c) => x === want.d[c]);
      if (!same && bad.length < 8) {
        bad.push(`element ${i}: got ${JSON.stringify(g)}, expected ${JSON.stringify(want)}`);
      }
    }
    return bad;
  },
};

const constantsCheck: F16Check = {
  name: 'f16 specialization constants (scalar and vec4h) and an f16 device global',
  async run(q, seed) {
    const n = 64 + (randomU32(1, seed)[0]! % 64);
    const x = randomHalves(n, seed + 1, -4, 3);
    const [g, ...o] = randomHalves(5, seed + 2, -4, 3);
    const start = randomHalves(8, seed + 3, -4, 3);
    await q.copy(start, table).wait();
    const out = q.buffer(f16, new Uint16Array(n * 2).fill(POISON_BITS));
    const input = q.buffer(f16, bitsOf(x), { access: 'read' });
    await q
      .submit((cgh) => {
        cgh.setSpecializationConstant(gain, g!);
        cgh.setSpecializationConstant(offsets, [o[0]!, o[1]!, o[2]!, o[3]!]);
        cgh.parallelFor(n, constants, { x: input, out });
      })
      .wait();
    const got = Array.from(await out.read(), f16BitsToNumber);
    const globals = new Array<number>(8).fill(POISON_VALUE);
    await q.copy(table, globals).wait();
    const bad: string[] = [];
    for (let i = 0; i < n; i++) {
      const v = f16Round(x[i]! * g!);
      // v + o: the multiply that made v may be fused into the add.
      const wanted = [[v], [v + o[i % 4]!, x[i]! * g! + o[i % 4]!]];
      wanted.forEach((want, k) => {
        if (!halfMatches(got[i * 2 + k]!, want)) {
          mismatch(
            bad,
            `out[${i * 2 + k}]`,
            `x=${x[i]} gain=${g} offsets=${o}`,
            got[i * 2 + k]!,
            want,
          );
        }
      });
    }
    for (let i = 0; i < 8; i++) {
      const want = [start[i]! + f16Round(x[i]! * g!), start[i]! + x[i]! * g!];
      if (!halfMatches(globals[i]!, want)) {
        mismatch(bad, `table[${i}]`, `start=${start[i]} x=${x[i]} gain=${g}`, globals[i]!, want);
      }
    }
    return bad;
  },
};

/** WGSL's round: to the nearest integer, halves to even. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const builtinsCheck: F16Check = {
  name: 'built-ins, device functions (raw WGSL too), loops, private and workgroup arrays, vec3h',
  async run(q, seed) {
    const n = 64 * (4 + (randomU32(1, seed)[0]! % 8));
    // Every fourth value a half-integer: the ties of round and Math.round.
    const x = randomHalves(n, seed + 1, -3, 4).map((v, i) =>
      i % 4 ? v : Math.sign(v) * (Math.trunc(Math.abs(v)) + 0.5),
    );
    const v3 = Array.from({ length: n }, (_, i): [number, number, number] => [
      x[i]!,
      x[(i + 1) % n]!,
      x[(i + 2) % n]!,
    ]);
    const out = q.buffer(f16, new Uint16Array(n * 20).fill(POISON_BITS));
    const vectors = q.buffer(vec3h, v3);
    await q
      .parallelFor(ndRange([n], [64]), builtins, {
        x: q.buffer(f16, bitsOf(x), { access: 'read' }),
        v3: vectors,
        out,
      })
      .wait();
    const got = Array.from(await out.read(), f16BitsToNumber);
    const bad: string[] = [];
    for (let i = 0; i < n; i++) {
      const h = x[i]!;
      const next = x[i - (i % 64) + ((i + 1) % 64)]!;
      const acc = f16Round(f16Round(f16Round(h + h) + h) + 1);
      // Exact results, compared as numbers (WGSL leaves the sign of a zero result open).
      const exact = [
        Math.abs(h),
        Math.floor(h),
        Math.ceil(h),
        Math.trunc(h),
        roundHalfEven(h),
        Math.round(h),
        Math.sign(h),
        Math.min(Math.max(h, 0), 1),
        Math.min(h, next),
        Math.max(h, next),
        Math.min(Math.max(h, -1), 1),
      ];
      exact.forEach((want, k) => {
        if (got[i * 20 + k] !== want) {
          mismatch(bad, `built-in ${k}`, `x=${h} next=${next}`, got[i * 20 + k]!, [want]);
        }
      });
      const root = Math.sqrt(Math.abs(h));
      if (!halfMatches(got[i * 20 + 11]!, [root], 4)) {
        mismatch(bad, 'sqrt(abs(x)) within 4 ULP', `x=${h}`, got[i * 20 + 11]!, [root]);
      }
      const rest = [
        [h > next ? h : next],
        // fma may be the fused operation or a multiply and an add (WGSL inherits its accuracy).
        [h * next + 1, f16Round(h * next) + 1],
        [(h === next ? 1 : 0) + (h < next ? 2 : 0)],
        [h * 2],
        [h * 0.25],
        [acc],
        [next],
        [[h, next, 1][i % 3]!],
      ];
      rest.forEach((want, k) => {
        if (!halfMatches(got[i * 20 + 12 + k]!, want)) {
          mismatch(bad, `result ${12 + k}`, `x=${h} next=${next}`, got[i * 20 + 12 + k]!, want);
        }
      });
    }
    const reversed = await vectors.read();
    reversed.forEach((v, i) => {
      const want = [...v3[i]!].reverse();
      if (v.some((c, k) => c !== want[k]) && bad.length < 8) {
        bad.push(`v3[${i}]: got ${v}, expected ${want}`);
      }
    });
    return bad;
  },
};

export const F16_CHECKS: readonly F16Check[] = [
  arithCheck,
  convertCheck,
  literalsCheck,
  vectorsCheck,
  structsCheck,
  constantsCheck,
  builtinsCheck,
];
