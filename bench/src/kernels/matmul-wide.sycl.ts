import {
  accessor,
  fma,
  kernel,
  specializationId,
  u32,
  unroll,
  vec4f,
  workgroupArray,
} from '@syclts/dsl';

/**
 * C = A x B for n x n f32 matrices, row-major, n a multiple of 128, read and written as vec4f,
 * in the tiling the hand-written sweep found fastest at n = 4096 (bench/gpu/matmul-wgsl.mjs with
 * BM 64, BN 128, BK 16, TM 4, TN 8): a workgroup of 16 x 16 invocations computes a 64 x 128 tile
 * of C, each invocation rows ty*4 + {0..3} by columns tx*4 + {0..3} and (tx + 16)*4 + {0..3},
 * eight vec4f accumulators each a variable of its own, k in steps of 16 through workgroup
 * memory (A's tile stored transposed, so the inner loop reads both operands as vec4f).
 *
 * `matmulWide` takes the size as a specialization constant; `matmulWideArgs` the same body with
 * it as a kernel argument. Range: [n / 4, n / 8] in workgroups of [16, 16].
 */
const BM = 64;
const BN = 128;
const ITEMS = 256;
const BK = 16; // steps of k per tile

/** Matrix size. */
export const wideSize = specializationId(u32, 4096);

export const matmulWide = kernel(
  {
    ndRange: 2,
    workgroupSize: [16, 16],
    args: { a: accessor(vec4f, 'read'), b: accessor(vec4f, 'read'), c: accessor(vec4f, 'write') },
    local: {
      tileA: workgroupArray(vec4f, (BK * BM) / 4),
      tileB: workgroupArray(vec4f, (BK * BN) / 4),
    },
  },
  (item, kh, { a, b, c }, { tileA, tileB }) => {
    const n = kh.getSpecializationConstant(wideSize);
    const n4 = n / 4;
    const ty = item.getLocalId(0);
    const tx = item.getLocalId(1);
    const tid = item.getLocalLinearId();
    const row0 = item.getGroup(0) * BM;
    const col04 = (item.getGroup(1) * BN) / 4;
    let c0 = vec4f(0);
    let c1 = vec4f(0);
    let c2 = vec4f(0);
    let c3 = vec4f(0);
    let c4 = vec4f(0);
    let c5 = vec4f(0);
    let c6 = vec4f(0);
    let c7 = vec4f(0);
    for (let k0 = u32(0); k0 < n; k0 += BK) {
      // A's tile: one vec4f per item; B's: two.
      {
        const m = tid / (BK / 4);
        const kq = tid % (BK / 4);
        const v = a[(row0 + m) * n4 + k0 / 4 + kq]!;
        for (const q of unroll(4)) {
          tileA[(kq * 4 + q) * (BM / 4) + m / 4]![m % 4] = v[q]!;
        }
      }
      for (const l of unroll(2)) {
        const e = tid + l * ITEMS;
        tileB[e] = b[(k0 + e / (BN / 4)) * n4 + col04 + (e % (BN / 4))]!;
      }
      item.barrier();
      for (let k = u32(0); k < BK; k++) {
        const a0 = tileA[k * (BM / 4) + ty]!;
        const b0 = tileB[k * (BN / 4) + tx]!;
        const b1 = tileB[k * (BN / 4) + tx + 16]!;
        c0 = fma(vec4f(a0.x), b0, c0);
        c1 = fma(vec4f(a0.x), b1, c1);
        c2 = fma(vec4f(a0.y), b0, c2);
        c3 = fma(vec4f(a0.y), b1, c3);
        c4 = fma(vec4f(a0.z), b0, c4);
        c5 = fma(vec4f(a0.z), b1, c5);
        c6 = fma(vec4f(a0.w), b0, c6);
        c7 = fma(vec4f(a0.w), b1, c7);
      }
      item.barrier();
    }
    const row = (row0 + ty * 4) * n4 + col04 + tx;
    c[row] = c0;
    c[row + 16] = c1;
    c[row + n4] = c2;
    c[row + n4 + 16] = c3;
    c[row + 2 * n4] = c4;
    c[row + 2 * n4 + 16] = c5;
    c[row + 3 * n4] = c6;
    c[row + 3 * n4 + 16] = c7;
  },
);

export const matmulWideArgs = kernel(
  {
    ndRange: 2,
    workgroupSize: [16, 16],
    args: {
      a: accessor(vec4f, 'read'),
      b: accessor(vec4f, 'read'),
      c: accessor(vec4f, 'write'),
      n: u32,
    },
    local: {
      tileA: workgroupArray(vec4f, (BK * BM) / 4),
      tileB: workgroupArray(vec4f, (BK * BN) / 4),
    },
  },
  (item, _kh, { a, b, c, n }, { tileA, tileB }) => {
    const n4 = n / 4;
    const ty = item.getLocalId(0);
    const tx = item.getLocalId(1);
    const tid = item.getLocalLinearId();
    const row0 = item.getGroup(0) * BM;
    const col04 = (item.getGroup(1) * BN) / 4;
    let c0 = vec4f(0);
    let c1 = vec4f(0);
    let c2 = vec4f(0);
    let c3 = vec4f(0);
    let c4 = vec4f(0);
    let c5 = vec4f(0);
    let c6 = vec4f(0);
    let c7 = vec4f(0);
    for (let k0 = u32(0); k0 < n; k0 += BK) {
      // A's tile: one vec4f per item; B's: two.
      {
        const m = tid / (BK / 4);
        const kq = tid % (BK / 4);
        const v = a[(row0 + m) * n4 + k0 / 4 + kq]!;
        for (const q of unroll(4)) {
          tileA[(kq * 4 + q) * (BM / 4) + m / 4]![m % 4] = v[q]!;
        }
      }
      for (const l of unroll(2)) {
        const e = tid + l * ITEMS;
        tileB[e] = b[(k0 + e / (BN / 4)) * n4 + col04 + (e % (BN / 4))]!;
      }
      item.barrier();
      for (let k = u32(0); k < BK; k++) {
        const a0 = tileA[k * (BM / 4) + ty]!;
        const b0 = tileB[k * (BN / 4) + tx]!;
        const b1 = tileB[k * (BN / 4) + tx + 16]!;
        c0 = fma(vec4f(a0.x), b0, c0);
        c1 = fma(vec4f(a0.x), b1, c1);
        c2 = fma(vec4f(a0.y), b0, c2);
        c3 = fma(vec4f(a0.y), b1, c3);
        c4 = fma(vec4f(a0.z), b0, c4);
        c5 = fma(vec4f(a0.z), b1, c5);
        c6 = fma(vec4f(a0.w), b0, c6);
        c7 = fma(vec4f(a0.w), b1, c7);
      }
      item.barrier();
    }
    const row = (row0 + ty * 4) * n4 + col04 + tx;
    c[row] = c0;
    c[row + 16] = c1;
    c[row + n4] = c2;
    c[row + n4 + 16] = c3;
    c[row + 2 * n4] = c4;
    c[row + 2 * n4 + 16] = c5;
    c[row + 3 * n4] = c6;
    c[row + 3 * n4 + 16] = c7;
  },
);
