/**
 * Scalar values at the host boundary: checking a JavaScript value against a WGSL scalar type
 * (the conversion rules of WebGPU pipeline constants, made strict: integers must be integers)
 * (the encoding itself is @syclts/dsl's ABI module).
 */
import { f16Round, fitsScalar, holdsScalar, type ScalarName } from '@syclts/dsl';

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

/**
 * The value as the device will see it (f32/f16 rounded), or a ValueError. `memory`: the value is
 * stored (a buffer, a device global), so a float may also be NaN or infinite (`holdsScalar`);
 * otherwise it is a launch argument or a constant, finite (`fitsScalar`). Small enough to be
 * inlined where every launch checks its values; the reasons are made apart, when one is wrong.
 */
export function checkScalar(
  scalar: ScalarName,
  value: unknown,
  path: string,
  memory = false,
): ScalarValue {
  if (typeof value !== 'number') {
    return scalar === 'bool' && typeof value === 'boolean' ? value : invalid(scalar, value, path);
  }
  const fits = memory ? holdsScalar(scalar, value) : fitsScalar(scalar, value);
  if (scalar === 'bool' || !fits) return invalid(scalar, value, path);
  switch (scalar) {
    case 'f32':
      return Math.fround(value);
    case 'f16':
      return f16Round(value);
    case 'i32':
      return value | 0;
    case 'u32':
      return value >>> 0;
  }
}

function invalid(scalar: ScalarName, value: unknown, path: string): never {
  throw new ValueError(path, reason(scalar, value));
}

/** Why `value` is not a valid `scalar`. */
function reason(scalar: ScalarName, value: unknown): string {
  if (scalar === 'bool') return `expected a boolean, got ${show(value)}`;
  if (typeof value !== 'number') return `expected a number, got ${show(value)}`;
  if (!Number.isFinite(value)) return `${show(value)} is not finite`;
  if ((scalar === 'i32' || scalar === 'u32') && !Number.isInteger(value)) {
    return `${value} is not an integer (${scalar})`;
  }
  return `${value} is out of range for ${scalar}`;
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
