import { accessor, fma, kernel, specializationId, u32, vec4f, workgroupArray } from '@syclts/dsl';

/**
 * C = A x B for n x n f32 matrices, row-major, n a multiple of 128, read and written as vec4f.
 * Register-tiled: a workgroup of 16 x 16 invocations computes a 128 x 128 tile of C, each
 * invocation an 8 x 8 block (rows ty*4 + {0..3} and (ty + 16)*4 + {0..3}, columns likewise),
 * walking k in steps of `tileK` through workgroup memory. A's tile is stored transposed
 * (k-major), so the inner loop reads both operands as vec4f.
 *
 * `matmul` takes the size and the k step as specialization constants; `matmulArgs` is the same
 * body with both as kernel arguments (the uniform-buffer case). Range: [n / 8, n / 8] in
 * workgroups of [16, 16].
 */
const BM = 128;
const BN = 128;
const WY = 16; // invocations along rows (SYCL dimension 0)
const WX = 16; // invocations along columns (SYCL dimension 1)
const MAX_K = 16; // the workgroup tiles hold this many steps of k

/** Matrix size. */
export const size = specializationId(u32, 4096);
/** Steps of k per tile: 8 or 16. */
export const tileK = specializationId(u32, 16);

export const matmul = kernel(
  {
    ndRange: 2,
    workgroupSize: [WY, WX],
    args: {
      a: accessor(vec4f, 'read'),
      b: accessor(vec4f, 'read'),
      c: accessor(vec4f, 'write'),
    },
    local: {
      tileA: workgroupArray(vec4f, (MAX_K * BM) / 4),
      tileB: workgroupArray(vec4f, (MAX_K * BN) / 4),
    },
  },
  (item, kh, { a, b, c }, { tileA, tileB }) => {
    const n = kh.getSpecializationConstant(size);
    const bk = kh.getSpecializationConstant(tileK);
    const n4 = n / 4;
    const ty = item.getLocalId(0);
    const tx = item.getLocalId(1);
    const tid = item.getLocalLinearId();
    const row0 = item.getGroup(0) * BM;
    const col04 = (item.getGroup(1) * BN) / 4;
    const loads = (bk * BM) / 4 / (WX * WY); // vec4f loads per invocation, for A and for B
    const acc = [
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
    ];
    for (let k0 = u32(0); k0 < n; k0 += bk) {
      for (let l = u32(0); l < loads; l++) {
        const e = tid + l * WX * WY;
        const m = e / (bk / 4);
        const kq = e % (bk / 4);
        const v = a[(row0 + m) * n4 + k0 / 4 + kq]!;
        for (let q = u32(0); q < 4; q++) {
          tileA[(kq * 4 + q) * (BM / 4) + m / 4]![m % 4] = v[q]!;
        }
      }
      for (let l = u32(0); l < loads; l++) {
        const e = tid + l * WX * WY;
        tileB[e] = b[(k0 + e / (BN / 4)) * n4 + col04 + (e % (BN / 4))]!;
      }
      item.barrier();
      for (let k = u32(0); k < bk; k++) {
        const a0 = tileA[k * (BM / 4) + ty]!;
        const a1 = tileA[k * (BM / 4) + ty + WY]!;
        const b0 = tileB[k * (BN / 4) + tx]!;
        const b1 = tileB[k * (BN / 4) + tx + WX]!;
        for (let i = u32(0); i < 4; i++) {
          acc[i * 2] = fma(vec4f(a0[i]!), b0, acc[i * 2]!);
          acc[i * 2 + 1] = fma(vec4f(a0[i]!), b1, acc[i * 2 + 1]!);
          acc[8 + i * 2] = fma(vec4f(a1[i]!), b0, acc[8 + i * 2]!);
          acc[9 + i * 2] = fma(vec4f(a1[i]!), b1, acc[9 + i * 2]!);
        }
      }
      item.barrier();
    }
    for (let i = u32(0); i < 4; i++) {
      const top = (row0 + ty * 4 + i) * n4 + col04 + tx;
      const bottom = (row0 + (ty + WY) * 4 + i) * n4 + col04 + tx;
      c[top] = acc[i * 2]!;
      c[top + WX] = acc[i * 2 + 1]!;
      c[bottom] = acc[8 + i * 2]!;
      c[bottom + WX] = acc[9 + i * 2]!;
    }
  },
);

export const matmulArgs = kernel(
  {
    ndRange: 2,
    workgroupSize: [WY, WX],
    args: {
      a: accessor(vec4f, 'read'),
      b: accessor(vec4f, 'read'),
      c: accessor(vec4f, 'write'),
      n: u32,
      bk: u32,
    },
    local: {
      tileA: workgroupArray(vec4f, (MAX_K * BM) / 4),
      tileB: workgroupArray(vec4f, (MAX_K * BN) / 4),
    },
  },
  (item, _kh, { a, b, c, n, bk }, { tileA, tileB }) => {
    const n4 = n / 4;
    const ty = item.getLocalId(0);
    const tx = item.getLocalId(1);
    const tid = item.getLocalLinearId();
    const row0 = item.getGroup(0) * BM;
    const col04 = (item.getGroup(1) * BN) / 4;
    const loads = (bk * BM) / 4 / (WX * WY); // vec4f loads per invocation, for A and for B
    const acc = [
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
      vec4f(0),
    ];
    for (let k0 = u32(0); k0 < n; k0 += bk) {
      for (let l = u32(0); l < loads; l++) {
        const e = tid + l * WX * WY;
        const m = e / (bk / 4);
        const kq = e % (bk / 4);
        const v = a[(row0 + m) * n4 + k0 / 4 + kq]!;
        for (let q = u32(0); q < 4; q++) {
          tileA[(kq * 4 + q) * (BM / 4) + m / 4]![m % 4] = v[q]!;
        }
      }
      for (let l = u32(0); l < loads; l++) {
        const e = tid + l * WX * WY;
        tileB[e] = b[(k0 + e / (BN / 4)) * n4 + col04 + (e % (BN / 4))]!;
      }
      item.barrier();
      for (let k = u32(0); k < bk; k++) {
        const a0 = tileA[k * (BM / 4) + ty]!;
        const a1 = tileA[k * (BM / 4) + ty + WY]!;
        const b0 = tileB[k * (BN / 4) + tx]!;
        const b1 = tileB[k * (BN / 4) + tx + WX]!;
        for (let i = u32(0); i < 4; i++) {
          acc[i * 2] = fma(vec4f(a0[i]!), b0, acc[i * 2]!);
          acc[i * 2 + 1] = fma(vec4f(a0[i]!), b1, acc[i * 2 + 1]!);
          acc[8 + i * 2] = fma(vec4f(a1[i]!), b0, acc[8 + i * 2]!);
          acc[9 + i * 2] = fma(vec4f(a1[i]!), b1, acc[9 + i * 2]!);
        }
      }
      item.barrier();
    }
    for (let i = u32(0); i < 4; i++) {
      const top = (row0 + ty * 4 + i) * n4 + col04 + tx;
      const bottom = (row0 + (ty + WY) * 4 + i) * n4 + col04 + tx;
      c[top] = acc[i * 2]!;
      c[top + WX] = acc[i * 2 + 1]!;
      c[bottom] = acc[8 + i * 2]!;
      c[bottom + WX] = acc[9 + i * 2]!;
    }
  },
);
