import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';

/** The stride, set per launch. */
export const stride = specializationId(u32, 1);

/** out[i] = i * stride. */
export const multiples = kernel(
  { range: 1, args: { out: accessor(u32, 'write') } },
  (item, kh, { out }) => {
    const i = item.getId(0);
    out[i] = i * kh.getSpecializationConstant(stride);
  },
);
