import {
  accessor,
  bitcastF32,
  bitcastU32,
  bool,
  f32,
  i32,
  kernel,
  u32,
  vec2f,
  vec2i,
} from '@syclts/dsl';

/** Explicit conversions between scalars and vectors, bit casts, literal concretisation. */
export const conversions = kernel(
  { range: 1, args: { x: accessor(f32, 'read'), out: accessor(u32, 'write') } },
  (item, _kh, { x, out }) => {
    const i = item.getId(0);
    const v = x[i]!;
    const base = i * 6;
    out[base] = u32(Math.abs(v) * 10);
    out[base + 1] = u32(i32(v * 3) + 100);
    out[base + 2] = bitcastU32(v);
    out[base + 3] = u32(bool(i % 2)) + u32(true) * 10;
    out[base + 4] = bitcastU32(bitcastF32(u32(0x3f800000)) + f32(i));
    const w = vec2i(vec2f(v, -v));
    out[base + 5] = u32(w.x - w.y + 1000);
  },
);
