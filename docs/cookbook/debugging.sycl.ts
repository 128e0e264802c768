import { accessor, deviceFunction, f32, kernel, u32, vec2f } from '@syclts/dsl';

/** Reports a value the kernel did not expect, with the item's own numbers. */
const check = deviceFunction({ args: [f32, u32] }, (x, i) => {
  if (x < 0) {
    console.log(`negative input at ${i}:`, x);
  }
});

/** Square roots of the inputs; prints what it works on for the first items. */
export const roots = kernel(
  { range: 1, args: { xs: accessor(f32, 'read'), out: accessor(f32, 'write') } },
  (item, _kh, { xs, out }) => {
    const i = item.getId(0);
    const x = xs[i]!;
    if (i < 3) {
      console.log('x', x, 'root', Math.sqrt(x), vec2f(x, x * x));
    }
    check(x, i);
    out[i] = Math.sqrt(x);
  },
);
