/**
 * The built-in functions of device code, one entry each, in the shape of Tint's `core.def`:
 * everything syclts knows about a built-in is written here once, as data. The DSL's exports and
 * their typings (builtins/index.ts), the compiler's overload resolution and lowering, the
 * constant folder, the reserved WGSL names and the list in docs/device-code.md all come from
 * this table; the compiler holds one TypeScript implementation per entry, which both the
 * reference interpreter and the constant folder run.
 *
 * An overload is written `(P, ...) -> R`, each type one of:
 * - `T`: a scalar of the entry's type set `T` (`S`: of the set `S`);
 * - `vecN<T>`: a vector of T, the same N (2, 3 or 4) throughout the overload; `vec2<T>`,
 *   `vec3<T>`, `vec4<T>`: of that size;
 * - `bool`, `vecN<bool>`, `f32`, `i32`, `u32`, `vec4<f32>` (a size and a scalar): those types;
 * - `matCxR<f32>`, `matRxC<f32>` (C columns and R rows, swapped), `matNxN<f32>` (square).
 * Arguments of type T given as literals take T's type from the other arguments, or from the
 * context, as WGSL's abstract numbers do.
 */

/** A scalar type set, as a union spelled with `|`. */
type TypeSet = string;

/**
 * How close a float result is to the exact one, as WGSL states it for f32: `exact` is
 * correctly rounded; `inherited` is the accuracy of the expression WGSL defines it by; `2ulp`
 * (inverseSqrt); `3ulp` (unpacking normalized values); `log` is 3 ULP outside [0.5, 2] and
 * 2^-21 absolute inside; `exp` is 3 + 2·|x| ULP; `4096ulp` (atan, atan2); `sincos` is 2^-11
 * absolute inside [-π, π].
 */
export type BuiltinAccuracy =
  | 'exact'
  | 'inherited'
  | '2ulp'
  | '3ulp'
  | 'log'
  | 'exp'
  | '4096ulp'
  | 'sincos';

export interface BuiltinEntry {
  /** The WGSL function called; the entry's name when absent. */
  readonly wgsl?: string;
  /** The scalar types T (and S) stands for. */
  readonly T?: TypeSet;
  readonly S?: TypeSet;
  readonly overloads: readonly string[];
  /** Whether WGSL evaluates it on constant arguments (and the build checks that evaluation). */
  readonly fold: boolean;
  readonly accuracy: BuiltinAccuracy;
  /** `false` for an entry only reached through `Math`. */
  readonly dsl?: false;
  /** The `Math` function that means this entry. */
  readonly math?: string;
  /** `Math.min`/`Math.max`: any number of arguments, nested two at a time. */
  readonly variadic?: true;
  /** What to write instead, told when no overload takes a call's arguments. */
  readonly otherwise?: string;
  /**
   * A helper function printed once per WGSL module that uses it, for each argument type:
   * `$name` is its name, `$T` the argument's WGSL type, `$U` the u32 type of its shape, its
   * parameters `x`, `y`, `z`.
   */
  readonly helper?: string;
}

const FLOAT = 'f32|f16';
const SIGNED = 'f32|f16|i32';
const NUMERIC = 'f32|f16|i32|u32';
const INTEGER = 'i32|u32';
const SCALAR = 'bool|f32|f16|i32|u32';
const BITS = 'f32|i32|u32';

const UNARY = ['(T) -> T', '(vecN<T>) -> vecN<T>'] as const;
const BINARY = ['(T, T) -> T', '(vecN<T>, vecN<T>) -> vecN<T>'] as const;
const TERNARY = ['(T, T, T) -> T', '(vecN<T>, vecN<T>, vecN<T>) -> vecN<T>'] as const;
const TO_SCALAR = ['(T) -> T', '(vecN<T>) -> T'] as const;

