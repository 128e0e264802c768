/**
 * WGSL's scalar arithmetic: i32 and u32 wrap around, floats round to their precision after
 * every operation, integer division and remainder never trap (x / 0 == x, x % 0 == 0, and the
 * i32 MIN / -1 case gives MIN and 0), shift amounts of run-time shifts are taken modulo 32.
 */
import type { ScalarName } from '@syclts/dsl';
import type { BinaryOperator } from '../ir/device-code.js';
import { type Scalar, toScalar } from './values.js';

const I32_MIN = -(2 ** 31);

export function binaryScalar(op: BinaryOperator, s: ScalarName, a: Scalar, b: Scalar): Scalar {
  if (s === 'bool') return boolOp(op, a as boolean, b as boolean);
  const x = a as number;
  const y = b as number;
  switch (op) {
    case '+':
      return toScalar(s, x + y);
    case '-':
      return toScalar(s, x - y);
    case '*':
      return s === 'i32' || s === 'u32' ? toScalar(s, Math.imul(x, y)) : toScalar(s, x * y);
    case '/':
      if (s === 'f32' || s === 'f16') return toScalar(s, x / y);
      if (y === 0 || (s === 'i32' && x === I32_MIN && y === -1)) return x;
      return toScalar(s, Math.trunc(x / y));
    case '%':
      if (s === 'f32' || s === 'f16') return toScalar(s, x - y * Math.trunc(x / y));
      if (y === 0 || (s === 'i32' && x === I32_MIN && y === -1)) return 0;
      return toScalar(s, x % y);
    case '&':
      return toScalar(s, x & y);
    case '|':
      return toScalar(s, x | y);
    case '^':
      return toScalar(s, x ^ y);
    case '<<':
      return toScalar(s, x << (y & 31));
    case '>>':
      return s === 'u32' ? x >>> (y & 31) : x >> (y & 31);
    case '==':
      return x === y;
    case '!=':
      return x !== y;
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
    case '&&':
    case '||':
      throw new Error(`${op} on ${s}`);
  }
}

function boolOp(op: BinaryOperator, a: boolean, b: boolean): boolean {
  switch (op) {
    case '&':
    case '&&':
      return a && b;
    case '|':
    case '||':
      return a || b;
    case '==':
      return a === b;
    case '!=':
    case '^':
      return a !== b;
    default:
      throw new Error(`${op} on bool`);
  }
}

export function unaryScalar(op: '-' | '!' | '~', s: ScalarName, a: Scalar): Scalar {
  if (op === '!') return !a;
  if (op === '~') return toScalar(s, ~(a as number));
  return toScalar(s, -(a as number));
}

/**
 * `x` of scalar `from` converted to `to`, as WGSL's value constructors do. A float becomes an
 * integer by truncation, clamped to the largest floats inside the integer's range (NaN gives 0,
 * where WGSL leaves the result to the implementation).
 */
export function convertScalar(from: ScalarName, to: ScalarName, x: Scalar): Scalar {
  if (to === 'bool') return from === 'bool' ? x : x !== 0;
  if (from === 'bool') return x ? 1 : 0;
  const n = x as number;
  if ((from === 'f32' || from === 'f16') && (to === 'i32' || to === 'u32')) {
    if (Number.isNaN(n)) return 0;
    const [lo, hi] = to === 'i32' ? [I32_MIN, 2 ** 31 - 128] : [0, 2 ** 32 - 256];
    return Math.trunc(Math.min(hi, Math.max(lo, n)));
  }
  return toScalar(to, n);
}
