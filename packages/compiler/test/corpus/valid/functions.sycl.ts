import { accessor, f32, kernel, u32, vec3f } from '@syclts/dsl';
import { biased, calls, countCall, lerp, luminance, smoothLerp } from './mathlib.sycl.ts';

/** Device functions from another module, including raw WGSL and a void function. */
export const useFunctions = kernel(
  { range: 1, args: { x: accessor(f32, 'read'), out: accessor(f32, 'write') } },
  (item, _kh, { x, out }) => {
    const i = item.getId(0);
    const v = x[i]!;
    countCall(u32(2));
    out[i * 4] = lerp(0, 10, v);
    out[i * 4 + 1] = smoothLerp(1, 2, v);
    out[i * 4 + 2] = luminance(vec3f(v, v * 2, 1));
    out[i * 4 + 3] = biased(v);
  },
);

export { calls };