// biome-ignore format: one line per built-in, as in Tint's core.def
export const BUILTIN_TABLE = {
  sqrt: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'sqrt' },
  inverseSqrt: { T: FLOAT, overloads: UNARY, fold: true, accuracy: '2ulp' },
  sin: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'sincos', math: 'sin' },
  cos: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'sincos', math: 'cos' },
  tan: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'tan' },
  asin: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'asin' },
  acos: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'acos' },
  atan: { T: FLOAT, overloads: UNARY, fold: true, accuracy: '4096ulp', math: 'atan' },
  sinh: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'sinh' },
  cosh: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'cosh' },
  tanh: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'tanh' },
  asinh: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'asinh' },
  acosh: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'acosh' },
  atanh: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited', math: 'atanh' },
  exp: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'exp', math: 'exp' },
  exp2: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'exp' },
  log: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'log', math: 'log' },
  log2: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'log', math: 'log2' },
  floor: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'exact', math: 'floor' },
  ceil: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'exact', math: 'ceil' },
  /** WGSL rounding: halves go to the even neighbour (`Math.round` rounds them up). */
  round: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'exact' },
  trunc: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'exact', math: 'trunc' },
  fract: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited' },
  saturate: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'exact' },
  degrees: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited' },
  radians: { T: FLOAT, overloads: UNARY, fold: true, accuracy: 'inherited' },
  pow: { T: FLOAT, overloads: BINARY, fold: true, accuracy: 'inherited', math: 'pow' },
  atan2: { T: FLOAT, overloads: BINARY, fold: true, accuracy: '4096ulp', math: 'atan2' },
  step: { T: FLOAT, overloads: BINARY, fold: true, accuracy: 'exact' },
  fma: { T: FLOAT, overloads: TERNARY, fold: true, accuracy: 'inherited' },
  mix: { T: FLOAT, overloads: TERNARY, fold: true, accuracy: 'inherited' },
  smoothstep: { T: FLOAT, overloads: TERNARY, fold: false, accuracy: 'inherited' },
  abs: { T: NUMERIC, overloads: UNARY, fold: true, accuracy: 'exact', math: 'abs' },
  sign: { T: SIGNED, overloads: UNARY, fold: true, accuracy: 'exact', math: 'sign' },
  min: { T: NUMERIC, overloads: BINARY, fold: true, accuracy: 'exact', math: 'min', variadic: true },
  max: { T: NUMERIC, overloads: BINARY, fold: true, accuracy: 'exact', math: 'max', variadic: true },
  clamp: { T: NUMERIC, overloads: TERNARY, fold: true, accuracy: 'exact' },
  countOneBits: { T: INTEGER, overloads: UNARY, fold: true, accuracy: 'exact' },
  reverseBits: { T: INTEGER, overloads: UNARY, fold: true, accuracy: 'exact' },
  countLeadingZeros: { T: INTEGER, overloads: UNARY, fold: true, accuracy: 'exact' },
  countTrailingZeros: { T: INTEGER, overloads: UNARY, fold: true, accuracy: 'exact' },
  firstLeadingBit: { T: INTEGER, overloads: UNARY, fold: true, accuracy: 'exact' },
  firstTrailingBit: { T: INTEGER, overloads: UNARY, fold: true, accuracy: 'exact' },
  length: { T: FLOAT, overloads: TO_SCALAR, fold: false, accuracy: 'inherited' },
  distance: { T: FLOAT, overloads: ['(T, T) -> T', '(vecN<T>, vecN<T>) -> T'], fold: false, accuracy: 'inherited' },
  normalize: { T: FLOAT, overloads: ['(vecN<T>) -> vecN<T>'], fold: false, accuracy: 'inherited' },
  dot: { T: NUMERIC, overloads: ['(vecN<T>, vecN<T>) -> T'], fold: false, accuracy: 'inherited' },
  cross: { T: FLOAT, overloads: ['(vec3<T>, vec3<T>) -> vec3<T>'], fold: false, accuracy: 'inherited' },
  /** WGSL `select(f, t, cond)`: `t` where `cond` holds, else `f` (component-wise for bool vectors). */
  select: { T: SCALAR, overloads: ['(T, T, bool) -> T', '(vecN<T>, vecN<T>, bool) -> vecN<T>', '(vecN<T>, vecN<T>, vecN<bool>) -> vecN<T>'], fold: false, accuracy: 'exact', otherwise: 'for other types write c ? a : b' },
  all: { overloads: ['(bool) -> bool', '(vecN<bool>) -> bool'], fold: false, accuracy: 'exact' },
  any: { overloads: ['(bool) -> bool', '(vecN<bool>) -> bool'], fold: false, accuracy: 'exact' },
  transpose: { overloads: ['(matCxR<f32>) -> matRxC<f32>'], fold: false, accuracy: 'exact' },
  determinant: { overloads: ['(matNxN<f32>) -> f32'], fold: false, accuracy: 'inherited' },
  /** Reinterprets the 32 bits of an i32, u32 or f32 scalar. */
  bitcastF32: { wgsl: 'bitcast<f32>', S: BITS, overloads: ['(S) -> f32'], fold: true, accuracy: 'exact' },
  bitcastI32: { wgsl: 'bitcast<i32>', S: BITS, overloads: ['(S) -> i32'], fold: true, accuracy: 'exact' },
  bitcastU32: { wgsl: 'bitcast<u32>', S: BITS, overloads: ['(S) -> u32'], fold: true, accuracy: 'exact' },
  /**
   * WGSL's packing (§17.9): each component to 8 or 16 bits, component 0 in the low bits. snorm
   * is ⌊0.5 + 127·min(1, max(-1, e))⌋ (32767 for 16 bits), unorm ⌊0.5 + 255·min(1, max(0, e))⌋
   * (65535), exactly (a GPU rounds in f32, to either side where the product is within f32
   * rounding of a half step); pack2x16float converts to f16 (either neighbour of a value f16
   * cannot hold, at run time), and a constant outside f16's finite range is an error.
   */
  pack4x8snorm: { overloads: ['(vec4<f32>) -> u32'], fold: true, accuracy: 'exact' },
  pack4x8unorm: { overloads: ['(vec4<f32>) -> u32'], fold: true, accuracy: 'exact' },
  pack2x16snorm: { overloads: ['(vec2<f32>) -> u32'], fold: true, accuracy: 'exact' },
  pack2x16unorm: { overloads: ['(vec2<f32>) -> u32'], fold: true, accuracy: 'exact' },
  pack2x16float: { overloads: ['(vec2<f32>) -> u32'], fold: true, accuracy: 'exact' },
  /** Each 8 or 16 bits v (§17.10): snorm is max(v ÷ 127, -1) (32767), unorm v ÷ 255 (65535). */
  unpack4x8snorm: { overloads: ['(u32) -> vec4<f32>'], fold: true, accuracy: '3ulp' },
  unpack4x8unorm: { overloads: ['(u32) -> vec4<f32>'], fold: true, accuracy: '3ulp' },
  unpack2x16snorm: { overloads: ['(u32) -> vec2<f32>'], fold: true, accuracy: '3ulp' },
  unpack2x16unorm: { overloads: ['(u32) -> vec2<f32>'], fold: true, accuracy: '3ulp' },
  unpack2x16float: { overloads: ['(u32) -> vec2<f32>'], fold: true, accuracy: 'exact' },
  /** Each component's low 8 bits (pack4xI8, pack4xU8), or the component clamped to i8 or u8 first. */
  pack4xI8: { overloads: ['(vec4<i32>) -> u32'], fold: true, accuracy: 'exact' },
  pack4xU8: { overloads: ['(vec4<u32>) -> u32'], fold: true, accuracy: 'exact' },
  pack4xI8Clamp: { overloads: ['(vec4<i32>) -> u32'], fold: true, accuracy: 'exact' },
  pack4xU8Clamp: { overloads: ['(vec4<u32>) -> u32'], fold: true, accuracy: 'exact' },
  /** Each byte, sign-extended (unpack4xI8) or zero-extended (unpack4xU8). */
  unpack4xI8: { overloads: ['(u32) -> vec4<i32>'], fold: true, accuracy: 'exact' },
  unpack4xU8: { overloads: ['(u32) -> vec4<u32>'], fold: true, accuracy: 'exact' },
  /** JavaScript's rounding, halves toward +Infinity, exact in f32 (`floor(x + 0.5)` is not: x + 0.5 rounds). */
  jsRound: { wgsl: 'js_round', T: FLOAT, overloads: UNARY, fold: true, accuracy: 'exact', dsl: false, math: 'round', helper: 'fn $name(x: $T) -> $T { let f = floor(x); return select(f, f + $T(1), x - f >= $T(0.5)); }' },
  /** An f32 from its bits through a call, for the ±Infinity WGSL refuses as a constant (a reduction's identity). */
  f32FromBits: { wgsl: 'f32_from_bits', S: 'u32', overloads: ['(S) -> f32'], fold: false, accuracy: 'exact', dsl: false, helper: 'fn $name(x: $T) -> f32 { return bitcast<f32>(x); }' },
  clz32: { wgsl: 'countLeadingZeros', overloads: ['(u32) -> u32'], fold: true, accuracy: 'exact', dsl: false, math: 'clz32' },
  /**
   * i32 `min`, `max`, `clamp` and `abs` as the emitter prints them (emit/transforms/
   * signed-min-max.ts): compared as u32 with the sign bit flipped, so no driver sees a signed
   * min/max it could fuse with a negated operand.
   */
  i32Min: { wgsl: 'i32_min', T: 'i32', overloads: BINARY, fold: true, accuracy: 'exact', dsl: false, helper: 'fn $name(x: $T, y: $T) -> $T { let m = $U(0x80000000u); return bitcast<$T>(min(bitcast<$U>(x) ^ m, bitcast<$U>(y) ^ m) ^ m); }' },
  i32Max: { wgsl: 'i32_max', T: 'i32', overloads: BINARY, fold: true, accuracy: 'exact', dsl: false, helper: 'fn $name(x: $T, y: $T) -> $T { let m = $U(0x80000000u); return bitcast<$T>(max(bitcast<$U>(x) ^ m, bitcast<$U>(y) ^ m) ^ m); }' },
  i32Clamp: { wgsl: 'i32_clamp', T: 'i32', overloads: TERNARY, fold: true, accuracy: 'exact', dsl: false, helper: 'fn $name(x: $T, y: $T, z: $T) -> $T { let m = $U(0x80000000u); return bitcast<$T>(min(max(bitcast<$U>(x) ^ m, bitcast<$U>(y) ^ m), bitcast<$U>(z) ^ m) ^ m); }' },
  /** `(x ^ s) - s` with s the sign: wraps at the most negative i32 as WGSL's `abs` does. */
  i32Abs: { wgsl: 'i32_abs', T: 'i32', overloads: UNARY, fold: true, accuracy: 'exact', dsl: false, helper: 'fn $name(x: $T) -> $T { let s = x >> $U(31u); return (x ^ s) - s; }' },
} as const satisfies Readonly<Record<string, BuiltinEntry>>;

export type BuiltinName = keyof typeof BUILTIN_TABLE;

/**
 * `Math` functions that are not built-ins but an operator or a conversion: `Math.fround(x)` is
 * `f32(x)`, `Math.imul(a, b)` is the i32 product.
 */
export const MATH_FORMS = {
  fround: 'f32(x)',
  imul: 'i32(a) * i32(b)',
} as const;
