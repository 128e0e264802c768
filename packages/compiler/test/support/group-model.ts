/** SYCL's group operators on the CPU, for the group-function tests' reference models. */

export type Scalar = 'f32' | 'i32' | 'u32';
export type Op = 'plus' | 'multiplies' | 'minimum' | 'maximum' | 'bitAnd' | 'bitOr' | 'bitXor';

/** The operators each element type combines with. */
export const OPS: Record<Scalar, readonly Op[]> = {
  f32: ['plus', 'multiplies', 'minimum', 'maximum'],
  i32: ['plus', 'multiplies', 'minimum', 'maximum', 'bitAnd', 'bitOr', 'bitXor'],
  u32: ['plus', 'multiplies', 'minimum', 'maximum', 'bitAnd', 'bitOr', 'bitXor'],
};

const f32 = (x: number) => Math.fround(x);

/** `a op b` with WGSL's arithmetic: i32 and u32 wrap, f32 rounds once. */
export function combine(s: Scalar, op: Op, a: number, b: number): number {
  const wrap = (v: number) => (s === 'i32' ? v | 0 : s === 'u32' ? v >>> 0 : f32(v));
  switch (op) {
    case 'plus':
      return wrap(a + b);
    case 'multiplies':
      return s === 'f32' ? f32(a * b) : wrap(Math.imul(a, b));
    case 'minimum':
      return Math.min(a, b);
    case 'maximum':
      return Math.max(a, b);
    case 'bitAnd':
      return wrap(a & b);
    case 'bitOr':
      return wrap(a | b);
    case 'bitXor':
      return wrap(a ^ b);
  }
}

/** The operator's identity for the type. */
export function identity(s: Scalar, op: Op): number {
  switch (op) {
    case 'plus':
    case 'bitOr':
    case 'bitXor':
      return 0;
    case 'multiplies':
      return 1;
    case 'bitAnd':
      return s === 'u32' ? 0xffffffff : -1;
    case 'minimum':
      return s === 'f32' ? Infinity : s === 'i32' ? 2 ** 31 - 1 : 0xffffffff;
    case 'maximum':
      return s === 'f32' ? -Infinity : s === 'i32' ? -(2 ** 31) : 0;
  }
}
