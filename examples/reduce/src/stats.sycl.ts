import { accessor, f32, kernel, maximum, plus, reduction } from '@syclts/dsl';

export const stats = kernel(
  {
    range: 1,
    args: { xs: accessor(f32, 'read'), sum: reduction(f32, plus), peak: reduction(f32, maximum) },
  },
  (item, _kh, { xs, sum, peak }) => {
    const x = xs[item.getId(0)]!;
    sum.combine(x);
    peak.combine(x);
  },
);
