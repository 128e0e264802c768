/**
 * Device code in a second module, so a second device image: it reads the same `bins` (a device
 * global without `deviceImageScope` is one buffer per device, shared by every image that uses it)
 * and writes `peak`, which has `deviceImageScope`: its storage belongs to this image, the only
 * one allowed to use it (the build fails if another module's kernels did).
 */
import { atomicLoad, deviceGlobal, kernel, struct, u32 } from '@syclts/dsl';
import { BINS, bins } from './histogram.sycl.ts';

export const Peak = struct({ bin: u32, count: u32 });
export const peak = deviceGlobal(Peak, { deviceImageScope: true, hostAccess: 'read' });

/** A single task: the fullest bin (the first of equals). */
export const findPeak = kernel({ range: 1, args: {} }, () => {
  let best = u32(0);
  let most = u32(0);
  for (let i = u32(0); i < BINS; i++) {
    const count = atomicLoad(bins.value[i]!);
    if (count > most) {
      most = count;
      best = i;
    }
  }
  peak.value.bin = best;
  peak.value.count = most;
});
