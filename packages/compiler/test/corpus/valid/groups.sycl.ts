import {
  accessor,
  allOfGroup,
  bitOr,
  exclusiveScanOverGroup,
  f32,
  groupBarrier,
  groupBroadcast,
  i32,
  inclusiveScanOverGroup,
  jointExclusiveScan,
  jointReduce,
  kernel,
  maximum,
  minimum,
  permuteGroupByXor,
  plus,
  reduceOverGroup,
  reduction,
  selectFromGroup,
  shiftGroupLeft,
  u32,
  vec2i,
  workgroupArray,
} from '@syclts/dsl';

/** Work-group and sub-group functions side by side; every item writes one of each. */
export const collectives = kernel(
  {
    ndRange: 1,
    workgroupSize: [16],
    args: { xs: accessor(i32, 'read'), out: accessor(i32, 'write') },
  },
  (item, _kh, { xs, out }) => {
    const g = item.getGroup();
    const sg = item.getSubGroup();
    const i = item.getGlobalId(0);
    const x = xs[i]!;
    const o = i * 8;
    out[o] = reduceOverGroup(g, x, plus);
    out[o + 1] = exclusiveScanOverGroup(g, x, maximum);
    out[o + 2] = inclusiveScanOverGroup(sg, x, minimum, 7);
    out[o + 3] = groupBroadcast(g, x, 3);
    out[o + 4] = shiftGroupLeft(sg, x, 1) + permuteGroupByXor(sg, x, 1);
    out[o + 5] = selectFromGroup(sg, x, sg.getLocalRange() - 1);
    out[o + 6] = allOfGroup(g, x > -1000) ? 1 : 0;
    out[o + 7] = reduceOverGroup(sg, vec2i(x, 1), plus).y;
  },
);

/** Joint algorithms over a workgroup array the items fill. */
export const joint = kernel(
  {
    ndRange: 1,
    workgroupSize: [8],
    args: { xs: accessor(u32, 'read'), out: accessor(u32, 'write') },
    local: { tile: workgroupArray(u32, 20) },
  },
  (item, _kh, { xs, out }, { tile }) => {
    const g = item.getGroup();
    const l = item.getLocalId(0);
    for (let k = l; k < 20; k += 8) {
      tile[k] = xs[k]!;
    }
    groupBarrier(g);
    const total = jointReduce(g, tile, bitOr);
    jointExclusiveScan(g, tile, tile, plus);
    for (let k = l; k < 20; k += 8) {
      out[k] = tile[k]! ^ total;
    }
  },
);

/** Two reductions, one under a condition, with an early return; a required sub-group size. */
export const stats = kernel(
  {
    ndRange: 1,
    workgroupSize: [32],
    subGroupSize: 8,
    args: {
      xs: accessor(f32, 'read'),
      n: u32,
      sum: reduction(f32, plus),
      low: reduction(f32, minimum),
    },
  },
  (item, _kh, { xs, n, sum, low }) => {
    const i = item.getGlobalId(0);
    if (i >= n) {
      return;
    }
    sum.combine(xs[i]!);
    if (xs[i]! > 0) {
      low.combine(xs[i]!);
    }
  },
);
