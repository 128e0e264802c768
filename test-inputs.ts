/**
 * Fresh test inputs every run, replayable: every draw mixes the run's seed, printed once per
 * test file, and SYCLTS_TEST_SEED sets it again. Shared by the packages' test suites.
 */
const RUN_SEED = Number(process.env.SYCLTS_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));
console.log(`[syclts] test inputs: SYCLTS_TEST_SEED=${RUN_SEED}`);

/** Pseudo-random u32s (xorshift), different between draws with different seeds and between runs. */
export function randomU32(count: number, seed: number): Uint32Array {
  let x = (seed ^ RUN_SEED) >>> 0 || 1;
  return Uint32Array.from({ length: count }, () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  });
}
