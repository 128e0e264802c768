/**
 * Which numbers each scalar type holds: one rule for the build (constants in device code,
 * defaults, initial values) and the run (launch arguments, specialization constants).
 * Integers must be exact and in range; a float fits when rounding it to the type stays finite,
 * so a value written with more digits than the type keeps (3.4028235e38 for f32) is accepted.
 */
import type { ScalarName } from '../types/data-type.js';
import { F16_MAX_EXCLUSIVE } from './scalars.js';

export const I32_MIN = -(2 ** 31);
export const I32_MAX = 2 ** 31 - 1;
export const U32_MAX = 2 ** 32 - 1;
/** The largest finite f32, exactly. */
export const F32_MAX = 3.4028234663852886e38;

/** Whether the number `value` is a valid `scalar` (bool holds no number). */
export function fitsScalar(scalar: ScalarName, value: number): boolean {
  switch (scalar) {
    case 'i32':
      return Number.isInteger(value) && value >= I32_MIN && value <= I32_MAX;
    case 'u32':
      return Number.isInteger(value) && value >= 0 && value <= U32_MAX;
    case 'f32':
      return Number.isFinite(Math.fround(value));
    case 'f16':
      return Number.isFinite(value) && Math.abs(value) < F16_MAX_EXCLUSIVE;
    case 'bool':
      return false;
  }
}

/**
 * Whether memory of `scalar` (a buffer, a device global) holds the number `value`: what
 * fitsScalar accepts, and for floats NaN and the infinities, which are float values but not
 * constants WGSL or pipeline constants can hold.
 */
export function holdsScalar(scalar: ScalarName, value: number): boolean {
  return (
    fitsScalar(scalar, value) || ((scalar === 'f32' || scalar === 'f16') && !Number.isFinite(value))
  );
}
