/** The blur on the CPU, in double precision, rounded to RGBA8 as the storage texture stores it. */
export function blurOnCpu(
  width: number,
  height: number,
  rgba: Uint8Array | Uint8ClampedArray,
  radius: number,
): Uint8ClampedArray<ArrayBuffer> {
  const sigma = Math.max(radius, 1) * 0.5;
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0, 0];
      let total = 0;
      for (let dy = -radius; dy <= radius; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
          const w = Math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
          const sx = Math.min(width - 1, Math.max(0, x + dx));
          const sy = Math.min(height - 1, Math.max(0, y + dy));
          for (let c = 0; c < 4; c++) sum[c]! += (rgba[(sy * width + sx) * 4 + c]! / 255) * w;
          total += w;
        }
      }
      for (let c = 0; c < 4; c++)
        out[(y * width + x) * 4 + c] = Math.round((sum[c]! / total) * 255);
    }
  }
  return out;
}

/** The largest difference between two RGBA8 images, in levels of 255. */
export function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let most = 0;
  for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(a[i]! - b[i]!));
  return most;
}

/** f32 sums and the GPU's `exp` may land a texel one level from the exact result. */
export const TOLERANCE = 1;
