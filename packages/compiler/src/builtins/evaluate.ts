/**
 * One TypeScript implementation per entry of the built-in table, run by the reference
 * interpreter (interpret/) and, for the entries WGSL evaluates on constants, by the constant
 * checker (frontend/lower/const-check.ts): folding and the oracle agree by construction.
 *
 * A component-wise built-in computes each component in double precision from the arguments'
 * components; its caller rounds the result once to the result's type (the interpreter wraps
 * and rounds, the constant checker refuses a result WGSL rejects). Within every accuracy WGSL
 * allows: correctly rounded where WGSL requires it (`abs`, `floor`, `min`, ...), so a GPU
 * result may differ from these by the error WGSL grants the GPU (`sqrt`, `exp`, `sin`, ...).
 */
import {
  type BuiltinName,
  type DataType,
  f16Bits,
  f16BitsToNumber,
  f16Round,
  type ScalarName,
} from '@syclts/dsl';

export type Scalar = number | boolean;
/** Scalars, vectors as arrays of scalars, matrices as arrays of columns. */
export type Value = Scalar | Value[];

/** One component of the result from one component of each argument, before rounding. */
type Component = (xs: readonly number[], scalar: ScalarName) => number;
/** A built-in on whole values (reductions, vectors, matrices, bools), rounding itself. */
type Whole = (args: readonly Value[], types: readonly DataType[], result: DataType) => Value;
/**
 * Why WGSL rejects a call on constants beyond a result that is not finite (crossed `clamp`
 * bounds, bits that are no finite f32), from the arguments known to be constant (others null).
 */
type ConstRule = (args: readonly (readonly Scalar[] | null)[], from: ScalarName) => string | null;

export type Implementation =
  | { readonly each: Component; readonly constRule?: ConstRule }
  | { readonly whole: Whole; readonly constRule?: ConstRule };

/** The scalar of a scalar, vector or array type (f32 for matrices and structs). */
export function scalarOf(t: DataType): ScalarName {
  switch (t.kind) {
    case 'scalar':
    case 'atomic':
      return t.scalar;
    case 'vector':
      return t.component;
    case 'array':
      return scalarOf(t.element);
    default:
      return 'f32';
  }
}

/** `x` rounded or wrapped to `scalar`, as a run-time WGSL operation gives it. */
export function roundScalar(scalar: ScalarName, x: number): Scalar {
  switch (scalar) {
    case 'bool':
      return x !== 0;
    case 'i32':
      return x | 0;
    case 'u32':
      return x >>> 0;
    case 'f32':
      return Math.fround(x);
    case 'f16':
      return f16Round(x);
  }
}

const each = (f: Component, constRule?: ConstRule): Implementation =>
  constRule ? { each: f, constRule } : { each: f };
const unary = (f: (x: number) => number) => each(([x]) => f(x!));

function countTrailingZeros(x: number): number {
  return x === 0 ? 32 : 31 - Math.clz32(x & -x);
}
function reverseBits(x: number): number {
  let r = 0;
  for (let i = 0; i < 32; i++) r = (r << 1) | ((x >>> i) & 1);
  return r;
}
function countOneBits(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) n++;
  return n;
}
/** For i32, the highest bit that differs from the sign bit; -1 (all ones) when there is none. */
function firstLeadingBit(x: number, s: ScalarName): number {
  const v = s === 'i32' && x < 0 ? ~x : x >>> 0;
  return v === 0 ? -1 : 31 - Math.clz32(v);
}
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
/** JavaScript's rounding as the WGSL helper computes it: -0.5 gives +0, as floor(x) + 1 does. */
function roundHalfUp(x: number): number {
  const f = Math.floor(x);
  return x - f >= 0.5 ? f + 1 : f;
}

