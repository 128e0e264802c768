/** The filters the example switches between, and the CPU reference they are checked against. */
import type { HostValue } from '@syclts/dsl';
import type { Coefficients } from './convolution.sycl.ts';

export type Coeffs = HostValue<typeof Coefficients>;

export type FilterName = 'blur' | 'sharpen' | 'edges';

export const FILTERS: Readonly<Record<FilterName, Coeffs>> = {
  blur: [
    [1 / 16, 2 / 16, 1 / 16],
    [2 / 16, 4 / 16, 2 / 16],
    [1 / 16, 2 / 16, 1 / 16],
  ],
  sharpen: [
    [0, -1, 0],
    [-1, 5, -1],
    [0, -1, 0],
  ],
  edges: [
    [-1, -1, -1],
    [-1, 8, -1],
    [-1, -1, -1],
  ],
};

export const FILTER_NAMES = Object.keys(FILTERS) as FilterName[];

/** An RGBA image, 4 floats per pixel in [0, 1] (the filters may leave that range). */
export interface Image {
  readonly width: number;
  readonly height: number;
  readonly pixels: Float32Array;
}

/** What the kernel computes, on the CPU: zero padding, alpha copied. */
export function convolveOnCpu(image: Image, coeffs: Coeffs): Float32Array {
  const { width, height, pixels } = image;
  const out = new Float32Array(pixels.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const q = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        let acc = 0;
        for (let i = -1; i <= 1; i++) {
          if (y + i < 0 || y + i >= height) continue;
          for (let j = -1; j <= 1; j++) {
            if (x + j < 0 || x + j >= width) continue;
            acc += coeffs[i + 1]![j + 1]! * pixels[((y + i) * width + x + j) * 4 + c]!;
          }
        }
        out[q + c] = acc;
      }
      out[q + 3] = pixels[q + 3]!;
    }
  }
  return out;
}

/** Largest absolute difference between two images of the same size. */
export function maxDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

/** f32 sums of at most 9 products of values in [0, 1] with coefficients up to 8. */
export const TOLERANCE = 1e-4;
