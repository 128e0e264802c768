/**
 * Scalar values at the host boundary: checking a JavaScript value against a WGSL scalar type
 * (the conversion rules of WebGPU pipeline constants, made strict: integers must be integers)
 * (the encoding itself is @syclts/dsl's ABI module).
 */
import { F16_MAX_EXCLUSIVE, f16Round, type ScalarName } from '@syclts/dsl';

export type ScalarValue = number | boolean;

/** A value that does not fit its type: where it sits and why. */
export class ValueError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** The value as the device will see it (f32/f16 rounded), or a ValueError. */
export function checkScalar(scalar: ScalarName, value: unknown, path: string): ScalarValue {
  if (scalar === 'bool') {
    if (typeof value !== 'boolean')
      throw new ValueError(path, `expected a boolean, got ${show(value)}`);
    return value;
  }
  if (typeof value !== 'number')
    throw new ValueError(path, `expected a number, got ${show(value)}`);
  if (!Number.isFinite(value)) throw new ValueError(path, `${show(value)} is not finite`);
  switch (scalar) {
    case 'i32':
      if (!Number.isInteger(value)) throw new ValueError(path, `${value} is not an integer (i32)`);
      if (value < -(2 ** 31) || value > 2 ** 31 - 1) {
        throw new ValueError(path, `${value} is out of range for i32`);
      }
      return value === 0 ? 0 : value;
    case 'u32':
      if (!Number.isInteger(value)) throw new ValueError(path, `${value} is not an integer (u32)`);
      if (value < 0 || value > 2 ** 32 - 1) {
        throw new ValueError(path, `${value} is out of range for u32`);
      }
      return value === 0 ? 0 : value;
    case 'f32': {
      const rounded = Math.fround(value);
      if (!Number.isFinite(rounded)) throw new ValueError(path, `${value} is out of range for f32`);
      return rounded;
    }
    case 'f16':
      if (Math.abs(value) >= F16_MAX_EXCLUSIVE) {
        throw new ValueError(path, `${value} is out of range for f16`);
      }
      return f16Round(value);
  }
}

/**
 * What checkScalar returns for a valid value, without the checks: equal (Object.is) to a checked
 * value only when `value` is valid and checks to it. Cheap enough to compare values per launch.
 */
export function deviceForm(scalar: ScalarName, value: unknown): unknown {
  if (typeof value !== 'number') return value;
  switch (scalar) {
    case 'f32':
      return Math.fround(value);
    case 'f16':
      return f16Round(value);
    case 'i32':
    case 'u32':
      return value === 0 ? 0 : value;
    case 'bool':
      return value;
  }
}

/** The pipeline-constant form of a scalar: WebGPU takes numbers, bool as 0/1. */
export function constantNumber(value: ScalarValue): number {
  return typeof value === 'boolean' ? Number(value) : value;
}

/** A value for an error message: JSON where possible, so strings and arrays read as such. */
export function show(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null)
    return String(value);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    return String(value);
  }
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const json = JSON.stringify(value);
    return json.length > 120 ? `${json.slice(0, 117)}...` : json;
  } catch {
    return String(value);
  }
}
