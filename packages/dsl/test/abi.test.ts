/** The ABI module: one set of layout rules and one encoder for the compiler and the runtime. */
import { expect, test } from 'vitest';
import {
  array,
  F16_MAX_EXCLUSIVE,
  f16Bits,
  f16Round,
  LAUNCH_UNIFORM,
  readValue,
  sizeOf,
  strideOf,
  struct,
  u32,
  vec,
  writeValue,
} from '../src/index.js';

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

test('the launch uniform: global range, group offset, then the value arguments', () => {
  expect(LAUNCH_UNIFORM).toEqual({ globalRange: 0, groupOffset: 16, args: 32 });
});