const bits = new DataView(new ArrayBuffer(4));
function bitcast(to: ScalarName, from: ScalarName, x: number): number {
  if (from === 'f32') bits.setFloat32(0, x, true);
  else bits.setUint32(0, x >>> 0, true);
  if (to === 'f32') return bits.getFloat32(0, true);
  return to === 'i32' ? bits.getInt32(0, true) : bits.getUint32(0, true);
}
const bitcastTo = (to: ScalarName): Implementation =>
  each(
    ([x], from) => bitcast(to, from, x!),
    ([x], from) => {
      if (to !== 'f32' || !x) return null;
      const bad = x.find((v) => !Number.isFinite(bitcast('f32', from, Number(v))));
      if (bad === undefined) return null;
      const u = bitcast('u32', from, Number(bad));
      const what = Number.isNaN(bitcast('f32', from, Number(bad))) ? 'NaN' : 'infinity';
      return `the bits 0x${u.toString(16)} are an f32 ${what}`;
    },
  );

const components = (v: Value): number[] => (Array.isArray(v) ? (v as number[]) : [v as number]);

/** Exact in double for f32 inputs up to 4 terms, then rounded once. */
function lengthOf(v: readonly number[]): number {
  return Math.sqrt(v.reduce((m, x) => m + x * x, 0));
}

function determinant(m: readonly (readonly number[])[]): number {
  const n = m.length;
  if (n === 2) return m[0]![0]! * m[1]![1]! - m[1]![0]! * m[0]![1]!;
  let det = 0;
  for (let c = 0; c < n; c++) {
    const minor = m.filter((_, i) => i !== c).map((col) => col.slice(1));
    det += (c % 2 === 0 ? 1 : -1) * m[c]![0]! * determinant(minor);
  }
  return det;
}

function dot(a: readonly number[], b: readonly number[], s: ScalarName): Scalar {
  if (s === 'i32' || s === 'u32') {
    // Integer products and sums wrap, each step.
    let acc = 0;
    for (let i = 0; i < a.length; i++) acc = (acc + Math.imul(a[i]!, b[i]!)) | 0;
    return roundScalar(s, acc);
  }
  return roundScalar(
    s,
    a.reduce((m, x, i) => m + x * b[i]!, 0),
  );
}

const boolReduce =
  (every: boolean): Whole =>
  ([v]) =>
    Array.isArray(v) ? (every ? v.every(Boolean) : v.some(Boolean)) : Boolean(v);

/**
 * WGSL's pack of `e`'s components into `width`-bit fields of a u32, component 0 lowest: each
 * clamped to [-1, 1] (snorm) or [0, 1] (unorm) and scaled to ⌊0.5 + scale·e⌋, exactly in double.
 */
function packNorm(width: 8 | 16, signed: boolean): Implementation {
  const scale = (signed ? 2 ** (width - 1) : 2 ** width) - 1;
  const mask = 2 ** width - 1;
  return {
    whole: ([v]) =>
      components(v!).reduce((bits, e, i) => {
        const c = signed ? Math.min(1, Math.max(-1, e)) : Math.min(1, Math.max(0, e));
        return (bits | ((Math.floor(0.5 + scale * c) & mask) << (width * i))) >>> 0;
      }, 0),
  };
}

/** Each field v of `width` bits of `x`: max(v ÷ scale, -1) (snorm) or v ÷ scale (unorm), in f32. */
function unpackNorm(width: 8 | 16, signed: boolean): Implementation {
  const scale = (signed ? 2 ** (width - 1) : 2 ** width) - 1;
  return {
    whole: ([x]) =>
      Array.from({ length: 32 / width }, (_, i) => {
        const field = fieldOf(x as number, width, i, signed);
        return Math.fround(Math.max(field / scale, -1));
      }),
  };
}

/** Field `i` of `width` bits of `x`, sign-extended when `signed`. */
function fieldOf(x: number, width: 8 | 16, i: number, signed: boolean): number {
  const shift = 32 - width;
  return signed ? (x << (shift - width * i)) >> shift : (x >>> (width * i)) & (2 ** width - 1);
}

