import { accessor, array, deviceGlobal, kernel, specializationId, u32 } from '@syclts/dsl';

/** A u32 constant: a negative value cannot fit. */
export const offset = specializationId(u32, 0);

/** The host may read this global, never write it. */
export const results = deviceGlobal(array(u32, 4), { hostAccess: 'read' });

export const fill = kernel(
  { range: 1, args: { out: accessor(u32, 'write') } },
  (item, kh, { out }) => {
    const i = item.getId(0);
    out[i] = i + kh.getSpecializationConstant(offset);
  },
);
