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
  unroll,
  vec4u,
  workgroupArray,
} from '@syclts/dsl';

/**
 * C = A x B for n x n row-major matrices of f16 into f32, on joint matrices: the device's tensor
 * cores where it offers WGSL subgroup matrices of f16 -> f32 16 x 16 x 16, plain WGSL elsewhere.
 *
 * A work-group of `tileRows` x `tileCols` sub-groups of 32 items computes a (64 tileRows) x
 * (64 tileCols) tile of C, each sub-group a 64 x 64 block of it as 4 x 4 accumulators. k
 * advances `tileK` at a time through workgroup memory (one buffer for A's rows, one for B's,
 * rows padded by 8 halves so that the matrix loads spread over the banks). A and B are read as
 * `vec4u` (eight halves each); every item holds its share of the next step's tiles in registers
 * while this step multiplies (double buffering through registers), then writes it to workgroup
 * memory a half at a time.
 *
 * The tile sizes are specialization constants, so one build runs every tiling (a pipeline for
 * each; the defaults are the smallest tiling, 64 x 128 x 16, whose 7,424 bytes of workgroup memory
 * every device has, and the runtime checks the memory of the others against the device); `tiling()` in tiling.ts sets them together with the derived ones (`tileItems`,
 * `tileStrideA`, `tileStrideB`) that size the work-group and workgroup memory, and gives the
 * range: [n / (64 tileRows), (n / (64 tileCols)) tileItems] in work-groups of [1, tileItems].
 * Each item carries tileK / (4 tileCols) vec4u of A and tileK / (4 tileRows) of B, whole numbers
 * of at most MAX_LOADS; n is a multiple of both tile edges and of tileK.
 */

/** Matrix size n. */
export const matrixSize = specializationId(u32, 4096);
/** Sub-groups down a work-group's tile (64 rows of C each). */
export const tileRows = specializationId(u32, 1);
/** Sub-groups across a work-group's tile (64 columns of C each). */
export const tileCols = specializationId(u32, 2);
/** k per step through workgroup memory: a multiple of 16. */
export const tileK = specializationId(u32, 16);
/** Items per work-group: 32 tileRows tileCols. */
export const tileItems = specializationId(u32, 64);
/** Halves per row of A's tile in workgroup memory: tileK + 8. */
export const tileStrideA = specializationId(u32, 24);
/** Halves per row of B's tile in workgroup memory: 64 tileCols + 8. */
export const tileStrideB = specializationId(u32, 136);

/** The most `vec4u` of A and of B an item carries from one step to the next. */
export const MAX_LOADS = 4;

export const matmulF16 = kernel(
  {
    ndRange: 2,
    workgroupSize: [1, tileItems],
    args: { a: accessor(vec4u, 'read'), b: accessor(vec4u, 'read'), c: accessor(f32, 'write') },
    local: {
      tileA: workgroupArray(f16, 64, tileRows, tileStrideA),
      tileB: workgroupArray(f16, tileK, tileStrideB),
    },
  },
  (item, kh, { a, b, c }, { tileA, tileB }) => {
    const n = kh.getSpecializationConstant(matrixSize);
    const rows = kh.getSpecializationConstant(tileRows);
    const cols = kh.getSpecializationConstant(tileCols);
    const bk = kh.getSpecializationConstant(tileK);
    const items = kh.getSpecializationConstant(tileItems);
    const strideA = kh.getSpecializationConstant(tileStrideA);
    const strideB = kh.getSpecializationConstant(tileStrideB);
    const sg = item.getSubGroup();
    const row0 = item.getGroup(0) * 64 * rows;
    const col0 = item.getGroup(1) * 64 * cols;
    const lid = item.getLocalLinearId();
    // This sub-group's 64 x 64 block of the tile.
    const wr = (sg.getGroupId() / cols) * 64;
    const wc = (sg.getGroupId() % cols) * 64;
    // A's tile is 64 rows x bk halves, bk / 8 vec4u a row; B's bk rows x 8 cols vec4u.
    const aRow = bk / 8;
    const bRow = 8 * cols;
    const aLoads = bk / (4 * cols);
    const bLoads = bk / (4 * rows);
    const ra = [vec4u(0), vec4u(0), vec4u(0), vec4u(0)];
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
    for (let k0 = u32(0); k0 < n; k0 += bk) {
      // Step 0 fetches its own tiles; every step fetches the next one's before multiplying.
      if (k0 === 0) {
        for (const r of unroll(MAX_LOADS)) {
          if (r < aLoads) {
            const e = lid + r * items;
            ra[r] = a[((row0 + e / aRow) * n) / 8 + (e % aRow)]!;
          }
        }
        for (const r of unroll(MAX_LOADS)) {
          if (r < bLoads) {
            const e = lid + r * items;
            rb[r] = b[((e / bRow) * n + col0) / 8 + (e % bRow)]!;
          }
        }
      }
      for (const r of unroll(MAX_LOADS)) {
        if (r < aLoads) {
          const e = lid + r * items;
          const at = (e / aRow) * strideA + (e % aRow) * 8;
          for (const h of unroll(4)) {
            const pair = unpack2x16float(ra[r]![h]!);
            tileA[at + 2 * h] = f16(pair.x);
            tileA[at + 2 * h + 1] = f16(pair.y);
          }
        }
      }
      for (const r of unroll(MAX_LOADS)) {
        if (r < bLoads) {
          const e = lid + r * items;
          const at = (e / bRow) * strideB + (e % bRow) * 8;
          for (const h of unroll(4)) {
            const pair = unpack2x16float(rb[r]![h]!);
            tileB[at + 2 * h] = f16(pair.x);
            tileB[at + 2 * h + 1] = f16(pair.y);
          }
        }
      }
      item.barrier();
      if (k0 + bk < n) {
        for (const r of unroll(MAX_LOADS)) {
          if (r < aLoads) {
            const e = lid + r * items;
            ra[r] = a[((row0 + e / aRow) * n + k0 + bk) / 8 + (e % aRow)]!;
          }
        }
        for (const r of unroll(MAX_LOADS)) {
          if (r < bLoads) {
            const e = lid + r * items;
            rb[r] = b[((k0 + bk + e / bRow) * n + col0) / 8 + (e % bRow)]!;
          }
        }
      }
      for (let kk = u32(0); kk < bk; kk += 16) {
        jointMatrixLoad(sg, a0, tileA, (wr + 0) * strideA + kk, strideA);
        jointMatrixLoad(sg, a1, tileA, (wr + 16) * strideA + kk, strideA);
        jointMatrixLoad(sg, a2, tileA, (wr + 32) * strideA + kk, strideA);
        jointMatrixLoad(sg, a3, tileA, (wr + 48) * strideA + kk, strideA);
        jointMatrixLoad(sg, b0, tileB, kk * strideB + wc + 0, strideB);
        jointMatrixLoad(sg, b1, tileB, kk * strideB + wc + 16, strideB);
        jointMatrixLoad(sg, b2, tileB, kk * strideB + wc + 32, strideB);
        jointMatrixLoad(sg, b3, tileB, kk * strideB + wc + 48, strideB);
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
    const r0 = row0 + wr;
    const c0 = col0 + wc;
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
