/** Histogram of equal-width bins (histogram.sycl.ts), a typed host call. */
import { atomic, type ScalarType, u32 } from '@syclts/dsl';
import {
  type DeviceBuffer,
  errc,
  ndRange,
  type Queue,
  SyclError,
  type SyclEvent,
} from '@syclts/runtime';
import { bits, bitsOf, distinct, elementOf, type Input, viewOf } from './buffers.ts';
import { histogramClear, histogramCounts, sampleType } from './histogram.sycl.ts';
import type { Element } from './operation.ts';

/** Where the counts go: u32, added to with atomics. */
export type Bins = DeviceBuffer<ScalarType<'u32'>, 'read_write'>;

export interface HistogramOptions {
  /** The first bin's lower edge, included. */
  readonly low: number;
  /** The last bin's upper edge, excluded. */
  readonly high: number;
  /** Add the counts to those `bins` holds instead of replacing them. Default false. */
  readonly accumulate?: boolean;
}

/** Work-groups at most: a few per multiprocessor of a large GPU, and few flushes of the bins. */
const GROUPS = 512;
/** Samples per item at least, below which fewer work-groups run. */
const PER_ITEM = 16;

/** The bins' element type as the kernel counts into them (one descriptor: views are kept by it). */
const ATOMIC_U32 = atomic(u32);

const TYPES: Readonly<Record<Element['scalar'], number>> = { u32: 0, i32: 1, f32: 2 };

/**
 * Counts the samples of `input` in `bins.length` bins of equal width over [low, high) (oneDPL's
 * `histogram` with even bins): sample x counts in bin `(x - low) * bins.length / (high - low)`
 * rounded down, exactly for u32 and i32 samples and in f32 for f32 samples (as
 * `(x - low) * (bins.length / (high - low))`); samples outside [low, high), and NaN, are not
 * counted. The counts replace what `bins` holds, or with `accumulate` are added to it.
 */
export function histogram<T extends Element>(
  queue: Queue,
  input: Input<T>,
  bins: Bins,
  options: HistogramOptions,
): SyclEvent {
  const api = 'histogram';
  const element = elementOf(api, 'input', input);
  const count = binsOf(api, bins);
  distinct(api, input, bins);
  const { low, high, scale } = edges(api, element, options, count);
  const n = input.length;
  const view = viewOf(bins, ATOMIC_U32);
  const cleared = options.accumulate
    ? null
    : queue.parallelFor(count, histogramClear, { counts: bins });
  if (n === 0) return cleared ?? queue.submit(() => undefined);
  const groups = Math.min(GROUPS, Math.ceil(n / (256 * PER_ITEM)));
  return queue.submit((cgh) => {
    cgh.setSpecializationConstant(sampleType, TYPES[element.scalar]);
    cgh.parallelFor(ndRange(groups * 256, 256), histogramCounts, {
      samples: bits(input),
      counts: view,
      n,
      bins: count,
      low,
      high,
      scale,
    });
  });
}

/** The number of bins, checked. */
function binsOf(api: string, bins: DeviceBuffer): number {
  const { element } = bins;
  if (element.kind !== 'scalar' || element.scalar !== 'u32') {
    throw new SyclError(
      errc.invalid,
      `${api}: bins must hold u32 elements, got a buffer of ${element.kind === 'scalar' ? element.scalar : element.kind}`,
    );
  }
  if (bins.access !== 'read_write') {
    throw new SyclError(
      errc.invalid,
      `${api}: bins must be a read_write buffer (counts are added with atomics), got a ${bins.access} buffer`,
    );
  }
  if (bins.length === 0) {
    throw new SyclError(errc.invalid, `${api}: bins holds no elements; it needs at least one bin`);
  }
  return bins.length;
}

/** The edges as sample bits and the f32 scale, checked. */
function edges(
  api: string,
  element: Element,
  { low, high }: HistogramOptions,
  count: number,
): { low: number; high: number; scale: number } {
  const lowBits = bitsOf(api, 'low', element, low);
  const highBits = bitsOf(api, 'high', element, high);
  const f32 = element.scalar === 'f32';
  const [lo, hi] = f32 ? [Math.fround(low), Math.fround(high)] : [low, high];
  const width = Math.fround(f32 ? Math.fround(hi - lo) : hi - lo);
  if (!(lo < hi) || !Number.isFinite(width)) {
    throw new SyclError(
      errc.invalid,
      `${api}: low must be below high, with high - low finite in f32, got low ${low} and high ${high}`,
    );
  }
  return { low: lowBits, high: highBits, scale: Math.fround(Math.fround(count) / width) };
}
