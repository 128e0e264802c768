import { accessor, f32, kernel, sin, specializationId } from '@syclts/dsl';

/** The wave's phase: a new value every frame. */
export const phase = specializationId(f32, 0);

/** out[i] = sin(phase + i / 8): one row of a moving wave. */
export const wave = kernel(
  { range: 1, args: { out: accessor(f32, 'write') } },
  (item, kh, { out }) => {
    const i = item.getId(0);
    out[i] = sin(kh.getSpecializationConstant(phase) + f32(i) / 8);
  },
);
