import {
  accessor,
  array,
  f16,
  f32,
  jointMatrix,
  jointMatrixFill,
  jointMatrixLoad,
  jointMatrixMad,
  jointMatrixStore,
  kernel,
  specializationId,
  u32,
  unpack2x16float,
  unroll,
  vec4u,
  workgroupArray,
} from '@syclts/dsl';

/**
 * examples/tensor-cores's matrix multiply in its default tiling (C = A x B, n x n f16 into f32, a 128 x 256 tile per
 * work-group of 8 sub-groups, each 64 x 64 as 4 x 4 accumulators, k 32 at a time through
 * workgroup memory) laid out for WebGPU's bounds checks: workgroup memory is one region per
 * sub-group row of A (64 rows) and per sub-group column of B (64 columns, padded by 8 halves),
 * and the k step is unrolled, so every matrix load reads its sub-group's region at a constant
 * offset and the check Dawn puts around each load is decided when the pipeline is compiled. With
 * the checks on (every browser) this is the faster of the two; without them, the example's.
 * The algorithm of bench/gpu/matmul-f16-wgsl.mjs with `{ BM: 128, BN: 256, BK: 32, WM: 64,
 * WN: 64, stages: 1, unpack: true, regions: true }`. Range: [n / 128, n] in work-groups of
 * [1, 256]; n a multiple of 256.
 */
const BM = 128;
const BN = 256;
const BK = 32;
const W = 64; // rows of A, columns of B per sub-group
const A_STRIDE = BK + 8;
const B_STRIDE = W + 8;
const ITEMS = 256;

/** Matrix size. */
export const tensorRegionsSize = specializationId(u32, 4096);

