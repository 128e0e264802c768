import { f16Round, type ScalarName } from '@syclts/dsl';

/** A concrete WGSL literal of a scalar type. */
export function literal(value: number | boolean, scalar: ScalarName): string {
  if (typeof value === 'boolean' || scalar === 'bool') return value ? 'true' : 'false';
  switch (scalar) {
    case 'u32':
      return `${value}u`;
    case 'i32':
      // 2147483648i is out of range, so the most negative i32 is spelled as a conversion.
      return value === -2147483648 ? 'i32(-2147483648)' : `${value}i`;
    // The value the type holds, exactly (rounded once here): Tint reads back the same number.
    case 'f32':
      return `${floatText(Math.fround(value))}f`;
    case 'f16':
      return `${floatText(f16Round(value))}h`;
  }
}

function floatText(value: number): string {
  const text = String(Object.is(value, -0) ? '-0' : value).replace('e+', 'e');
  return /[.e]/.test(text) ? text : `${text}.0`;
}
