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
  deviceFunction,
  f32,
  kernel,
  kernelHandler,
  specializationId,
  u32,
  workgroupArray,
} from '@syclts/dsl';

/** The samples' type: 0 u32, 1 i32, 2 f32. */
export const sampleType = specializationId(u32, 0);

/** Bins counted in workgroup memory at most: 8 KiB of the 16 every device offers. */
const LOCAL_BINS = 2048;

/**
 * The bin of sample `x` (bits), `bins` where it is outside [low, high) or NaN: `(x - low) *
 * scale` in f32, as oneDPL computes it, truncated, and kept below `bins` where rounding reaches
 * it. Integer samples subtract `low` exactly first.
 */
const binOf = deviceFunction(
  { args: [kernelHandler, u32, u32, u32, f32, u32], returns: u32 },
  (kh, x, low, high, scale, bins) => {
    const type = kh.getSpecializationConstant(sampleType);
    let offset = f32(0);
    if (type === 2) {
      // NaN told by its bits: WGSL lets a compiler assume that no comparison meets one.
      const v = bitcastF32(x);
      if ((x & 0x7fffffff) > 0x7f800000 || v < bitcastF32(low) || v >= bitcastF32(high)) {
        return bins;
      }
      offset = v - bitcastF32(low);
    } else if (type === 1) {
      if (bitcastI32(x) < bitcastI32(low) || bitcastI32(x) >= bitcastI32(high)) {
        return bins;
      }
      offset = f32(x - low);
    } else {
      if (x < low || x >= high) {
        return bins;
      }
      offset = f32(x - low);
    }
    return Math.min(u32(offset * scale), bins - 1);
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
