/**
 * syclts's number model for constants, WGSL's: abstract integers are exact 64-bit integers,
 * abstract floats are f64; concrete i32/u32 operations fail (rather than wrap) when their
 * result does not fit, as WGSL const-expressions do; f32 results are rounded with Math.fround
 * at each step and f16 ones to binary16; a NaN or infinite result fails. Which values a type
 * holds is the ABI's rule (`fitsScalar`), shared with the runtime.
 */
import { f16Round, I32_MAX, I32_MIN, type ScalarName, U32_MAX } from '@syclts/dsl';

/** A folded operation's result, or why WGSL rejects the operation. */
export type Folded<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly why: string };

const ok = <T>(value: T): Folded<T> => ({ ok: true, value });
const no = (why: string): Folded<never> => ({ ok: false, why });

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** An abstract integer: exact, within i64 (WGSL rejects abstract-integer overflow). */
export function abstractInt(value: bigint): Folded<bigint> {
  return value >= I64_MIN && value <= I64_MAX
    ? ok(value)
    : no(`${value} overflows WGSL's 64-bit abstract integers`);
}

/**
 * The same as foldAbstractInt for the common case, without BigInt: safe integers whose result
 * is one (and 32-bit operands of the bitwise operators). Undefined when it does not apply.
 */
export function foldSmallInt(op: string, x: number, y: number): number | boolean | undefined {
  switch (op) {
    case '+':
    case '-':
    case '*': {
      const r = op === '+' ? x + y : op === '-' ? x - y : x * y;
      return Number.isSafeInteger(r) ? r : undefined;
    }
    case '/':
      return y === 0 ? undefined : (x - (x % y)) / y;
    case '%':
      return y === 0 ? undefined : x % y;
    case '&':
    case '|':
    case '^': {
      // Sign-extended 32-bit operands give the same bits in 64 as JavaScript's 32-bit result.
      if (x !== (x | 0) || y !== (y | 0)) return undefined;
      return op === '&' ? x & y : op === '|' ? x | y : x ^ y;
    }
    case '<':
    case '<=':
    case '>':
    case '>=':
    case '==':
    case '===':
    case '!=':
    case '!==': {
      const r = compare(op, x, y, 'integers');
      return r.ok ? r.value : undefined;
    }
    default:
      return undefined;
  }
}

/** A binary operator on abstract integers; comparisons give booleans. */
export function foldAbstractInt(op: string, x: bigint, y: bigint): Folded<bigint | boolean> {
  switch (op) {
    case '+':
      return abstractInt(x + y);
    case '-':
      return abstractInt(x - y);
    case '*':
      return abstractInt(x * y);
    case '/':
      return y === 0n ? no('integer division by zero') : abstractInt(x / y);
    case '%':
      return y === 0n ? no('integer remainder by zero') : abstractInt(x % y);
    case '**':
      if (y < 0n) return no('a negative integer exponent');
      return y > 64n && x !== 0n && x !== 1n && x !== -1n
        ? no(`${x} ** ${y} overflows WGSL's 64-bit abstract integers`)
        : abstractInt(x ** y);
    case '&':
      return ok(x & y);
    case '|':
      return ok(x | y);
    case '^':
      return ok(x ^ y);
    case '<<':
      if (y < 0n || y >= 64n) return no(`a shift by ${y} (the amount must be 0 to 63)`);
      return abstractInt(x << y);
    case '>>':
      if (y < 0n || y >= 64n) return no(`a shift by ${y} (the amount must be 0 to 63)`);
      return ok(x >> y);
    case '>>>':
      // JavaScript's logical shift of a 32-bit value: the operand must be one.
      if (x < BigInt(I32_MIN) || x > BigInt(U32_MAX) || y < 0n || y >= 32n) {
        return no('`>>>` shifts a 32-bit value by 0 to 31');
      }
      return ok(BigInt((Number(x) >>> 0) >>> Number(y)));
    default:
      return compare(op, x, y, 'integers');
  }
}

/** A binary operator on abstract floats (f64); a NaN or infinite result fails. */
export function foldAbstractFloat(op: string, x: number, y: number): Folded<number | boolean> {
  const r = floatOperation(op, x, y);
  return r.ok && typeof r.value === 'number' ? finite(r.value, 'abstract float') : r;
}

/** A float operator, exact in f64 before any rounding. */
function floatOperation(op: string, x: number, y: number): Folded<number | boolean> {
  switch (op) {
    case '+':
      return ok(x + y);
    case '-':
      return ok(x - y);
    case '*':
      return ok(x * y);
    case '/':
      return ok(x / y);
    case '%':
      return ok(x % y);
    case '**':
      return ok(x ** y);
    default:
      return compare(op, x, y, 'floats');
  }
}

function compare<T extends number | bigint>(
  op: string,
  x: T,
  y: T,
  operands: 'integers' | 'floats',
): Folded<boolean> {
  switch (op) {
    case '<':
      return ok(x < y);
    case '<=':
      return ok(x <= y);
    case '>':
      return ok(x > y);
    case '>=':
      return ok(x >= y);
    case '==':
    case '===':
      return ok(x === y);
    case '!=':
    case '!==':
      return ok(x !== y);
    default:
      return no(`\`${op}\` on ${operands}`);
  }
}

function finite(value: number, type: string): Folded<number> {
  if (Number.isNaN(value)) return no(`the result is NaN, which no WGSL ${type} constant may be`);
  if (!Number.isFinite(value)) return no(`the result overflows ${type}`);
  return ok(value);
}

