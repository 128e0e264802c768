import {
  accessor,
  deviceFunction,
  exclusiveScanOverGroup,
  f32,
  kernel,
  min,
  minimum,
  plus,
  reduceOverGroup,
  reduction,
  span,
  struct,
  u32,
  vec4f,
  vec4u,
} from '@syclts/dsl';

const F32_MAX = 3.4028234663852886e38;

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

/**
 * The smallest of n vec4f elements, the same grid-stride loop (one load in flight) for the three
 * kernels below, which differ only in how the work-groups combine: `minimum`, SYCL's function
 * object (the sub-group built-ins where the device has them); `lesser`, a device function doing
 * the same (a tree in workgroup memory); `better`, an argmin.
 */
export const minReduction = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: { xs: accessor(vec4f, 'read'), n: u32, low: reduction(f32, minimum) },
  },
  (item, _kh, { xs, n, low }) => {
    const stride = item.getGlobalRange(0);
    let m = f32(F32_MAX);
    for (let i = item.getGlobalId(0); i < n; i += stride) {
      const p = xs[i]!;
      m = min(m, min(min(p.x, p.y), min(p.z, p.w)));
    }
    low.combine(m);
  },
);

const lesser = deviceFunction({ args: [f32, f32], returns: f32 }, (a, b) => min(a, b));

export const minCombiner = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: { xs: accessor(vec4f, 'read'), n: u32, low: reduction(f32, F32_MAX, lesser) },
  },
  (item, _kh, { xs, n, low }) => {
    const stride = item.getGlobalRange(0);
    let m = f32(F32_MAX);
    for (let i = item.getGlobalId(0); i < n; i += stride) {
      const p = xs[i]!;
      m = min(m, min(min(p.x, p.y), min(p.z, p.w)));
    }
    low.combine(m);
  },
);

/** A value and where it is. */
export const Best = struct({ value: f32, index: u32 });
/** The smaller value; of equal ones, the lower index. */
const better = deviceFunction({ args: [Best, Best], returns: Best }, (a, b) => {
  if (b.value < a.value || (b.value === a.value && b.index < a.index)) {
    return b;
  }
  return a;
});

export const argminReduction = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: {
      xs: accessor(vec4f, 'read'),
      n: u32,
      best: reduction(Best, { value: F32_MAX, index: 0xffffffff }, better),
    },
  },
  (item, _kh, { xs, n, best }) => {
    const stride = item.getGlobalRange(0);
    let value = f32(F32_MAX);
    let index = u32(0xffffffff);
    // An item's indices grow: a strictly smaller value is the first of its kind.
    for (let i = item.getGlobalId(0); i < n; i += stride) {
      const p = xs[i]!;
      if (p.x < value) {
        value = p.x;
        index = 4 * i;
      }
      if (p.y < value) {
        value = p.y;
        index = 4 * i + 1;
      }
      if (p.z < value) {
        value = p.z;
        index = 4 * i + 2;
      }
      if (p.w < value) {
        value = p.w;
        index = 4 * i + 3;
      }
    }
    best.combine(Best({ value, index }));
  },
);

/** A histogram of n vec4u elements' low 4 bits (4n u32) into 16 bins: a span reduction. */
export const histogramSpan = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: { xs: accessor(vec4u, 'read'), n: u32, bins: reduction(span(u32, 16), plus) },
  },
  (item, _kh, { xs, n, bins }) => {
    const stride = item.getGlobalRange(0);
    for (let i = item.getGlobalId(0); i < n; i += stride) {
      const p = xs[i]!;
      bins[p.x & 15]!.combine(1);
      bins[p.y & 15]!.combine(1);
      bins[p.z & 15]!.combine(1);
      bins[p.w & 15]!.combine(1);
    }
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

/**
 * Each sub-group's first item writes the sum of its sub-group's elements at its own index (the
 * hand-written baseline: bench/src/gpu/collectives/group.ts, scope `sub-group`).
 */
export const subGroupSum = kernel(
  {
    ndRange: 2,
    workgroupSize: [1, 256],
    args: { src: accessor(f32, 'read'), dst: accessor(f32, 'write'), n: u32 },
  },
  (item, _kh, { src, dst, n }) => {
    const sg = item.getSubGroup();
    const i = item.getGlobalLinearId();
    const x = i < n ? src[Math.min(i, n - 1)]! : 0;
    const total = reduceOverGroup(sg, x, plus);
    if (sg.leader() && i < n) {
      dst[i] = total;
    }
  },
);

/** Each item writes the exclusive prefix sum of its sub-group's elements before it. */
export const subGroupScan = kernel(
  {
    ndRange: 2,
    workgroupSize: [1, 256],
    args: { src: accessor(u32, 'read'), dst: accessor(u32, 'write'), n: u32 },
  },
  (item, _kh, { src, dst, n }) => {
    const sg = item.getSubGroup();
    const i = item.getGlobalLinearId();
    const x = i < n ? src[Math.min(i, n - 1)]! : 0;
    const s = exclusiveScanOverGroup(sg, x, plus);
    if (i < n) {
      dst[i] = s;
    }
  },
);
