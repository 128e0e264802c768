import { accessor, array, atomic, atomicAdd, deviceGlobal, f32, kernel, u32 } from '@syclts/dsl';

/**
 * Kept on the GPU between launches: [0] counts launches, [1] counts the items that saw a value
 * above the threshold. The host may read it and write it (to reset it).
 */
export const tally = deviceGlobal(array(atomic(u32), 2), { hostAccess: 'read_write' });

/** Adds this launch to the tally. */
export const count = kernel(
  { range: 1, args: { xs: accessor(f32, 'read'), threshold: f32 } },
  (item, _kh, { xs, threshold }) => {
    const i = item.getId(0);
    if (i === 0) {
      atomicAdd(tally.value[0]!, 1);
    }
    if (xs[i]! > threshold) {
      atomicAdd(tally.value[1]!, 1);
    }
  },
);
