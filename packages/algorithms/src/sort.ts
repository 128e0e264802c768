/** Device-wide radix sort (sort.sycl.ts), a typed host call. */
import { u32 } from '@syclts/dsl';
import {
  type DeviceBuffer,
  errc,
  ndRange,
  type Queue,
  SyclError,
  type SyclEvent,
} from '@syclts/runtime';
import { bits, elementOf } from './buffers.ts';
import type { Element } from './operation.ts';
import { scan } from './scan.ts';
import { scratch } from './scratch.ts';
import { flipClear, flipSet, sortCounts, sortScatter, withValues } from './sort.sycl.ts';

/** A buffer sorted in place. */
export type Sorted<T extends Element> = DeviceBuffer<T, 'read_write'>;

export interface SortOptions {
  /** Moved with the keys: `values[i]` goes where `keys[i]` goes. Its first `keys.length` elements. */
  readonly values?: Sorted<Element>;
  /** Largest key first; equal keys still keep their order. Default false. */
  readonly descending?: boolean;
}

const TILE = 2048;

/** `ordered`'s masks for an ascending sort (sort.sycl.ts): [top bit set, top bit clear]. */
const FLIPS: Readonly<Record<Element['scalar'], readonly [number, number]>> = {
  u32: [0, 0],
  i32: [0x80000000, 0x80000000],
  // Negative numbers (sign set) reversed below the positive ones.
  f32: [0xffffffff, 0x80000000],
};

/**
 * Sorts `keys` in place, ascending (or descending), stable (oneDPL's `sort` and
 * `sort_by_key`): u32 and i32 keys by value, f32 keys by the total order of their bits
 * (-NaN < -Infinity < … < -0 < +0 < … < +Infinity < +NaN). With `values`, each value moves with
 * its key, so keys that are equal keep their values in the order they had. Four passes of 8-bit
 * digits; the keys and values pass through scratch buffers kept for the queue.
 */
export function sort<T extends Element>(
  queue: Queue,
  keys: Sorted<T>,
  options: SortOptions = {},
): SyclEvent {
  const api = 'sort';
  const element = elementOf(api, 'keys', keys);
  inPlace(api, 'keys', keys);
  const n = keys.length;
  const { values } = options;
  if (values) {
    elementOf(api, 'values', values);
    inPlace(api, 'values', values);
    if (values.gpuBuffer === keys.gpuBuffer) {
      throw new SyclError(
        errc.invalid,
        `${api}: the keys and the values are the same memory; pass another buffer for the values`,
      );
    }
    if (values.length < n) {
      throw new SyclError(
        errc.invalid,
        `${api}: values holds ${values.length} elements, fewer than the ${n} keys`,
      );
    }
  }
  // One key or none is sorted already.
  if (n <= 1) return queue.submit(() => undefined);
  const flips = FLIPS[element.scalar].map((m) => (options.descending ? ~m >>> 0 : m));
  const tiles = Math.ceil(n / TILE);
  const counts = scratch(queue, 'sort counts', u32, 256 * tiles);
  const offsets = scratch(queue, 'sort offsets', u32, 256 * tiles);
  const spareKeys = scratch(queue, 'sort keys', u32, n);
  const spareValues = values ? scratch(queue, 'sort values', u32, n) : null;
  // Without values the kernel moves none; what stands in for them: the keys it reads, and a word
  // of its own to write (WebGPU refuses two writable bindings of one buffer).
  const standIn = scratch(queue, 'sort no values', u32, 1);
  const range = ndRange(tiles * 256, 256);
  const mine = [bits(keys), values ? bits(values) : null] as const;
  const spare = [spareKeys, spareValues] as const;
  // Even passes read the caller's buffers and write the spares, odd ones the other way: after
  // four, the result is the caller's.
  const passes = [0, 1, 2, 3].map((pass) => {
    const shift = 8 * pass;
    const [keysIn, valuesIn] = pass % 2 === 0 ? mine : spare;
    const [keysOut, valuesOut] = pass % 2 === 0 ? spare : mine;
    queue.submit((cgh) => {
      cgh.setSpecializationConstant(flipSet, flips[0]!);
      cgh.setSpecializationConstant(flipClear, flips[1]!);
      cgh.parallelFor(range, sortCounts, { keys: keysIn, counts, n, tiles, shift });
    });
    scan(api, queue, counts, offsets, {}, false, {}, 256 * tiles);
    return queue.submit((cgh) => {
      cgh.setSpecializationConstant(flipSet, flips[0]!);
      cgh.setSpecializationConstant(flipClear, flips[1]!);
      cgh.setSpecializationConstant(withValues, values !== undefined);
      cgh.parallelFor(range, sortScatter, {
        keysIn,
        keysOut,
        valuesIn: valuesIn ?? keysIn,
        valuesOut: valuesOut ?? standIn,
        offsets,
        n,
        tiles,
        shift,
      });
    });
  });
  return passes[3]!;
}

/** Refuses a buffer the sort cannot write back into. */
function inPlace(api: string, name: string, buffer: DeviceBuffer): void {
  if (buffer.access !== 'read_write') {
    throw new SyclError(
      errc.invalid,
      `${api}: ${name} must be a read_write buffer (the sort is in place), got a ${buffer.access} buffer`,
    );
  }
}
