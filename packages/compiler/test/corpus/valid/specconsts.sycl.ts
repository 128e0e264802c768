import {
  accessor,
  array,
  bool,
  f32,
  i32,
  kernel,
  specializationId,
  struct,
  u32,
  vec2f,
} from '@syclts/dsl';

const CENTER = 5;

/** CP015's 3x3 convolution: the coefficients are one composite specialization constant. */
export const coeffs = specializationId(array(f32, 9), [
  1 / 16,
  2 / 16,
  1 / 16,
  2 / 16,
  4 / 16,
  2 / 16,
  1 / 16,
  2 / 16,
  1 / 16,
]);

export const conv3x3 = kernel(
  {
    range: 2,
    args: { src: accessor(f32, 'read'), dst: accessor(f32, 'write'), width: u32, height: u32 },
  },
  (item, kh, { src, dst, width, height }) => {
    const y = item.getId(0);
    const x = item.getId(1);
    const c = kh.getSpecializationConstant(coeffs);
    let acc = f32(0);
    for (let dy = 0; dy < 3; dy++) {
      for (let dx = 0; dx < 3; dx++) {
        const sy = clampIndex(i32(y) + dy - 1, height);
        const sx = clampIndex(i32(x) + dx - 1, width);
        acc += c[dy * 3 + dx]! * src[sy * width + sx]!;
      }
    }
    dst[y * width + x] = acc;
  },
);

export const sharpen = specializationId(array(f32, 9), [0, -1, 0, -1, CENTER, -1, 0, -1, 0]);

import { clampIndex } from './mathlib.sycl.ts';

const Tuning = struct({ gain: f32, offset: vec2f, enabled: bool, steps: u32 });
export const tuning = specializationId(Tuning, {
  gain: 2 * 1.5,
  offset: [0.25, -0.5],
  enabled: true,
  steps: 3,
});
export const threshold = specializationId(i32, -(2 ** 4) + 1);
export const noDefault = specializationId(u32);
export const flag = specializationId(bool);

/** Struct, bool and scalar specialization constants, with folded and zero defaults. */
export const tuned = kernel(
  { range: 1, args: { x: accessor(f32, 'read'), out: accessor(f32, 'write') } },
  (item, kh, { x, out }) => {
    const i = item.getId(0);
    const t = kh.getSpecializationConstant(tuning);
    let v = x[i]!;
    if (t.enabled) {
      for (let s = u32(0); s < t.steps; s++) {
        v = v * t.gain + t.offset.x - t.offset.y;
      }
    }
    const th = kh.getSpecializationConstant(threshold);
    const extra = kh.getSpecializationConstant(noDefault);
    out[i] =
      (v > f32(th) ? v * 2 : f32(th)) +
      f32(extra) +
      (kh.getSpecializationConstant(flag) ? 1000 : 0);
  },
);
