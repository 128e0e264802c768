/**
 * Device code: what runs on the GPU. Kernels are written in a subset of TypeScript that the
 * syclts plugin compiles to WGSL when the app is bundled.
 */
import {
  accessor,
  array,
  atomic,
  atomicAdd,
  deviceGlobal,
  f32,
  kernel,
  specializationId,
  u32,
} from '@syclts/dsl';

/** The gain, set by the host per launch: a WGSL `override` constant, as fast as a literal. */
export const gain = specializationId(f32, 2);

/** Results above this limit are counted. */
export const LIMIT = 100;

/** How many results went over the limit, kept on the GPU across launches; the host only reads it. */
export const overLimit = deviceGlobal(array(atomic(u32), 1), { hostAccess: 'read' });

/** output[i] = input[i] * gain, counting the results over the limit. */
export const scale = kernel(
  { range: 1, args: { input: accessor(f32, 'read'), output: accessor(f32, 'write') } },
  (item, kh, { input, output }) => {
    const i = item.getId(0);
    const value = input[i]! * kh.getSpecializationConstant(gain);
    output[i] = value;
    if (value > LIMIT) {
      atomicAdd(overLimit.value[0]!, 1);
    }
  },
);
