/**
 * The text of a `console.log` record: numbers as JavaScript prints them, f32 and f16 with the
 * fewest digits that give back the same value (checked on fresh random bits against that
 * definition), vectors as their constructors, the text around the values.
 */
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../test-inputs.ts';
import { f16BitsToNumber, type LogFormat, logRecordText, logScalarText } from '../src/index.js';

const bits = (x: number) => {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return view.getUint32(0);
};

describe('scalars', () => {
  test.each([
    [0.1, '0.1'],
    [1 / 3, '0.33333334'],
    [3.4028234663852886e38, '3.4028235e+38'],
    [1.401298464324817e-45, '1e-45'],
    [16777216, '16777216'],
    [-2.5, '-2.5'],
    [-0, '-0'],
    [0, '0'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
  ])('f32 %s prints %s', (x, text) => {
    expect(logScalarText('f32', bits(x))).toBe(text);
  });

  test('integers and bools', () => {
    expect(logScalarText('i32', 0xffffffff)).toBe('-1');
    expect(logScalarText('i32', 0x80000000)).toBe('-2147483648');
    expect(logScalarText('u32', 0xffffffff)).toBe('4294967295');
    expect(logScalarText('bool', 1)).toBe('true');
    expect(logScalarText('bool', 0)).toBe('false');
  });

  test('f16: the fewest digits that give back the f16', () => {
    // 0.1 as f16 is 0.0999755859375; as f32 it would print 0.099975586.
    expect(logScalarText('f16', bits(f16BitsToNumber(0x2e66)))).toBe('0.1');
    expect(logScalarText('f16', bits(65504))).toBe('65500');
  });

  test('random f32: the text reads back as the same f32, and one digit fewer does not', () => {
    const view = new DataView(new ArrayBuffer(4));
    let checked = 0;
    for (const word of randomU32(20000, 0x10c)) {
      view.setUint32(0, word);
      const x = view.getFloat32(0);
      if (!Number.isFinite(x) || x === 0) continue;
      const text = logScalarText('f32', word);
      expect(Math.fround(Number(text))).toBe(x);
      // Significant digits of the text (trailing zeros of an integer are not).
      const mantissa = text.split('e')[0]!.replace('-', '').replace('.', '');
      const digits = mantissa.replace(/^0+/, '').replace(/0+$/, '').length;
      if (digits > 1) {
        expect(Math.fround(Number(x.toPrecision(digits - 1)))).not.toBe(x);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(19000);
  });
});

test('a record: text around the values, vectors as their constructors', () => {
  const format: LogFormat = {
    source: { module: 'src/a.sycl.ts', line: 1, column: 1 },
    parts: ['a ', ' b ', ' c ', ''],
    args: [
      { scalar: 'f32', size: 3 },
      { scalar: 'bool', size: 2 },
      { scalar: 'i32', size: 1 },
    ],
  };
  const words = [0, 7, 0, 0, bits(1), bits(0.5), bits(-3), 1, 0, 0xfffffffe];
  expect(logRecordText(format, words, 0)).toBe(
    'a vec3f(1, 0.5, -3) b vec2<bool>(true, false) c -2',
  );
});
