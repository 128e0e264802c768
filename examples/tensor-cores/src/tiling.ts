/** The tile sizes of matmul.sycl.ts: which fit a device and a matrix size, and their constants. */
import { type Handler, type NdRange, ndRange } from '@syclts/runtime';
import {
  MAX_LOADS,
  matrixSize,
  tileCols,
  tileItems,
  tileK,
  tileRows,
  tileStrideA,
  tileStrideB,
} from './matmul.sycl.ts';

/** A work-group of `rows` x `cols` sub-groups (64 x 64 of C each), k advancing `k` a step. */
export interface Tiling {
  readonly rows: number;
  readonly cols: number;
  readonly k: number;
}

/** The tilings the example runs, the bench's default first. */
export const TILINGS: readonly Tiling[] = [
  { rows: 2, cols: 4, k: 32 },
  { rows: 4, cols: 2, k: 32 },
  { rows: 2, cols: 2, k: 32 },
  { rows: 2, cols: 2, k: 16 },
  { rows: 1, cols: 2, k: 16 },
];

const PAD = 8;
const items = (t: Tiling) => 32 * t.rows * t.cols;

/** Bytes of workgroup memory: A's 64 rows x (k + 8) halves and B's k rows x (64 cols + 8). */
export const workgroupBytes = (t: Tiling) =>
  2 * (64 * t.rows * (t.k + PAD) + t.k * (64 * t.cols + PAD));

export const describeTiling = (t: Tiling) =>
  `${64 * t.rows} x ${64 * t.cols} x ${t.k} (${items(t)} items)`;

/** Why the tiling cannot multiply n x n matrices on a device with these limits, or null. */
export function tilingProblem(t: Tiling, n: number, limits: GPUSupportedLimits): string | null {
  const aLoads = t.k / (4 * t.cols);
  const bLoads = t.k / (4 * t.rows);
  if (t.k % 16 !== 0) return `k ${t.k} is not a multiple of 16`;
  if (![aLoads, bLoads].every((l) => Number.isInteger(l) && l >= 1 && l <= MAX_LOADS)) {
    return `each item would carry ${aLoads} vec4u of A and ${bLoads} of B (whole numbers from 1 to ${MAX_LOADS})`;
  }
  if (n % (64 * t.rows) || n % (64 * t.cols) || n % t.k) {
    return `n = ${n} is not a multiple of ${64 * t.rows}, ${64 * t.cols} and ${t.k}`;
  }
  if (items(t) > limits.maxComputeInvocationsPerWorkgroup) {
    return `${items(t)} items exceed the device's ${limits.maxComputeInvocationsPerWorkgroup} per work-group`;
  }
  if (workgroupBytes(t) > limits.maxComputeWorkgroupStorageSize) {
    return `${workgroupBytes(t)} bytes of workgroup memory exceed the device's ${limits.maxComputeWorkgroupStorageSize}`;
  }
  return null;
}

/** The specialization constants (and n) of the tiling, each with its value. */
export function tilingConstants(
  t: Tiling,
  n: number,
): readonly (readonly [typeof matrixSize, number])[] {
  return [
    [matrixSize, n],
    [tileRows, t.rows],
    [tileCols, t.cols],
    [tileK, t.k],
    [tileItems, items(t)],
    [tileStrideA, t.k + PAD],
    [tileStrideB, 64 * t.cols + PAD],
  ];
}

/** Sets the tiling's specialization constants (and n) for a launch. */
export function setTiling(cgh: Handler, t: Tiling, n: number): void {
  for (const [id, value] of tilingConstants(t, n)) cgh.setSpecializationConstant(id, value);
}

/** The nd-range of an n x n product in this tiling. */
export function tilingRange(t: Tiling, n: number): NdRange<2> {
  return ndRange([n / (64 * t.rows), (n / (64 * t.cols)) * items(t)], [1, items(t)]);
}
