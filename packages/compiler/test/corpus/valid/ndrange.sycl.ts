import {
  accessor,
  atomic,
  atomicAdd,
  f32,
  kernel,
  specializationId,
  u32,
  workgroupArray,
} from '@syclts/dsl';

/** nd-item queries in two dimensions. */
export const ndQueries = kernel(
  { ndRange: 2, workgroupSize: [2, 4], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => {
    const g = item.getGlobalLinearId();
    const base = g * 6;
    out[base] = item.getGlobalId(0) * 100 + item.getGlobalId(1);
    out[base + 1] = item.getLocalId(0) * 100 + item.getLocalId(1);
    out[base + 2] = item.getGroup(0) * 100 + item.getGroup(1);
    out[base + 3] = item.getLocalRange(0) * 100 + item.getLocalRange(1);
    out[base + 4] = item.getGroupRange(0) * 100 + item.getGroupRange(1);
    out[base + 5] =
      item.getLocalLinearId() + item.getGlobalRange(0) * 1000 + item.getGlobalRange(1) * 100000;
  },
);

/** A workgroup tree reduction through workgroup memory and barriers. */
export const reduce = kernel(
  {
    ndRange: 1,
    workgroupSize: [64],
    args: { x: accessor(f32, 'read'), sums: accessor(f32, 'write') },
    local: { scratch: workgroupArray(f32, 64), hits: workgroupArray(atomic(u32), 1) },
  },
  (item, _kh, { x, sums }, { scratch, hits }) => {
    const lid = item.getLocalId(0);
    scratch[lid] = x[item.getGlobalId(0)]!;
    atomicAdd(hits[0]!, 1);
    item.barrier();
    for (let stride = u32(32); stride > 0; stride = stride / 2) {
      if (lid < stride) {
        scratch[lid] += scratch[lid + stride]!;
      }
      item.barrier('local');
    }
    if (lid === 0) {
      sums[item.getGroup(0)] = scratch[0]! + f32(atomicAdd(hits[0]!, 0)) * 1000;
    }
  },
);

/** CP015's blocked matrix multiply: the block size sizes the workgroup and the tiles. */
export const blockSize = specializationId(u32, 4);

export const matmul = kernel(
  {
    ndRange: 2,
    workgroupSize: [blockSize, blockSize],
    args: { a: accessor(f32, 'read'), b: accessor(f32, 'read'), c: accessor(f32, 'write'), n: u32 },
    local: {
      tileA: workgroupArray(f32, blockSize, blockSize),
      tileB: workgroupArray(f32, blockSize, blockSize),
    },
  },
  (item, kh, { a, b, c, n }, { tileA, tileB }) => {
    const bs = kh.getSpecializationConstant(blockSize);
    const row = item.getGlobalId(0);
    const col = item.getGlobalId(1);
    const lr = item.getLocalId(0);
    const lc = item.getLocalId(1);
    let acc = f32(0);
    for (let t = u32(0); t < n / bs; t++) {
      tileA[lr * bs + lc] = a[row * n + t * bs + lc]!;
      tileB[lr * bs + lc] = b[(t * bs + lr) * n + col]!;
      item.barrier();
      for (let k = u32(0); k < bs; k++) {
        acc += tileA[lr * bs + k]! * tileB[k * bs + lc]!;
      }
      item.barrier();
    }
    c[row * n + col] = acc;
  },
);
