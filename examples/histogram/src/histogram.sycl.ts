/**
 * Device code: a histogram kept in a device global (sycl_ext_oneapi_device_global). The bins
 * live on the device between launches: each `accumulate` launch adds a batch of samples to them
 * with atomics, and the host reads them back with `queue.copy`.
 */
import {
  accessor,
  array,
  atomic,
  atomicAdd,
  atomicStore,
  deviceGlobal,
  f32,
  kernel,
  min,
  struct,
  u32,
} from '@syclts/dsl';

export const BINS = 32;

/** The histogram. The host may read it, never write it: `clearBins` resets it on the device. */
export const bins = deviceGlobal(array(atomic(u32), BINS), { hostAccess: 'read' });

/** The value range the bins cover, [lo, hi). The host writes it and never reads it back. */
export const ValueRange = struct({ lo: f32, hi: f32 });
export const valueRange = deviceGlobal(ValueRange, { hostAccess: 'write' });

/** Range: BINS. */
export const clearBins = kernel({ range: 1, args: {} }, (item) => {
  atomicStore(bins.value[item.getId(0)]!, 0);
});

/** Range: the number of samples. Samples outside the value range are not counted. */
export const accumulate = kernel(
  { range: 1, args: { samples: accessor(f32, 'read') } },
  (item, _kh, { samples }) => {
    const range = valueRange.value;
    const t = (samples[item.getId(0)]! - range.lo) / (range.hi - range.lo);
    if (t < 0 || t >= 1) {
      return;
    }
    atomicAdd(bins.value[min(u32(t * BINS), BINS - 1)]!, 1);
  },
);
