/**
 * Device-wide reduction in two launches of one kernel: a fixed grid of work-groups reads the
 * input in a grid-stride loop (four loads in flight per item) and each writes its combined part;
 * then one work-group combines the parts after `init`. No atomics: the parts are combined in
 * the same order every run, so an f32 sum is the same from run to run.
 */
import { accessor, kernel, u32, workgroupArray } from '@syclts/dsl';
import { combine } from './operation.sycl.ts';

export const reduceParts = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: {
      src: accessor(u32, 'read'),
      parts: accessor(u32, 'write'),
      n: u32,
      init: u32,
      id: u32,
    },
    local: { tree: workgroupArray(u32, 256) },
  },
  (item, kh, { src, parts, n, init, id }, { tree }) => {
    const l = item.getLocalId(0);
    const stride = item.getGlobalRange(0);
    let a = id;
    let b = id;
    let c = id;
    let d = id;
    let i = item.getGlobalId(0);
    for (; i + 3 * stride < n; i += 4 * stride) {
      a = combine(kh, a, src[i]!);
      b = combine(kh, b, src[i + stride]!);
      c = combine(kh, c, src[i + 2 * stride]!);
      d = combine(kh, d, src[i + 3 * stride]!);
    }
    for (; i < n; i += stride) {
      a = combine(kh, a, src[i]!);
    }
    tree[l] = combine(kh, combine(kh, a, b), combine(kh, c, d));
    for (let s = u32(128); s > 0; s = s >> 1) {
      item.barrier();
      if (l < s) {
        tree[l] = combine(kh, tree[l]!, tree[l + s]!);
      }
    }
    if (l === 0) {
      parts[item.getGroup(0)] = combine(kh, init, tree[0]!);
    }
  },
);
