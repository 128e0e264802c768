/** Scalars in host-shareable memory: little-endian, bool as u32, f16 as IEEE binary16. */
import type { ScalarName } from '../types/data-type.js';

export type HostScalar = number | boolean;

/** The smallest magnitude that rounds to infinity in binary16: f16 values lie below it. */
export const F16_MAX_EXCLUSIVE = 65520;

export function writeScalar(
  view: DataView,
  offset: number,
  scalar: ScalarName,
  value: HostScalar,
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

export function readScalar(view: DataView, offset: number, scalar: ScalarName): HostScalar {
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

/** IEEE binary16 bits of a number, rounded to nearest even (infinity from F16_MAX_EXCLUSIVE on). */
export function f16Bits(value: number): number {
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  if (Number.isNaN(value)) return 0x7e00;
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

/** The number an f16 holds after rounding `value` to it. */
export function f16Round(value: number): number {
  return f16BitsToNumber(f16Bits(value));
}

function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const fraction = x - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
