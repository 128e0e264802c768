import {
  accessor,
  exclusiveScanOverGroup,
  f32,
  kernel,
  plus,
  reduceOverGroup,
  reduction,
  u32,
  vec4f,
} from '@syclts/dsl';

/**
 * The sum of n vec4f elements (4n f32) into a reduction variable, the algorithm of the
 * hand-written baseline (bench/src/gpu/collectives/reduce.ts): a grid-stride loop with four loads
 * in flight per item, then the work-group's sum, then the finishing pass.
 */
export const sumReduction = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: { xs: accessor(vec4f, 'read'), n: u32, sum: reduction(f32, plus) },
  },
  (item, _kh, { xs, n, sum }) => {
    const stride = item.getGlobalRange(0);
    let i = item.getGlobalId(0);
    let a = f32(0);
    let b = f32(0);
    let c = f32(0);
    let d = f32(0);
    for (; i + 3 * stride < n; i += 4 * stride) {
      const p = xs[i]!;
      const q = xs[i + stride]!;
      const r = xs[i + 2 * stride]!;
      const s = xs[i + 3 * stride]!;
      a += p.x + p.y + p.z + p.w;
      b += q.x + q.y + q.z + q.w;
      c += r.x + r.y + r.z + r.w;
      d += s.x + s.y + s.z + s.w;
    }
    for (; i < n; i += stride) {
      const p = xs[i]!;
      a += p.x + p.y + p.z + p.w;
    }
    sum.combine(a + b + (c + d));
  },
);

/** Each work-group of 256 items sums its elements (one an item; past n, 0). */
export const groupSum = kernel(
  {
    ndRange: 2,
    workgroupSize: [1, 256],
    args: { src: accessor(f32, 'read'), dst: accessor(f32, 'write'), n: u32 },
  },
  (item, _kh, { src, dst, n }) => {
    const g = item.getGroup();
    const i = item.getGlobalLinearId();
    const x = i < n ? src[Math.min(i, n - 1)]! : 0;
    const total = reduceOverGroup(g, x, plus);
    if (g.leader()) {
      dst[g.getGroupLinearId()] = total;
    }
  },
);

/** Each work-group of 256 items writes the exclusive prefix sum of its elements. */
export const groupScan = kernel(
  {
    ndRange: 2,
    workgroupSize: [1, 256],
    args: { src: accessor(u32, 'read'), dst: accessor(u32, 'write'), n: u32 },
  },
  (item, _kh, { src, dst, n }) => {
    const g = item.getGroup();
    const i = item.getGlobalLinearId();
    const x = i < n ? src[Math.min(i, n - 1)]! : 0;
    const s = exclusiveScanOverGroup(g, x, plus);
    if (i < n) {
      dst[i] = s;
    }
  },
);
