import { accessor, f32, kernel, u32 } from '@syclts/dsl';

/** flags[i] = 1 where xs[i] passes the test (above the threshold), else 0. */
export const mark = kernel(
  { range: 1, args: { xs: accessor(f32, 'read'), flags: accessor(u32, 'write'), threshold: f32 } },
  (item, _kh, { xs, flags, threshold }) => {
    const i = item.getId(0);
    flags[i] = xs[i]! > threshold ? 1 : 0;
  },
);

/** Each kept element to its place: the number of kept elements before it. */
export const gather = kernel(
  {
    range: 1,
    args: {
      xs: accessor(f32, 'read'),
      flags: accessor(u32, 'read'),
      places: accessor(u32, 'read'),
      kept: accessor(f32, 'write'),
    },
  },
  (item, _kh, { xs, flags, places, kept }) => {
    const i = item.getId(0);
    if (flags[i]! === 1) {
      kept[places[i]!] = xs[i]!;
    }
  },
);
