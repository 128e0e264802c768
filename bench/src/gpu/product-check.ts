/**
 * Checking an n x n f32 matrix product against a float64 reference on the host: what every
 * matrix-multiply benchmark does before it times a kernel.
 */

/** Tolerance on the relative error of f32 results against the float64 reference. */
export const TOLERANCE = 1e-4;

/** Random n x n entries in [-1, 1). */
const randomMatrix = (n: number): Float32Array<ArrayBuffer> =>
  Float32Array.from({ length: n * n }, () => Math.random() * 2 - 1);

/**
 * The largest error of the sampled entries of `out` (row-major, entry `i * n + j`) against
 * A x B computed in float64, relative to the sum of the products' magnitudes.
 */
export function productError(
  ah: Float32Array,
  bh: Float32Array,
  out: Float32Array,
  n: number,
  samples: readonly number[],
): { error: number; checked: number } {
  let error = 0;
  for (const e of samples) {
    const i = Math.floor(e / n);
    const j = e % n;
    let ref = 0;
    let magnitude = 0;
    for (let k = 0; k < n; k++) {
      const t = ah[i * n + k]! * bh[k * n + j]!;
      ref += t;
      magnitude += Math.abs(t);
    }
    error = Math.max(error, Math.abs(out[e]! - ref) / magnitude);
  }
  return { error, checked: samples.length };
}

/**
 * Poisons `c` with NaN, runs `dispatch` once, reads `c` back through `readBuffer` and checks 256
 * random entries; returns their largest relative error, or throws naming `what` past TOLERANCE.
 */
export async function checkProduct(
  device: GPUDevice,
  product: { c: GPUBuffer; readBuffer: GPUBuffer; ah: Float32Array; bh: Float32Array; n: number },
  dispatch: () => void,
  what: string,
): Promise<number> {
  const { c, readBuffer, ah, bh, n } = product;
  device.queue.writeBuffer(c, 0, new Float32Array(n * n).fill(Number.NaN));
  dispatch();
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(c, 0, readBuffer, 0, n * n * 4);
  device.queue.submit([encoder.finish()]);
  await readBuffer.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(readBuffer.getMappedRange().slice(0));
  readBuffer.unmap();
  const samples = Array.from({ length: 256 }, () => Math.floor(Math.random() * n * n));
  const { error } = productError(ah, bh, out, n, samples);
  if (!(error < TOLERANCE)) throw new Error(`${what}: relative error ${error}`);
  return error;
}

/**
 * Random A and B and the buffers of a product on `device`: A and B uploaded, C for the result
 * (copied out), and a buffer to read C back through.
 */
export function productBuffers(device: GPUDevice, n: number) {
  const ah = randomMatrix(n);
  const bh = randomMatrix(n);
  const storage = (data: Float32Array<ArrayBuffer> | null, usage: number) => {
    const buffer = device.createBuffer({
      size: n * n * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | usage,
    });
    if (data) device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  };
  const readBuffer = device.createBuffer({
    size: n * n * 4,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  return {
    n,
    ah,
    bh,
    a: storage(ah, 0),
    b: storage(bh, 0),
    c: storage(null, GPUBufferUsage.COPY_SRC),
    readBuffer,
  };
}
