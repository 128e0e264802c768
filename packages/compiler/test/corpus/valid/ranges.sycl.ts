import { accessor, kernel, u32 } from '@syclts/dsl';

/** 2-D basic range: ids, ranges and the row-major linear id. */
export const grid2 = kernel(
  { range: 2, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => {
    const row = item.getId(0);
    const col = item.getId(1);
    out[item.getLinearId()] = row * 1000 + col + item.getRange(1) * 1000000;
  },
);

/** 3-D basic range. */
export const grid3 = kernel(
  { range: 3, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => {
    const x = item.getId(0);
    const y = item.getId(1);
    const z = item.getId(2);
    const linear = (x * item.getRange(1) + y) * item.getRange(2) + z;
    out[linear] = x * 10000 + y * 100 + z + u32(item.getLinearId() === linear) * 1000000;
  },
);
