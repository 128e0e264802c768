import {
  accessor,
  array,
  clamp,
  f32,
  i32,
  kernel,
  mat3x3f,
  specializationId,
  u32,
} from '@syclts/dsl';

/**
 * 3x3 convolution of a width x height f32 image, edges clamped. The coefficients (row-major)
 * and the image size are specialization constants in `conv3x3`; `conv3x3Args` takes the same
 * values as kernel arguments (the uniform-buffer case; `weights[dy][dx]` is coefficient
 * dy * 3 + dx). Workgroups of 4 x 64 keep each warp's reads on one row.
 */
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
export const width = specializationId(u32, 4096);
export const height = specializationId(u32, 4096);

export const conv3x3 = kernel(
  {
    ndRange: 2,
    workgroupSize: [4, 64],
    args: { src: accessor(f32, 'read'), dst: accessor(f32, 'write') },
  },
  (item, kh, { src, dst }) => {
    const c = kh.getSpecializationConstant(coeffs);
    const w = i32(kh.getSpecializationConstant(width));
    const h = i32(kh.getSpecializationConstant(height));
    const y = i32(item.getGlobalId(0));
    const x = i32(item.getGlobalId(1));
    let acc = f32(0);
    for (let dy = i32(0); dy < 3; dy++) {
      const row = clamp(y + dy - 1, 0, h - 1) * w;
      for (let dx = i32(0); dx < 3; dx++) {
        acc += c[dy * 3 + dx]! * src[row + clamp(x + dx - 1, 0, w - 1)]!;
      }
    }
    dst[y * w + x] = acc;
  },
);

export const conv3x3Args = kernel(
  {
    ndRange: 2,
    workgroupSize: [4, 64],
    args: {
      src: accessor(f32, 'read'),
      dst: accessor(f32, 'write'),
      weights: mat3x3f,
      width: u32,
      height: u32,
    },
  },
  (item, _kh, { src, dst, weights, width, height }) => {
    const w = i32(width);
    const h = i32(height);
    const y = i32(item.getGlobalId(0));
    const x = i32(item.getGlobalId(1));
    let acc = f32(0);
    for (let dy = i32(0); dy < 3; dy++) {
      const row = clamp(y + dy - 1, 0, h - 1) * w;
      for (let dx = i32(0); dx < 3; dx++) {
        acc += weights[dy]![dx]! * src[row + clamp(x + dx - 1, 0, w - 1)]!;
      }
    }
    dst[y * w + x] = acc;
  },
);
