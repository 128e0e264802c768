/**
 * Device-wide algorithms for syclts, written as `.sycl.ts` device code that links into the
 * user's program like their own: reduce, exclusive and inclusive scan, radix sort, histogram.
 */
export type { Input, Output } from './buffers.ts';
export { type Bins, type HistogramOptions, histogram } from './histogram.ts';
export type { Element, Operator } from './operation.ts';
export { type ReduceOptions, reduce } from './reduce.ts';
export { exclusiveScan, inclusiveScan, type ScanOptions } from './scan.ts';
export { type Sorted, type SortOptions, sort } from './sort.ts';
