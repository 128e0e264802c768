import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';

/**
 * A kernel with no emulated variant (a specialization constant sizes its workgroup): every new
 * value of `factor` needs a native pipeline. Launch `slot` writes factor * i + slot to its row.
 */
export const factor = specializationId(u32, 1);
export const groupSize = specializationId(u32, 64);

export const stamp = kernel(
  { ndRange: 1, workgroupSize: [groupSize], args: { out: accessor(u32, 'write'), slot: u32 } },
  (item, kh, { out, slot }) => {
    const i = item.getLocalId(0);
    out[slot * kh.getSpecializationConstant(groupSize) + i] =
      kh.getSpecializationConstant(factor) * i + slot;
  },
);
