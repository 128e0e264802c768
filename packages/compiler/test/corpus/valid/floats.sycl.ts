import { accessor, clamp, f32, fma, kernel, mix, pow, sqrt } from '@syclts/dsl';

/** f32 arithmetic with Math.* and DSL built-ins; abstract literals become f32 from context. */
export const floatOps = kernel(
  { range: 1, args: { x: accessor(f32, 'read'), out: accessor(f32, 'write') } },
  (item, _kh, { x, out }) => {
    const i = item.getId(0);
    const v = x[i]!;
    const base = i * 8;
    out[base] = Math.sqrt(Math.abs(v)) + sqrt(2);
    out[base + 1] = Math.floor(v * 3) - Math.ceil(v / 3);
    out[base + 2] = Math.round(v);
    out[base + 3] = Math.min(v, 0.25, -v) + Math.max(v, 1);
    out[base + 4] = pow(Math.abs(v), 1.5) + Math.PI;
    out[base + 5] = fma(v, 2, 0.5) * clamp(v, -1, 1);
    out[base + 6] = mix(v, 10, 0.25) + Math.trunc(v * 7) / 7;
    out[base + 7] = v > 0 ? Math.exp(v * 0.1) : Math.sin(v) + Math.cos(v);
  },
);
