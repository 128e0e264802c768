/**
 * CPU references the example tests compute themselves, from the inputs an example reports, so
 * that no test takes an example's own verdict on its results.
 */

/** The largest |c - a·b| over the n x n product, the reference summed in double precision. */
export function productError(
  a: readonly number[],
  b: readonly number[],
  c: readonly number[],
  n: number,
): number {
  let worst = 0;
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      let sum = 0;
      for (let k = 0; k < n; k++) sum += a[row * n + k]! * b[k * n + col]!;
      // NaN (an entry never written) must fail: compare so that it does.
      const error = Math.abs(c[row * n + col]! - sum);
      worst = Number.isNaN(error) ? Number.POSITIVE_INFINITY : Math.max(worst, error);
    }
  }
  return worst;
}

/** f32 rounding over n products of values in [-1, 1], with a wide margin. */
export const productTolerance = (n: number) => 4e-6 * n;

/** Counts of the samples in [lo, hi) split into `bins` equal bins, after each batch. */
export function histograms(
  inputs: {
    readonly lo: number;
    readonly hi: number;
    readonly batches: readonly (readonly number[])[];
  },
  bins: number,
): number[][] {
  const counts = Array.from({ length: bins }, () => 0);
  return inputs.batches.map((samples) => {
    for (const x of samples) {
      if (x >= inputs.lo && x < inputs.hi) {
        counts[Math.floor(((x - inputs.lo) / (inputs.hi - inputs.lo)) * bins)]! += 1;
      }
    }
    return [...counts];
  });
}

/** A Gaussian of sigma max(r, 1) / 2 over (2r + 1)^2 texels, edges clamped, rounded to RGBA8. */
export function gaussian(
  image: { width: number; height: number; data: ArrayLike<number> },
  r: number,
): Uint8Array {
  const { width, height, data } = image;
  const sigma = Math.max(r, 1) / 2;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        let total = 0;
        for (let dy = -r; dy <= r; dy++) {
          for (let dx = -r; dx <= r; dx++) {
            const w = Math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
            const sx = Math.min(width - 1, Math.max(0, x + dx));
            const sy = Math.min(height - 1, Math.max(0, y + dy));
            sum += w * data[(sy * width + sx) * 4 + c]!;
            total += w;
          }
        }
        out[(y * width + x) * 4 + c] = Math.round(sum / total);
      }
    }
  }
  return out;
}

/**
 * The particles example's simulation in double precision: `steps` semi-implicit Euler steps of
 * `dt` towards an attractor at the origin (acceleration −G·M·p / (|p|² + ε²)^1.5), from xyzw
 * positions and velocities. Returns the xyzw positions after the last step (w kept).
 */
export function particlePositions(
  initial: { readonly positions: readonly number[]; readonly velocities: readonly number[] },
  simulation: { strength: number; softening: number; dt: number; steps: number },
): number[] {
  const { strength, softening, dt, steps } = simulation;
  const p = [...initial.positions];
  const v = [...initial.velocities];
  for (let s = 0; s < steps; s++) {
    for (let i = 0; i < p.length; i += 4) {
      const d2 = p[i]! ** 2 + p[i + 1]! ** 2 + p[i + 2]! ** 2 + softening ** 2;
      const k = (-strength / (d2 * Math.sqrt(d2))) * dt;
      for (let c = i; c < i + 3; c++) {
        v[c] = v[c]! + p[c]! * k;
        p[c] = p[c]! + v[c]! * dt;
      }
    }
  }
  return p;
}

/**
 * Where a world-space point lands on a canvas of `width` x `height` CSS pixels, through
 * three.js's column-major view and projection matrices; null behind the camera.
 */
export function projectToCanvas(
  point: readonly [number, number, number],
  camera: { readonly view: readonly number[]; readonly projection: readonly number[] },
  width: number,
  height: number,
): { x: number; y: number } | null {
  const transform = (m: readonly number[], v: readonly number[]) =>
    [0, 1, 2, 3].map((row) => v.reduce((sum, x, col) => sum + m[col * 4 + row]! * x, 0));
  const [x, y, , w] = transform(camera.projection, transform(camera.view, [...point, 1])) as [
    number,
    number,
    number,
    number,
  ];
  if (w <= 0) return null;
  return { x: ((x / w + 1) / 2) * width, y: ((1 - y / w) / 2) * height };
}
