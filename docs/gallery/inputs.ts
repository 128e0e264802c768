/** Seeded inputs for the live runs, so that a test can compute the same results on the CPU. */

/** `n` multiples of 2^-23 in [-1, 1) (exact in f32), from a linear congruential generator. */
export function seededFloats(n: number, seed = 1): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) / 2 ** 23 - 1;
  });
}
