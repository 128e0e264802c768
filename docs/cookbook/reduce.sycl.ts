import { accessor, f32, kernel, plus, reduction, u32 } from '@syclts/dsl';

/** The sum of squares and the count of positive elements, in one pass. */
export const squaresAndPositives = kernel(
  {
    range: 1,
    args: {
      xs: accessor(f32, 'read'),
      squares: reduction(f32, plus),
      positives: reduction(u32, plus),
    },
  },
  (item, _kh, { xs, squares, positives }) => {
    const x = xs[item.getId(0)]!;
    squares.combine(x * x);
    if (x > 0) {
      positives.combine(1);
    }
  },
);
