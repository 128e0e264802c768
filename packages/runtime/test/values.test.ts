import { array, bool, f32, i32, readValue, struct, u32, vec, writeValue } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { canonicalize } from '../src/values/host-value.js';
import { checkScalar } from '../src/values/scalars.js';

describe('scalars', () => {
  test('conversion rules: integers stay integers, floats must fit', () => {
    expect(checkScalar('f32', 0.1, 'v')).toBe(Math.fround(0.1));
    expect(checkScalar('f16', 65519, 'v')).toBe(65504);
    expect(() => checkScalar('f16', 65520, 'v')).toThrow(/out of range for f16/);
    expect(() => checkScalar('f32', 3.5e38, 'v')).toThrow(/out of range for f32/);
    expect(() => checkScalar('u32', 4294967296, 'v')).toThrow(/out of range/);
    expect(checkScalar('i32', -2147483648, 'v')).toBe(-2147483648);
    expect(() => checkScalar('i32', Number.POSITIVE_INFINITY, 'v')).toThrow(/not finite/);
  });
});

describe('host-shareable layout', () => {
  const s = struct({ a: f32, b: vec(f32, 3), c: u32, d: array(f32, 2), e: bool });

  test('values round-trip through bytes', () => {
    const value = canonicalize(s, { a: 1.5, b: [2, 3, 4], c: 5, d: [6.25, -7], e: true });
    const view = new DataView(new ArrayBuffer(48));
    writeValue(view, 0, s, value, 'storage');
    expect(view.getFloat32(16, true)).toBe(2);
    expect(view.getUint32(28, true)).toBe(5);
    expect(view.getUint32(40, true)).toBe(1);
    expect(readValue(view, 0, s, 'storage')).toEqual({
      a: 1.5,
      b: [2, 3, 4],
      c: 5,
      d: [6.25, -7],
      e: true,
    });
  });

  test('errors say where in the value the problem is', () => {
    expect(() => canonicalize(array(struct({ x: i32 }), 2), [{ x: 1 }, { x: 'a' }])).toThrow(
      'value[1].x',
    );
  });
});
