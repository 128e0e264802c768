/**
 * CP015's blocked matrix multiply, C = A * B for square row-major f32 matrices.
 *
 * Host-facing contract (what src/multiply.ts relies on; keep it when tuning the kernels):
 * - `blockSize` (u32 specialization constant): the edge of a square block. The host picks it from
 *   the device's limits at run time (`chooseBlockSize` in src/block-size.ts) and sets it with
 *   `cgh.setSpecializationConstant(blockSize, bs)`.
 * - `matmul`: nd-range 2D, workgroup `[blockSize, blockSize]`, two `blockSize * blockSize` tiles in
 *   workgroup memory. Launch: `ndRange([n, n], [bs, bs])`, `n` a multiple of `bs`; SYCL
 *   dimension 0 is the row of C, dimension 1 the column. Because the constant sizes the workgroup
 *   and the tiles, this kernel exists on the native path only (WGSL `override`s).
 * - `matmulFixedBlock`: the same algorithm with the workgroup and the tiles fixed at
 *   `FIXED_BLOCK` (a literal), the loops still reading `blockSize`, which must be set to
 *   `FIXED_BLOCK`. It runs natively or emulated (the constant read from a buffer), which is what
 *   the example compares. Launch: `ndRange([n, n], [FIXED_BLOCK, FIXED_BLOCK])`.
 * - Arguments of both: `a`, `b` (read, n * n elements), `c` (write, n * n elements), `n`.
 */
import { accessor, f32, kernel, specializationId, u32, workgroupArray } from '@syclts/dsl';

export const blockSize = specializationId(u32, 16);

/** The block edge of `matmulFixedBlock`, where a specialization constant may not size memory. */
export const FIXED_BLOCK = 16;

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
    const localRow = item.getLocalId(0);
    const localCol = item.getLocalId(1);
    let sum = f32(0);
    // Walk the blocks of A's row band and B's column band together.
    for (let block = u32(0); block < n / bs; block++) {
      // Each work item loads one element of each tile, then the group waits for the whole tile.
      tileA[localRow * bs + localCol] = a[row * n + block * bs + localCol]!;
      tileB[localRow * bs + localCol] = b[(block * bs + localRow) * n + col]!;
      item.barrier();
      for (let k = u32(0); k < bs; k++) {
        sum += tileA[localRow * bs + k]! * tileB[k * bs + localCol]!;
      }
      // No one overwrites the tiles while others still read them.
      item.barrier();
    }
    c[row * n + col] = sum;
  },
);

export const matmulFixedBlock = kernel(
  {
    ndRange: 2,
    workgroupSize: [FIXED_BLOCK, FIXED_BLOCK],
    args: { a: accessor(f32, 'read'), b: accessor(f32, 'read'), c: accessor(f32, 'write'), n: u32 },
    local: {
      tileA: workgroupArray(f32, FIXED_BLOCK, FIXED_BLOCK),
      tileB: workgroupArray(f32, FIXED_BLOCK, FIXED_BLOCK),
    },
  },
  (item, kh, { a, b, c, n }, { tileA, tileB }) => {
    const bs = kh.getSpecializationConstant(blockSize);
    const row = item.getGlobalId(0);
    const col = item.getGlobalId(1);
    const localRow = item.getLocalId(0);
    const localCol = item.getLocalId(1);
    let sum = f32(0);
    for (let block = u32(0); block < n / bs; block++) {
      tileA[localRow * bs + localCol] = a[row * n + block * bs + localCol]!;
      tileB[localRow * bs + localCol] = b[(block * bs + localRow) * n + col]!;
      item.barrier();
      for (let k = u32(0); k < bs; k++) {
        sum += tileA[localRow * bs + k]! * tileB[k * bs + localCol]!;
      }
      item.barrier();
    }
    c[row * n + col] = sum;
  },
);
