import { accessor, f32, kernel } from '@syclts/dsl';

const scaleOf = (x: number) => x * 2;

export const twice = kernel(
  { range: 1, args: { xs: accessor(f32, 'read_write') } },
  (item, _kh, { xs }) => {
    const i = item.getId(0);
    xs[i] = scaleOf(xs[i]!);
  },
);
