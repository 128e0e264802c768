/** The ABI module: one set of layout rules and one encoder for the compiler and the runtime. */
import { expect, test } from 'vitest';
import {
  alignOf,
  array,
  bool,
  F16_MAX_EXCLUSIVE,
  F32_MAX,
  f16,
  f16Bits,
  f16BitsToNumber,
  f16Round,
  f32,
  fitsScalar,
  LAUNCH_UNIFORM,
  mat,
  readValue,
  sizeOf,
  strideOf,
  struct,
  u32,
  vec,
  writeValue,
} from '../src/index.js';

test('a number fits a float type when it rounds to a finite value of it', () => {
  // Past the largest f32, up to halfway to 2^128, values still round to it.
  expect(fitsScalar('f32', 3.4028235e38)).toBe(true);
  expect(fitsScalar('f32', -3.40282356e38)).toBe(true);
  expect(Math.fround(3.4028235e38)).toBe(F32_MAX);
  expect(fitsScalar('f32', 3.4028236e38)).toBe(false);
  expect(fitsScalar('f32', Number.NaN)).toBe(false);
  expect(fitsScalar('f16', 65519.99)).toBe(true);
  expect(fitsScalar('f16', 65520)).toBe(false);
  expect(fitsScalar('i32', -(2 ** 31))).toBe(true);
  expect(fitsScalar('i32', 2 ** 31)).toBe(false);
  expect(fitsScalar('u32', 2 ** 32 - 1)).toBe(true);
  expect(fitsScalar('u32', 0.5)).toBe(false);
});

test('f16: values below F16_MAX_EXCLUSIVE round to a finite f16, from it on to infinity', () => {
  expect(F16_MAX_EXCLUSIVE).toBe(65520);
  expect(f16Round(65519.99)).toBe(65504);
  expect(f16Bits(65520)).toBe(0x7c00);
  expect(f16Bits(-65520)).toBe(0xfc00);
});

test('uniform rules differ from storage only where WGSL says', () => {
  const t = struct({ a: u32, b: array(u32, 2) });
  expect([sizeOf(t, 'storage'), sizeOf(t, 'uniform')]).toEqual([12, 48]);
  expect([strideOf(vec(u32, 3), 'storage'), strideOf(u32, 'uniform')]).toEqual([16, 16]);
});

test('values round-trip through the encoding, in both address spaces', () => {
  const t = struct({ a: u32, b: array(vec(u32, 2), 2) });
  const value = {
    a: 7,
    b: [
      [1, 2],
      [3, 4],
    ],
  };
  for (const space of ['storage', 'uniform'] as const) {
    const view = new DataView(new ArrayBuffer(sizeOf(t, space) + 8));
    writeValue(view, 8, t, value, space);
    expect(readValue(view, 8, t, space)).toEqual(value);
  }
});

test('the launch uniform: global range, slot mode, group offset, then the value arguments', () => {
  expect(LAUNCH_UNIFORM).toEqual({ globalRange: 0, slotMode: 12, groupOffset: 16, args: 32 });
});

test('f16 encoding rounds to nearest even', () => {
  expect(f16Bits(1)).toBe(0x3c00);
  expect(f16Bits(-2)).toBe(0xc000);
  expect(f16Bits(65504)).toBe(0x7bff);
  expect(f16Bits(2 ** -24)).toBe(0x0001);
  expect(f16Bits(0.1)).toBe(0x2e66);
  expect(f16Bits(1 + 2 ** -11)).toBe(0x3c00);
  expect(f16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
  expect(f16BitsToNumber(0x3555)).toBeCloseTo(1 / 3, 3);
});

test('storage and uniform sizes and alignments', () => {
  const s = struct({ a: f32, b: vec(f32, 3), c: u32, d: array(f32, 2), e: bool });
  expect([alignOf(s, 'storage'), sizeOf(s, 'storage')]).toEqual([16, 48]);
  expect([alignOf(s, 'uniform'), sizeOf(s, 'uniform')]).toEqual([16, 80]);
  expect(strideOf(vec(f32, 3), 'storage')).toBe(16);
  expect(strideOf(f32, 'uniform')).toBe(16);
  expect(sizeOf(mat(3, 3), 'storage')).toBe(48);
  expect(sizeOf(f16, 'storage')).toBe(2);
});
