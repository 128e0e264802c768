import {
  accessor,
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
  vec4u,
  workgroupArray,
} from '@syclts/dsl';

/**
 * C = A x B for n x n row-major matrices of f16 into f32, on joint matrices (the device's tensor
 * cores where it offers WGSL subgroup matrices of f16 -> f32 16 x 16 x 16). A work-group of 8
 * sub-groups of 32 computes a 128 x 256 tile of C, each sub-group a 64 x 64 block of it as
 * 4 x 4 accumulators; k advances 32 at a time through workgroup memory, rows padded by 8 halves
 * so that the matrix loads spread over the banks. A and B are read as `vec4u` (eight halves), the
 * next step's share of each item held in registers while this step multiplies, then written to
 * workgroup memory a half at a time. The algorithm of bench/gpu/matmul-f16-wgsl.mjs with
 * `{ BM: 128, BN: 256, BK: 32, WM: 64, WN: 64, stages: 1, unpack: true }`. Range: [n / 128, n]
 * in work-groups of [1, 256]; n a multiple of 256.
 */
const BM = 128;
const BN = 256;
const BK = 32;
const A_STRIDE = BK + 8;
const B_STRIDE = BN + 8;
const ITEMS = 256;

/** Matrix size. */
export const tensorSize = specializationId(u32, 4096);

export const tensorMatmul = kernel(
  {
    ndRange: 2,
    workgroupSize: [1, ITEMS],
    requiredLimits: { maxComputeWorkgroupStorageSize: 27136 },
    args: { a: accessor(vec4u, 'read'), b: accessor(vec4u, 'read'), c: accessor(f32, 'write') },
    local: {
      tileA: workgroupArray(f16, BM * A_STRIDE),
      tileB: workgroupArray(f16, BK * B_STRIDE),
    },
  },
  (item, kh, { a, b, c }, { tileA, tileB }) => {
    const n = kh.getSpecializationConstant(tensorSize);
    const sg = item.getSubGroup();
    const row0 = item.getGroup(0) * BM;
    const col0 = item.getGroup(1) * BN;
    const lid = item.getLocalLinearId();
    // This sub-group's 64 x 64 block of the tile: two rows of four.
    const wr = (sg.getGroupId() / 4) * 64;
    const wc = (sg.getGroupId() % 4) * 64;
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
        for (let r = u32(0); r < 2; r++) {
          const e = lid + r * ITEMS;
          ra[r] = a[((row0 + e / 4) * n + 0) / 8 + (e % 4)]!;
        }
        for (let r = u32(0); r < 4; r++) {
          const e = lid + r * ITEMS;
          rb[r] = b[((0 + e / 32) * n + col0) / 8 + (e % 32)]!;
        }
      }
      for (let r = u32(0); r < 2; r++) {
        const e = lid + r * ITEMS;
        const at = (e / 4) * A_STRIDE + (e % 4) * 8;
        for (let h = u32(0); h < 4; h++) {
          const pair = unpack2x16float(ra[r]![h]!);
          tileA[at + 2 * h] = f16(pair.x);
          tileA[at + 2 * h + 1] = f16(pair.y);
        }
      }
      for (let r = u32(0); r < 4; r++) {
        const e = lid + r * ITEMS;
        const at = (e / 32) * B_STRIDE + (e % 32) * 8;
        for (let h = u32(0); h < 4; h++) {
          const pair = unpack2x16float(rb[r]![h]!);
          tileB[at + 2 * h] = f16(pair.x);
          tileB[at + 2 * h + 1] = f16(pair.y);
        }
      }
      item.barrier();
      if (k0 + BK < n) {
        for (let r = u32(0); r < 2; r++) {
          const e = lid + r * ITEMS;
          ra[r] = a[((row0 + e / 4) * n + k0 + BK) / 8 + (e % 4)]!;
        }
        for (let r = u32(0); r < 4; r++) {
          const e = lid + r * ITEMS;
          rb[r] = b[((k0 + BK + e / 32) * n + col0) / 8 + (e % 32)]!;
        }
      }
      for (let kk = u32(0); kk < BK; kk += 16) {
        jointMatrixLoad(sg, a0, tileA, (wr + 0) * A_STRIDE + kk, A_STRIDE);
        jointMatrixLoad(sg, a1, tileA, (wr + 16) * A_STRIDE + kk, A_STRIDE);
        jointMatrixLoad(sg, a2, tileA, (wr + 32) * A_STRIDE + kk, A_STRIDE);
        jointMatrixLoad(sg, a3, tileA, (wr + 48) * A_STRIDE + kk, A_STRIDE);
        jointMatrixLoad(sg, b0, tileB, kk * B_STRIDE + wc + 0, B_STRIDE);
        jointMatrixLoad(sg, b1, tileB, kk * B_STRIDE + wc + 16, B_STRIDE);
        jointMatrixLoad(sg, b2, tileB, kk * B_STRIDE + wc + 32, B_STRIDE);
        jointMatrixLoad(sg, b3, tileB, kk * B_STRIDE + wc + 48, B_STRIDE);
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
    jointMatrixStore(sg, c00, c, (row0 + wr + 0) * n + col0 + wc + 0, n, 'rowMajor');
    jointMatrixStore(sg, c01, c, (row0 + wr + 0) * n + col0 + wc + 16, n, 'rowMajor');
    jointMatrixStore(sg, c02, c, (row0 + wr + 0) * n + col0 + wc + 32, n, 'rowMajor');
    jointMatrixStore(sg, c03, c, (row0 + wr + 0) * n + col0 + wc + 48, n, 'rowMajor');
    jointMatrixStore(sg, c10, c, (row0 + wr + 16) * n + col0 + wc + 0, n, 'rowMajor');
    jointMatrixStore(sg, c11, c, (row0 + wr + 16) * n + col0 + wc + 16, n, 'rowMajor');
    jointMatrixStore(sg, c12, c, (row0 + wr + 16) * n + col0 + wc + 32, n, 'rowMajor');
    jointMatrixStore(sg, c13, c, (row0 + wr + 16) * n + col0 + wc + 48, n, 'rowMajor');
    jointMatrixStore(sg, c20, c, (row0 + wr + 32) * n + col0 + wc + 0, n, 'rowMajor');
    jointMatrixStore(sg, c21, c, (row0 + wr + 32) * n + col0 + wc + 16, n, 'rowMajor');
    jointMatrixStore(sg, c22, c, (row0 + wr + 32) * n + col0 + wc + 32, n, 'rowMajor');
    jointMatrixStore(sg, c23, c, (row0 + wr + 32) * n + col0 + wc + 48, n, 'rowMajor');
    jointMatrixStore(sg, c30, c, (row0 + wr + 48) * n + col0 + wc + 0, n, 'rowMajor');
    jointMatrixStore(sg, c31, c, (row0 + wr + 48) * n + col0 + wc + 16, n, 'rowMajor');
    jointMatrixStore(sg, c32, c, (row0 + wr + 48) * n + col0 + wc + 32, n, 'rowMajor');
    jointMatrixStore(sg, c33, c, (row0 + wr + 48) * n + col0 + wc + 48, n, 'rowMajor');
  },
);
