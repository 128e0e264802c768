import {
  accessor,
  array,
  clamp,
  f32,
  fma,
  i32,
  kernel,
  mat3x3f,
  max,
  min,
  specializationId,
  u32,
  unroll,
  vec4f,
} from '@syclts/dsl';

/**
 * conv.sycl.ts's 3x3 convolution (width x height f32, edges clamped), four pixels an item: each
 * item reads its row's `vec4f` and the neighbouring ones in the three rows around it and writes
 * one `vec4f`, so the image moves in 16-byte loads and stores as a copy does. `width` is a
 * multiple of 4. `conv3x3Vec4` takes the coefficients and the image size as specialization
 * constants; `conv3x3Vec4Args` as kernel arguments (`weights[dy][dx]`). Range: [height,
 * width / 4] in workgroups of [4, 64].
 */
export const vec4Coeffs = specializationId(array(f32, 9), [
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
export const vec4Width = specializationId(u32, 4096);
export const vec4Height = specializationId(u32, 4096);

export const conv3x3Vec4 = kernel(
  {
    ndRange: 2,
    workgroupSize: [4, 64],
    args: { src: accessor(vec4f, 'read'), dst: accessor(vec4f, 'write') },
  },
  (item, kh, { src, dst }) => {
    const c = kh.getSpecializationConstant(vec4Coeffs);
    const w4 = i32(kh.getSpecializationConstant(vec4Width) / 4);
    const h = i32(kh.getSpecializationConstant(vec4Height));
    const y = i32(item.getGlobalId(0));
    const q = i32(item.getGlobalId(1));
    let out = vec4f(0);
    for (const dy of unroll(3)) {
      const row = clamp(y + i32(dy) - 1, 0, h - 1) * w4;
      const mid = src[row + q]!;
      const left = src[row + max(q - 1, 0)]!;
      const right = src[row + min(q + 1, w4 - 1)]!;
      // At the image's edges the pixel beyond is the edge pixel itself.
      const l = q === 0 ? mid.x : left.w;
      const r = q === w4 - 1 ? mid.w : right.x;
      out = fma(vec4f(c[dy * 3]!), vec4f(l, mid.x, mid.y, mid.z), out);
      out = fma(vec4f(c[dy * 3 + 1]!), mid, out);
      out = fma(vec4f(c[dy * 3 + 2]!), vec4f(mid.y, mid.z, mid.w, r), out);
    }
    dst[y * w4 + q] = out;
  },
);

export const conv3x3Vec4Args = kernel(
  {
    ndRange: 2,
    workgroupSize: [4, 64],
    args: {
      src: accessor(vec4f, 'read'),
      dst: accessor(vec4f, 'write'),
      weights: mat3x3f,
      width: u32,
      height: u32,
    },
  },
  (item, _kh, { src, dst, weights, width, height }) => {
    const w4 = i32(width / 4);
    const h = i32(height);
    const y = i32(item.getGlobalId(0));
    const q = i32(item.getGlobalId(1));
    let out = vec4f(0);
    for (const dy of unroll(3)) {
      const row = clamp(y + i32(dy) - 1, 0, h - 1) * w4;
      const mid = src[row + q]!;
      const left = src[row + max(q - 1, 0)]!;
      const right = src[row + min(q + 1, w4 - 1)]!;
      const l = q === 0 ? mid.x : left.w;
      const r = q === w4 - 1 ? mid.w : right.x;
      out = fma(vec4f(weights[dy]![0]!), vec4f(l, mid.x, mid.y, mid.z), out);
      out = fma(vec4f(weights[dy]![1]!), mid, out);
      out = fma(vec4f(weights[dy]![2]!), vec4f(mid.y, mid.z, mid.w, r), out);
    }
    dst[y * w4 + q] = out;
  },
);
