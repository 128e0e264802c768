/**
 * WGSL's built-in functions on interpreter values. Float results are computed in double
 * precision and rounded once to the result's precision: within every accuracy WGSL allows
 * (correctly rounded where WGSL requires it, e.g. `abs`, `floor`, `min`), so a GPU result may
 * differ from these by the ULPs WGSL grants the GPU (`sqrt`, `exp`, `sin`, ...).
 */
import type { DataType, ScalarName } from '@syclts/dsl';
import { binaryScalar } from './numbers.js';
import { type Scalar, toScalar, type Value } from './values.js';

type Fn = (args: readonly Value[], types: readonly DataType[], result: DataType) => Value;

function scalarOf(t: DataType): ScalarName {
  switch (t.kind) {
    case 'scalar':
    case 'atomic':
      return t.scalar;
    case 'vector':
      return t.component;
    default:
      return 'f32';
  }
}

/** Applies `f` to each component of same-shaped scalar or vector arguments. */
function componentwise(f: (xs: number[], s: ScalarName) => number): Fn {
  return (args, types) => {
    const s = scalarOf(types[0]!);
    const first = args[0]!;
    if (!Array.isArray(first)) return toScalar(s, f(args as number[], s));
    return first.map((_, i) =>
      toScalar(
        s,
        f(
          args.map((a) => (a as number[])[i]!),
          s,
        ),
      ),
    );
  };
}

const isInt = (s: ScalarName) => s === 'i32' || s === 'u32';

const floatUnary = (f: (x: number) => number): Fn => componentwise(([x]) => f(x!));

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function countLeadingZeros(x: number): number {
  return Math.clz32(x);
}
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
function firstTrailingBit(x: number): number {
  return x === 0 ? -1 : countTrailingZeros(x);
}

function sum(xs: readonly number[], s: ScalarName): number {
  let acc: Scalar = 0;
  for (const x of xs) acc = binaryScalar('+', s, acc, x);
  return acc as number;
}
function dot(a: readonly number[], b: readonly number[], s: ScalarName): number {
  return sum(
    a.map((x, i) => binaryScalar('*', s, x, b[i]!) as number),
    s,
  );
}
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

const bits = new DataView(new ArrayBuffer(4));
function bitcast(to: ScalarName, from: ScalarName, x: number): number {
  if (from === 'f32') bits.setFloat32(0, x, true);
  else bits.setUint32(0, x >>> 0, true);
  if (to === 'f32') return bits.getFloat32(0, true);
  return to === 'i32' ? bits.getInt32(0, true) : bits.getUint32(0, true);
}