export const tensorMatmulRegions = kernel(
  {
    ndRange: 2,
    workgroupSize: [1, ITEMS],
    requiredLimits: { maxComputeWorkgroupStorageSize: 28672 },
    args: { a: accessor(vec4u, 'read'), b: accessor(vec4u, 'read'), c: accessor(f32, 'write') },
    local: {
      tileA: workgroupArray(array(f16, W * A_STRIDE), BM / W),
      tileB: workgroupArray(array(f16, BK * B_STRIDE), BN / W),
    },
  },
  (item, kh, { a, b, c }, { tileA, tileB }) => {
    const n = kh.getSpecializationConstant(tensorRegionsSize);
    const sg = item.getSubGroup();
    const row0 = item.getGroup(0) * BM;
    const col0 = item.getGroup(1) * BN;
    const lid = item.getLocalLinearId();
    // This sub-group's 64 x 64 block of the tile: two rows of four.
    const wr = sg.getGroupId() / 4;
    const wc = sg.getGroupId() % 4;
    // This item's share of the next step's tiles: 2 of A's 512 vec4u, 4 of B's 1024.
    const ra = [vec4u(0), vec4u(0)];
    const rb = [vec4u(0), vec4u(0), vec4u(0), vec4u(0)];
    const a0 = jointMatrix(sg, 'a', f16, 16, 16);
    const a1 = jointMatrix(sg, 'a', f16, 16, 16);
    const a2 = jointMatrix(sg, 'a', f16, 16, 16);
    const a3 = jointMatrix(sg, 'a', f16, 16, 16);
    const b0 = jointMatrix(sg, 'b', f16, 16, 16);
    const b1 = jointMatrix(sg, 'b', f16, 16, 16);
    const b2 = jointMatrix(sg, 'b', f16, 16, 16);
    const b3 = jointMatrix(sg, 'b', f16, 16, 16);
    const c00 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c01 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c02 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c03 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c10 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c11 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c12 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c13 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c20 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c21 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c22 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c23 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c30 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c31 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c32 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    const c33 = jointMatrix(sg, 'accumulator', f32, 16, 16);
    jointMatrixFill(sg, c00, 0);
    jointMatrixFill(sg, c01, 0);
    jointMatrixFill(sg, c02, 0);
    jointMatrixFill(sg, c03, 0);
    jointMatrixFill(sg, c10, 0);
    jointMatrixFill(sg, c11, 0);
    jointMatrixFill(sg, c12, 0);
    jointMatrixFill(sg, c13, 0);
    jointMatrixFill(sg, c20, 0);
    jointMatrixFill(sg, c21, 0);
    jointMatrixFill(sg, c22, 0);
    jointMatrixFill(sg, c23, 0);
    jointMatrixFill(sg, c30, 0);
    jointMatrixFill(sg, c31, 0);
    jointMatrixFill(sg, c32, 0);
    jointMatrixFill(sg, c33, 0);
    for (let k0 = u32(0); k0 < n; k0 += BK) {
      // Step 0 fetches its own tiles; every step fetches the next one's before multiplying.
      if (k0 === 0) {
        for (const r of unroll(2)) {
          const e = lid + r * ITEMS;
          ra[r] = a[((row0 + e / 4) * n) / 8 + (e % 4)]!;
        }
        for (const r of unroll(4)) {
          const e = lid + r * ITEMS;
          rb[r] = b[((e / 32) * n + col0) / 8 + (e % 32)]!;
        }
      }
      for (const r of unroll(2)) {
        const e = lid + r * ITEMS;
        const row = e / 4;
        const at = (row % W) * A_STRIDE + (e % 4) * 8;
        for (const h of unroll(4)) {
          const pair = unpack2x16float(ra[r]![h]!);
          tileA[row / W]![at + 2 * h] = f16(pair.x);
          tileA[row / W]![at + 2 * h + 1] = f16(pair.y);
        }
      }
      for (const r of unroll(4)) {
        const e = lid + r * ITEMS;
        const col = (e % 32) * 8;
        const at = (e / 32) * B_STRIDE + (col % W);
        for (const h of unroll(4)) {
          const pair = unpack2x16float(rb[r]![h]!);
          tileB[col / W]![at + 2 * h] = f16(pair.x);
          tileB[col / W]![at + 2 * h + 1] = f16(pair.y);
        }
      }
      item.barrier();
      if (k0 + BK < n) {
        for (const r of unroll(2)) {
          const e = lid + r * ITEMS;
          ra[r] = a[((row0 + e / 4) * n + k0 + BK) / 8 + (e % 4)]!;
        }
        for (const r of unroll(4)) {
          const e = lid + r * ITEMS;
          rb[r] = b[((k0 + BK + e / 32) * n + col0) / 8 + (e % 32)]!;
        }
      }
      for (const kk of unroll(0, BK, 16)) {
        jointMatrixLoad(sg, a0, tileA[wr]!, 0 * A_STRIDE + kk, A_STRIDE);
        jointMatrixLoad(sg, a1, tileA[wr]!, 16 * A_STRIDE + kk, A_STRIDE);
        jointMatrixLoad(sg, a2, tileA[wr]!, 32 * A_STRIDE + kk, A_STRIDE);
        jointMatrixLoad(sg, a3, tileA[wr]!, 48 * A_STRIDE + kk, A_STRIDE);
        jointMatrixLoad(sg, b0, tileB[wc]!, kk * B_STRIDE + 0, B_STRIDE);
        jointMatrixLoad(sg, b1, tileB[wc]!, kk * B_STRIDE + 16, B_STRIDE);
        jointMatrixLoad(sg, b2, tileB[wc]!, kk * B_STRIDE + 32, B_STRIDE);
        jointMatrixLoad(sg, b3, tileB[wc]!, kk * B_STRIDE + 48, B_STRIDE);
        jointMatrixMad(sg, c00, a0, b0, c00);
        jointMatrixMad(sg, c01, a0, b1, c01);
        jointMatrixMad(sg, c02, a0, b2, c02);
        jointMatrixMad(sg, c03, a0, b3, c03);
        jointMatrixMad(sg, c10, a1, b0, c10);
        jointMatrixMad(sg, c11, a1, b1, c11);
        jointMatrixMad(sg, c12, a1, b2, c12);
        jointMatrixMad(sg, c13, a1, b3, c13);
        jointMatrixMad(sg, c20, a2, b0, c20);
        jointMatrixMad(sg, c21, a2, b1, c21);
        jointMatrixMad(sg, c22, a2, b2, c22);
        jointMatrixMad(sg, c23, a2, b3, c23);
        jointMatrixMad(sg, c30, a3, b0, c30);
        jointMatrixMad(sg, c31, a3, b1, c31);
        jointMatrixMad(sg, c32, a3, b2, c32);
        jointMatrixMad(sg, c33, a3, b3, c33);
      }
      item.barrier();
    }
    const r0 = row0 + wr * W;
    const c0 = col0 + wc * W;
    jointMatrixStore(sg, c00, c, (r0 + 0) * n + c0 + 0, n, 'rowMajor');
    jointMatrixStore(sg, c01, c, (r0 + 0) * n + c0 + 16, n, 'rowMajor');
    jointMatrixStore(sg, c02, c, (r0 + 0) * n + c0 + 32, n, 'rowMajor');
    jointMatrixStore(sg, c03, c, (r0 + 0) * n + c0 + 48, n, 'rowMajor');
    jointMatrixStore(sg, c10, c, (r0 + 16) * n + c0 + 0, n, 'rowMajor');
    jointMatrixStore(sg, c11, c, (r0 + 16) * n + c0 + 16, n, 'rowMajor');
    jointMatrixStore(sg, c12, c, (r0 + 16) * n + c0 + 32, n, 'rowMajor');
    jointMatrixStore(sg, c13, c, (r0 + 16) * n + c0 + 48, n, 'rowMajor');
    jointMatrixStore(sg, c20, c, (r0 + 32) * n + c0 + 0, n, 'rowMajor');
    jointMatrixStore(sg, c21, c, (r0 + 32) * n + c0 + 16, n, 'rowMajor');
    jointMatrixStore(sg, c22, c, (r0 + 32) * n + c0 + 32, n, 'rowMajor');
    jointMatrixStore(sg, c23, c, (r0 + 32) * n + c0 + 48, n, 'rowMajor');
    jointMatrixStore(sg, c30, c, (r0 + 48) * n + c0 + 0, n, 'rowMajor');
    jointMatrixStore(sg, c31, c, (r0 + 48) * n + c0 + 16, n, 'rowMajor');
    jointMatrixStore(sg, c32, c, (r0 + 48) * n + c0 + 32, n, 'rowMajor');
    jointMatrixStore(sg, c33, c, (r0 + 48) * n + c0 + 48, n, 'rowMajor');
  },
);
