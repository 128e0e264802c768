import { accessor, f16, f32, kernel, vec4h } from '@syclts/dsl';

/** f16 arithmetic and vectors (needs the shader-f16 feature: run by test/frontend/device/ on a GPU that has it). */
export const halves = kernel(
  { range: 1, args: { x: accessor(f16, 'read'), out: accessor(f32, 'write'), k: f32 } },
  (item, _kh, { x, out, k }) => {
    const i = item.getId(0);
    const h = x[i]! * f16(2) + f16(k);
    const v = vec4h(h, h * 0.5, -h, 1);
    out[i] = f32(v.x + v.y + v.z + v.w) + f32(Math.max(h, 3));
  },
);
