/**
 * Device code: SYCL 2020's convolution example (section 4.9.5), on WebGPU.
 *
 * The 3x3 coefficients are a specialization constant: on the native path each set of values
 * becomes WGSL `override` constants, so the loop below runs with the coefficients as literals
 * (a new pipeline per filter, created once and cached); on the emulated path they are read from
 * a buffer (one pipeline for every filter).
 */
import { accessor, array, f32, i32, kernel, specializationId, u32 } from '@syclts/dsl';

/** `std::array<std::array<float, 3>, 3>` in the SYCL example: rows of the 3x3 kernel. */
export const Coefficients = array(array(f32, 3), 3);

/** The default leaves the image as it is. */
export const coeffs = specializationId(Coefficients, [
  [0, 0, 0],
  [0, 1, 0],
  [0, 0, 0],
]);

/**
 * One work item per pixel of an RGBA image stored as 4 floats per pixel, row by row. Range:
 * `[height, width]`. Neighbours outside the image are skipped (zero padding), as in the SYCL
 * example; alpha is copied.
 */
export const convolve = kernel(
  {
    range: 2,
    args: { src: accessor(f32, 'read'), dst: accessor(f32, 'write'), width: u32, height: u32 },
  },
  (item, kh, { src, dst, width, height }) => {
    const y = i32(item.getId(0));
    const x = i32(item.getId(1));
    const coeff = kh.getSpecializationConstant(coeffs);
    let r = f32(0);
    let g = f32(0);
    let b = f32(0);
    for (let i = -1; i <= 1; i++) {
      if (y + i < 0 || y + i >= i32(height)) {
        continue;
      }
      for (let j = -1; j <= 1; j++) {
        if (x + j < 0 || x + j >= i32(width)) {
          continue;
        }
        const k = coeff[i + 1]![j + 1]!;
        const p = (u32(y + i) * width + u32(x + j)) * 4;
        r += k * src[p]!;
        g += k * src[p + 1]!;
        b += k * src[p + 2]!;
      }
    }
    const q = (u32(y) * width + u32(x)) * 4;
    dst[q] = r;
    dst[q + 1] = g;
    dst[q + 2] = b;
    dst[q + 3] = src[q + 3]!;
  },
);
