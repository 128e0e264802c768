import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';

export const factor = specializationId(u32, 7);

export const scale = kernel(
  { range: 1, args: { out: accessor(u32, 'write') } },
  (item, kh, { out }) => {
    const i = item.getId(0);
    out[i] = kh.getSpecializationConstant(factor) * i;
  },
);
