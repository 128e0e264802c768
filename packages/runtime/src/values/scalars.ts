/**
 * Scalar values at the host boundary: checking a JavaScript value against a WGSL scalar type
 * (the conversion rules of WebGPU pipeline constants, made strict: integers must be integers)
 * and reading/writing the host-shareable encoding.
 */
import type { ScalarName } from '@syclts/dsl';

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

const F16_MAX_EXCLUSIVE = 65520; // the smallest magnitude that rounds to infinity in binary16

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
      return f16BitsToNumber(f16Bits(value));
  }
}

/** The pipeline-constant form of a scalar: WebGPU takes numbers, bool as 0/1. */
export function constantNumber(value: ScalarValue): number {
  return typeof value === 'boolean' ? Number(value) : value;
}

export function scalarSize(scalar: ScalarName): number {
  return scalar === 'f16' ? 2 : 4;
}

export function writeScalar(
  view: DataView,
  offset: number,
  scalar: ScalarName,
  value: ScalarValue,
): void {
  switch (scalar) {
    case 'bool':
      view.setUint32(offset, value ? 1 : 0, true);
      return;
    case 'i32':
      view.setInt32(offset, Number(value), true);
      return;
    case 'u32':
      view.setUint32(offset, Number(value), true);
      return;
    case 'f32':
      view.setFloat32(offset, Number(value), true);
      return;
    case 'f16':
      view.setUint16(offset, f16Bits(Number(value)), true);
      return;
  }
}

export function readScalar(view: DataView, offset: number, scalar: ScalarName): ScalarValue {
  switch (scalar) {
    case 'bool':
      return view.getUint32(offset, true) !== 0;
    case 'i32':
      return view.getInt32(offset, true);
    case 'u32':
      return view.getUint32(offset, true);
    case 'f32':
      return view.getFloat32(offset, true);
    case 'f16':
      return f16BitsToNumber(view.getUint16(offset, true));
  }
}

/** IEEE binary16 bits of a finite number below 65520 in magnitude, rounded to nearest even. */
export function f16Bits(value: number): number {
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  if (magnitude >= F16_MAX_EXCLUSIVE) return sign | 0x7c00;
  if (magnitude < 2 ** -14) return sign | roundHalfEven(magnitude * 2 ** 24);
  let exponent = Math.floor(Math.log2(magnitude));
  if (2 ** exponent > magnitude) exponent--;
  if (2 ** (exponent + 1) <= magnitude) exponent++;
  let mantissa = roundHalfEven((magnitude / 2 ** exponent - 1) * 1024);
  if (mantissa === 1024) {
    mantissa = 0;
    exponent++;
  }
  return sign | ((exponent + 15) << 10) | mantissa;
}

export function f16BitsToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const fraction = x - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
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