/** Rounds to a float type, WGSL's way for constants: the result must stay finite. */
export function roundTo(scalar: 'f32' | 'f16', value: number): Folded<number> {
  return finite(scalar === 'f32' ? Math.fround(value) : f16Round(value), scalar);
}

/** An integer result of a concrete type: it must fit, WGSL does not wrap constants. */
function integer(scalar: 'i32' | 'u32', value: number, text: string): Folded<number> {
  const [lo, hi] = scalar === 'i32' ? [I32_MIN, I32_MAX] : [0, U32_MAX];
  return value >= lo && value <= hi ? ok(value) : no(`${text} overflows ${scalar}`);
}

/**
 * A binary operator on constants of one concrete scalar type (a shift's amount is a u32), as a
 * WGSL const-expression evaluates it.
 */
export function foldConcrete(
  op: string,
  scalar: ScalarName,
  x: number | boolean,
  y: number | boolean,
): Folded<number | boolean> {
  if (typeof x === 'boolean' || typeof y === 'boolean') {
    switch (op) {
      case '&&':
      case '&':
        return ok(Boolean(x) && Boolean(y));
      case '||':
      case '|':
        return ok(Boolean(x) || Boolean(y));
      case '==':
        return ok(x === y);
      case '!=':
        return ok(x !== y);
      default:
        return no(`\`${op}\` on booleans`);
    }
  }
  if (scalar === 'f32' || scalar === 'f16') {
    const r = floatOperation(op, x, y);
    return r.ok && typeof r.value === 'number' ? roundTo(scalar, r.value) : r;
  }
  if (scalar !== 'i32' && scalar !== 'u32') return no(`\`${op}\` on ${scalar}`);
  const text = `${x} ${op} ${y}`;
  switch (op) {
    case '+':
      return integer(scalar, x + y, text);
    case '-':
      return integer(scalar, x - y, text);
    case '*':
      // Beyond 2^53 the product is inexact, but then it overflows 32 bits anyway.
      return integer(scalar, x * y, text);
    case '/':
    case '%':
      if (y === 0) {
        return no(`integer ${op === '/' ? 'division' : 'remainder'} by zero`);
      }
      if (scalar === 'i32' && x === I32_MIN && y === -1) return no(`${text} overflows i32`);
      return ok(op === '/' ? Math.trunc(x / y) : x % y);
    case '&':
      return ok(scalar === 'i32' ? x & y : (x & y) >>> 0);
    case '|':
      return ok(scalar === 'i32' ? x | y : (x | y) >>> 0);
    case '^':
      return ok(scalar === 'i32' ? x ^ y : (x ^ y) >>> 0);
    case '<<':
    case '>>': {
      const bad = invalidShift(y);
      if (bad) return no(bad);
      if (op === '>>') return ok(scalar === 'i32' ? x >> y : x >>> y);
      return shiftLeft(scalar, x, y);
    }
    default:
      return compare(op, x, y, 'integers');
  }
}

/** Why a constant shift amount is invalid in WGSL, or null. */
export function invalidShift(amount: number): string | null {
  return amount >= 32 ? `a shift by ${amount} (the amount must be less than 32)` : null;
}

/** WGSL rejects a constant left shift that loses bits (or, for i32, changes the sign). */
function shiftLeft(scalar: 'i32' | 'u32', x: number, y: number): Folded<number> {
  const lost = scalar === 'i32' ? y + 1 : y;
  const top = lost === 0 ? 0 : (x >>> (32 - lost)) >>> 0;
  const allOnes = lost === 0 ? 0 : 2 ** lost - 1;
  const kept = top === 0 || (scalar === 'i32' && top === allOnes);
  if (!kept) return no(`${x} << ${y} overflows ${scalar}`);
  return ok(scalar === 'i32' ? x << y : (x << y) >>> 0);
}

/** A unary operator on a constant of a concrete scalar type. */
export function foldConcreteUnary(
  op: string,
  scalar: ScalarName,
  x: number | boolean,
): Folded<number | boolean> {
  if (typeof x === 'boolean') return op === '!' ? ok(!x) : no(`\`${op}\` on a boolean`);
  if (op === '-') {
    if (scalar === 'i32') return integer('i32', -x, `-(${x})`);
    return ok(-x);
  }
  if (op === '~') return ok(scalar === 'u32' ? ~x >>> 0 : ~x);
  return no(`\`${op}\` on ${scalar}`);
}

/** A conversion of a constant scalar to another scalar type (WGSL's value constructors). */
export function convertScalar(
  to: ScalarName,
  from: ScalarName,
  x: number | boolean,
): Folded<number | boolean> {
  if (to === 'bool') return ok(typeof x === 'boolean' ? x : x !== 0);
  const n = typeof x === 'boolean' ? Number(x) : x;
  switch (to) {
    case 'f32':
    case 'f16':
      return roundTo(to, n);
    case 'i32':
    case 'u32':
      if (from === 'f32' || from === 'f16') {
        // Floats truncate toward zero and saturate at the type's ends.
        const [lo, hi] = to === 'i32' ? [I32_MIN, I32_MAX] : [0, U32_MAX];
        return ok(Math.min(hi, Math.max(lo, Math.trunc(n))));
      }
      return ok(to === 'i32' ? n | 0 : n >>> 0);
  }
}
