/**
 * Histogram of equal-width bins: a fixed grid of work-groups reads the samples in a grid-stride
 * loop and counts each in its bin. Where the bins fit in workgroup memory (LOCAL_BINS), each
 * work-group counts in workgroup atomics and then adds its counts that are not zero to the
 * output with one global atomic each; past that, every sample is a global atomic on the output.
 * Samples are u32 bits; their type is a specialization constant.
 */
import {
  accessor,
  atomic,
  atomicAdd,
  atomicLoad,
  atomicStore,
  bitcastF32,
  bitcastI32,
  bool,
  deviceFunction,
  f32,
  kernel,
  kernelHandler,
  specializationId,
  u32,
  vec2u,
  workgroupArray,
} from '@syclts/dsl';

/** The samples' type: 0 u32, 1 i32, 2 f32. */
export const sampleType = specializationId(u32, 0);

/** Bins counted in workgroup memory at most: 8 KiB of the 16 every device offers. */
const LOCAL_BINS = 2048;

/** The 64-bit product of `a` and `b`: (low word, high word). */
const wide = deviceFunction({ args: [u32, u32], returns: vec2u }, (a, b) => {
  const a0 = a & 0xffff;
  const a1 = a >> 16;
  const b0 = b & 0xffff;
  const b1 = b >> 16;
  const cross = a0 * b1;
  const cross2 = a1 * b0;
  const low = a0 * b0;
  const mid = (low >> 16) + (cross & 0xffff) + (cross2 & 0xffff);
  return vec2u(
    (mid << 16) | (low & 0xffff),
    a1 * b1 + (cross >> 16) + (cross2 >> 16) + (mid >> 16),
  );
});

/** Whether `a * b <= c * d`, exactly. */
const atMost = deviceFunction({ args: [u32, u32, u32, u32], returns: bool }, (a, b, c, d) => {
  const x = wide(a, b);
  const y = wide(c, d);
  return x.y < y.y || (x.y === y.y && x.x <= y.x);
});

/**
 * The bin of sample `x` (bits), `bins` where it is outside [low, high) or NaN, as oneDPL's even
 * bins: f32 samples `(x - low) * scale` in f32, truncated (and kept below `bins` where rounding
 * reaches it); integer samples exactly `(x - low) * bins / (high - low)`, rounded down, found
 * from the f32 estimate and corrected with 64-bit products.
 */
const binOf = deviceFunction(
  { args: [kernelHandler, u32, u32, u32, f32, u32], returns: u32 },
  (kh, x, low, high, scale, bins) => {
    const type = kh.getSpecializationConstant(sampleType);
    if (type === 2) {
      // NaN told by its bits: WGSL lets a compiler assume that no comparison meets one.
      const v = bitcastF32(x);
      if ((x & 0x7fffffff) > 0x7f800000 || v < bitcastF32(low) || v >= bitcastF32(high)) {
        return bins;
      }
      return Math.min(u32((v - bitcastF32(low)) * scale), bins - 1);
    }
    const outside =
      type === 1
        ? bitcastI32(x) < bitcastI32(low) || bitcastI32(x) >= bitcastI32(high)
        : x < low || x >= high;
    if (outside) {
      return bins;
    }
    // Exact in u32 for i32 too: the differences are below 2^32.
    const offset = x - low;
    const width = high - low;
    let b = Math.min(u32(f32(offset) * scale), bins - 1);
    while (b > 0 && !atMost(b, width, offset, bins)) {
      b--;
    }
    while (b + 1 < bins && atMost(b + 1, width, offset, bins)) {
      b++;
    }
    return b;
  },
);

export const histogramClear = kernel(
  { range: 1, args: { counts: accessor(u32, 'write') } },
  (item, _kh, { counts }) => {
    counts[item.getId(0)] = 0;
  },
);

export const histogramCounts = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: {
      samples: accessor(u32, 'read'),
      counts: accessor(atomic(u32), 'read_write'),
      n: u32,
      bins: u32,
      low: u32,
      high: u32,
      scale: f32,
    },
    local: { tally: workgroupArray(atomic(u32), LOCAL_BINS) },
  },
  (item, kh, { samples, counts, n, bins, low, high, scale }, { tally }) => {
    const l = item.getLocalId(0);
    const local = bins <= LOCAL_BINS;
    if (local) {
      for (let b = l; b < bins; b += 256) {
        atomicStore(tally[b]!, 0);
      }
    }
    item.barrier();
    for (let i = item.getGlobalId(0); i < n; i += item.getGlobalRange(0)) {
      const b = binOf(kh, samples[i]!, low, high, scale, bins);
      if (b < bins) {
        if (local) {
          atomicAdd(tally[b]!, 1);
        } else {
          atomicAdd(counts[b]!, 1);
        }
      }
    }
    item.barrier();
    if (local) {
      for (let b = l; b < bins; b += 256) {
        const count = atomicLoad(tally[b]!);
        if (count > 0) {
          atomicAdd(counts[b]!, count);
        }
      }
    }
  },
);