const FUNCTIONS: ReadonlyMap<string, Fn> = new Map<string, Fn>([
  ['sqrt', floatUnary(Math.sqrt)],
  ['inverseSqrt', floatUnary((x) => 1 / Math.sqrt(x))],
  ['sin', floatUnary(Math.sin)],
  ['cos', floatUnary(Math.cos)],
  ['tan', floatUnary(Math.tan)],
  ['asin', floatUnary(Math.asin)],
  ['acos', floatUnary(Math.acos)],
  ['atan', floatUnary(Math.atan)],
  ['sinh', floatUnary(Math.sinh)],
  ['cosh', floatUnary(Math.cosh)],
  ['tanh', floatUnary(Math.tanh)],
  ['asinh', floatUnary(Math.asinh)],
  ['acosh', floatUnary(Math.acosh)],
  ['atanh', floatUnary(Math.atanh)],
  ['exp', floatUnary(Math.exp)],
  ['exp2', floatUnary((x) => 2 ** x)],
  ['log', floatUnary(Math.log)],
  ['log2', floatUnary(Math.log2)],
  ['floor', floatUnary(Math.floor)],
  ['ceil', floatUnary(Math.ceil)],
  ['round', floatUnary(roundHalfEven)],
  ['trunc', floatUnary(Math.trunc)],
  ['fract', floatUnary((x) => x - Math.floor(x))],
  ['saturate', floatUnary((x) => Math.min(1, Math.max(0, x)))],
  ['degrees', floatUnary((x) => (x * 180) / Math.PI)],
  ['radians', floatUnary((x) => (x * Math.PI) / 180)],
  ['countOneBits', componentwise(([x]) => countOneBits(x!))],
  ['reverseBits', componentwise(([x]) => reverseBits(x!))],
  ['countLeadingZeros', componentwise(([x]) => countLeadingZeros(x!))],
  ['countTrailingZeros', componentwise(([x]) => countTrailingZeros(x!))],
  ['firstLeadingBit', componentwise(([x], s) => firstLeadingBit(x!, s))],
  ['firstTrailingBit', componentwise(([x]) => firstTrailingBit(x!))],
  ['pow', componentwise(([x, y]) => x! ** y!)],
  ['atan2', componentwise(([y, x]) => Math.atan2(y!, x!))],
  ['step', componentwise(([edge, x]) => (x! >= edge! ? 1 : 0))],
  ['fma', componentwise(([a, b, c]) => a! * b! + c!)],
  ['mix', componentwise(([a, b, t]) => a! * (1 - t!) + b! * t!)],
  [
    'smoothstep',
    componentwise(([lo, hi, x]) => {
      const t = Math.min(1, Math.max(0, (x! - lo!) / (hi! - lo!)));
      return t * t * (3 - 2 * t);
    }),
  ],
  ['abs', componentwise(([x], s) => (s === 'u32' ? x! : Math.abs(x!)))],
  ['sign', componentwise(([x]) => (x! > 0 ? 1 : x! < 0 ? -1 : 0))],
  ['min', componentwise(([a, b]) => Math.min(a!, b!))],
  ['max', componentwise(([a, b]) => Math.max(a!, b!))],
  ['clamp', componentwise(([e, lo, hi]) => Math.min(Math.max(e!, lo!), hi!))],
  ['length', (args, types) => toScalar(scalarOf(types[0]!), lengthOf(vectorOf(args[0]!)))],
  [
    'distance',
    (args, types) => {
      const s = scalarOf(types[0]!);
      const a = vectorOf(args[0]!);
      const b = vectorOf(args[1]!);
      return toScalar(s, lengthOf(a.map((x, i) => toScalar(s, x - b[i]!) as number)));
    },
  ],
  [
    'normalize',
    (args, types) => {
      const s = scalarOf(types[0]!);
      const v = args[0] as number[];
      const n = lengthOf(v);
      return v.map((x) => toScalar(s, x / n));
    },
  ],
  [
    'dot',
    (args, types) => {
      const s = scalarOf(types[0]!);
      const a = args[0] as number[];
      const b = args[1] as number[];
      return isInt(s)
        ? dot(a, b, s)
        : toScalar(
            s,
            a.reduce((m, x, i) => m + x * b[i]!, 0),
          );
    },
  ],
  [
    'cross',
    (args, types) => {
      const s = scalarOf(types[0]!);
      const [a0, a1, a2] = args[0] as number[];
      const [b0, b1, b2] = args[1] as number[];
      return [a1! * b2! - a2! * b1!, a2! * b0! - a0! * b2!, a0! * b1! - a1! * b0!].map((x) =>
        toScalar(s, x),
      );
    },
  ],
  [
    'select',
    ([f, t, c]) => {
      if (!Array.isArray(c)) return c ? t! : f!;
      return c.map((x, i) => (x ? (t as Value[])[i]! : (f as Value[])[i]!));
    },
  ],
  ['all', ([v]) => (Array.isArray(v) ? v.every(Boolean) : Boolean(v))],
  ['any', ([v]) => (Array.isArray(v) ? v.some(Boolean) : Boolean(v))],
  [
    'transpose',
    ([m]) => {
      const cols = m as number[][];
      return cols[0]!.map((_, r) => cols.map((col) => col[r]!));
    },
  ],
  ['determinant', ([m]) => Math.fround(determinant(m as number[][]))],
  ...(['f32', 'i32', 'u32'] as const).map((to): [string, Fn] => [
    `bitcast<${to}>`,
    ([x], types) => bitcast(to, scalarOf(types[0]!), x as number),
  ]),
]);

function vectorOf(v: Value): number[] {
  return Array.isArray(v) ? (v as number[]) : [v as number];
}

/** The WGSL built-in `name` applied to `args`, or undefined when the interpreter has none. */
export function builtinFunction(name: string): Fn | undefined {
  return FUNCTIONS.get(name);
}

/** The names of the built-ins the interpreter implements (arrayLength is a place query, apart). */
export const INTERPRETED_BUILTINS: ReadonlySet<string> = new Set([
  ...FUNCTIONS.keys(),
  'arrayLength',
]);