/** pack4xI8 and its kin: each component's low 8 bits, after clamping to [lo, hi] when given. */
function pack4x8(lo?: number, hi?: number): Implementation {
  return {
    whole: ([v]) =>
      components(v!).reduce((bits, e, i) => {
        const c = lo === undefined || hi === undefined ? e : Math.min(hi, Math.max(lo, e));
        return (bits | ((c & 0xff) << (8 * i))) >>> 0;
      }, 0),
  };
}

const unpack4x8 = (signed: boolean): Implementation => ({
  whole: ([x]) => [0, 1, 2, 3].map((i) => fieldOf(x as number, 8, i, signed)),
});

/** The largest finite f16. */
const F16_MAX = 65504;

const absolute = each(([x], s) => (s === 'u32' ? x! : Math.abs(x!)));
const minimum = each(([a, b]) => Math.min(a!, b!));
const maximum = each(([a, b]) => Math.max(a!, b!));
const clampComponent: Component = ([e, lo, hi]) => Math.min(Math.max(e!, lo!), hi!);

export const IMPLEMENTATIONS: { readonly [K in BuiltinName]: Implementation } = {
  sqrt: unary(Math.sqrt),
  inverseSqrt: unary((x) => 1 / Math.sqrt(x)),
  sin: unary(Math.sin),
  cos: unary(Math.cos),
  tan: unary(Math.tan),
  asin: unary(Math.asin),
  acos: unary(Math.acos),
  atan: unary(Math.atan),
  sinh: unary(Math.sinh),
  cosh: unary(Math.cosh),
  tanh: unary(Math.tanh),
  asinh: unary(Math.asinh),
  acosh: unary(Math.acosh),
  atanh: unary(Math.atanh),
  exp: unary(Math.exp),
  exp2: unary((x) => 2 ** x),
  log: unary(Math.log),
  log2: unary(Math.log2),
  floor: unary(Math.floor),
  ceil: unary(Math.ceil),
  round: unary(roundHalfEven),
  trunc: unary(Math.trunc),
  fract: unary((x) => x - Math.floor(x)),
  saturate: unary((x) => Math.min(1, Math.max(0, x))),
  degrees: unary((x) => (x * 180) / Math.PI),
  radians: unary((x) => (x * Math.PI) / 180),
  pow: each(([x, y]) => x! ** y!),
  atan2: each(([y, x]) => Math.atan2(y!, x!)),
  step: each(([edge, x]) => (x! >= edge! ? 1 : 0)),
  fma: each(([a, b, c]) => a! * b! + c!),
  mix: each(([a, b, t]) => a! * (1 - t!) + b! * t!),
  smoothstep: each(([lo, hi, x]) => {
    const t = Math.min(1, Math.max(0, (x! - lo!) / (hi! - lo!)));
    return t * t * (3 - 2 * t);
  }),
  abs: absolute,
  sign: unary((x) => (x > 0 ? 1 : x < 0 ? -1 : 0)),
  min: minimum,
  max: maximum,
  clamp: each(clampComponent, ([, lo, hi]) => {
    if (!lo || !hi) return null;
    const at = (v: readonly Scalar[], i: number) => v[v.length === 1 ? 0 : i]!;
    const n = Math.max(lo.length, hi.length);
    for (let i = 0; i < n; i++) {
      if (Number(at(lo, i)) > Number(at(hi, i))) {
        return `clamp's low bound ${at(lo, i)} is above its high bound ${at(hi, i)}, which WGSL rejects for constant bounds`;
      }
    }
    return null;
  }),
  countOneBits: unary(countOneBits),
  reverseBits: unary(reverseBits),
  countLeadingZeros: unary(Math.clz32),
  countTrailingZeros: unary(countTrailingZeros),
  firstLeadingBit: each(([x], s) => firstLeadingBit(x!, s)),
  firstTrailingBit: unary((x) => (x === 0 ? -1 : countTrailingZeros(x))),
  length: {
    whole: ([v], types) => roundScalar(scalarOf(types[0]!), lengthOf(components(v!))),
  },
  distance: {
    whole: ([a, b], types) => {
      const s = scalarOf(types[0]!);
      const bs = components(b!);
      return roundScalar(
        s,
        lengthOf(components(a!).map((x, i) => roundScalar(s, x - bs[i]!) as number)),
      );
    },
  },
  normalize: {
    whole: ([v], types) => {
      const s = scalarOf(types[0]!);
      const xs = components(v!);
      const n = lengthOf(xs);
      return xs.map((x) => roundScalar(s, x / n));
    },
  },
  dot: { whole: ([a, b], types) => dot(components(a!), components(b!), scalarOf(types[0]!)) },
  cross: {
    whole: ([a, b], types) => {
      const s = scalarOf(types[0]!);
      const [a0, a1, a2] = components(a!);
      const [b0, b1, b2] = components(b!);
      return [a1! * b2! - a2! * b1!, a2! * b0! - a0! * b2!, a0! * b1! - a1! * b0!].map((x) =>
        roundScalar(s, x),
      );
    },
  },
  select: {
    whole: ([f, t, c]) => {
      if (!Array.isArray(c)) return c ? t! : f!;
      return c.map((x, i) => (x ? (t as Value[])[i]! : (f as Value[])[i]!));
    },
  },
  all: { whole: boolReduce(true) },
  any: { whole: boolReduce(false) },
  transpose: {
    whole: ([m]) => {
      const cols = m as number[][];
      return cols[0]!.map((_, r) => cols.map((col) => col[r]!));
    },
  },
  determinant: { whole: ([m]) => Math.fround(determinant(m as number[][])) },
  bitcastF32: bitcastTo('f32'),
  bitcastI32: bitcastTo('i32'),
  bitcastU32: bitcastTo('u32'),
  pack4x8snorm: packNorm(8, true),
  pack4x8unorm: packNorm(8, false),
  pack2x16snorm: packNorm(16, true),
  pack2x16unorm: packNorm(16, false),
  pack2x16float: {
    // Outside f16's finite range the result is indeterminate (here: infinity's bits), and a
    // constant there is a shader-creation error.
    whole: ([v]) =>
      components(v!).reduce((bits, e, i) => (bits | (f16Bits(e) << (16 * i))) >>> 0, 0),
    constRule: ([v]) => {
      const bad = v?.find((e) => !(Math.abs(Number(e)) <= F16_MAX));
      return bad === undefined
        ? null
        : `pack2x16float's component ${bad} is outside f16's finite range (±${F16_MAX})`;
    },
  },
  unpack4x8snorm: unpackNorm(8, true),
  unpack4x8unorm: unpackNorm(8, false),
  unpack2x16snorm: unpackNorm(16, true),
  unpack2x16unorm: unpackNorm(16, false),
  unpack2x16float: {
    whole: ([x]) => [0, 1].map((i) => f16BitsToNumber(fieldOf(x as number, 16, i, false))),
  },
  pack4xI8: pack4x8(),
  pack4xU8: pack4x8(),
  pack4xI8Clamp: pack4x8(-128, 127),
  pack4xU8Clamp: pack4x8(0, 255),
  unpack4xI8: unpack4x8(true),
  unpack4xU8: unpack4x8(false),
  jsRound: unary(roundHalfUp),
  f32FromBits: bitcastTo('f32'),
  clz32: unary(Math.clz32),
  i32Min: minimum,
  i32Max: maximum,
  i32Clamp: each(clampComponent),
  i32Abs: absolute,
};

/**
 * The built-in on interpreter values: component-wise ones applied to each component and
 * rounded once to the result's type.
 */
export function applyBuiltin(
  impl: Implementation,
  args: readonly Value[],
  types: readonly DataType[],
  result: DataType,
): Value {
  if ('whole' in impl) return impl.whole(args, types, result);
  const from = scalarOf(types[0]!);
  const to = scalarOf(result);
  const first = args[0]!;
  if (!Array.isArray(first)) return roundScalar(to, impl.each(args as number[], from));
  return first.map((_, i) =>
    roundScalar(
      to,
      impl.each(
        args.map((a) => (Array.isArray(a) ? (a[i] as number) : (a as number))),
        from,
      ),
    ),
  );
}
