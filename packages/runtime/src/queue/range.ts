/**
 * Ranges and their dispatches. SYCL dimension d of a D-dimensional range is WGSL component
 * D-1-d (the last SYCL dimension, the fastest varying, is x). A range whose workgroup count
 * exceeds maxComputeWorkgroupsPerDimension is split into several dispatches, each told its
 * workgroup-id offset through the `launch` uniform's `groupOffset`.
 */
import type { Dimensions } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';

export type Range<D extends Dimensions> = D extends 1
  ? number | readonly [number]
  : D extends 2
    ? readonly [number, number]
    : readonly [number, number, number];

export interface NdRange<D extends Dimensions> {
  readonly global: Range<D>;
  readonly local: Range<D>;
}

/** What a kernel is launched over: an `NdRange` for an nd-range kernel, else a `Range`. */
export type LaunchRange<D extends Dimensions, ND extends boolean> = ND extends true
  ? NdRange<D>
  : Range<D>;

export function ndRange(global: Range<1>, local: Range<1>): NdRange<1>;
export function ndRange(global: Range<2>, local: Range<2>): NdRange<2>;
export function ndRange(global: Range<3>, local: Range<3>): NdRange<3>;
export function ndRange(global: Range<Dimensions>, local: Range<Dimensions>): NdRange<Dimensions> {
  return Object.freeze({ global, local });
}

export type Vec3 = readonly [number, number, number];

/** The range as SYCL-ordered sizes, checked against the kernel's dimensions. */
export function syclSizes(
  api: string,
  kernelName: string,
  what: string,
  range: unknown,
  dimensions: Dimensions,
): readonly number[] {
  const sizes = typeof range === 'number' ? [range] : range;
  if (!Array.isArray(sizes) || sizes.length !== dimensions || !sizes.every(isSize)) {
    throw new SyclError(
      errc.ndRange,
      `${api}: kernel ${kernelName} is ${dimensions}-dimensional; its ${what} must be ${dimensions} non-negative integer size(s) below 2^32, got ${JSON.stringify(range)}`,
    );
  }
  return sizes as number[];
}

function isSize(n: unknown): boolean {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 2 ** 32 - 1;
}

/** SYCL-ordered sizes to WGSL component order (x, y, z), padded with 1. */
export function toWgsl(sizes: readonly number[]): Vec3 {
  const d = sizes.length;
  return [sizes[d - 1] ?? 1, d >= 2 ? sizes[d - 2]! : 1, d >= 3 ? sizes[d - 3]! : 1];
}

/** WGSL component order to SYCL-ordered sizes of `dimensions`. */
export function toSycl(vec: Vec3, dimensions: Dimensions): number[] {
  return Array.from({ length: dimensions }, (_, d) => vec[dimensions - 1 - d]!);
}

export interface Dispatch {
  readonly workgroups: Vec3;
  readonly groupOffset: Vec3;
}

const NO_OFFSET: Vec3 = [0, 0, 0];

/** The dispatches covering `groups` workgroups per component, at most `max` per component each. */
export function splitDispatches(groups: Vec3, max: number): Dispatch[] {
  if (groups[0] === 0 || groups[1] === 0 || groups[2] === 0) return [];
  if (groups[0] <= max && groups[1] <= max && groups[2] <= max) {
    return [{ workgroups: groups, groupOffset: NO_OFFSET }];
  }
  const chunks = (n: number) =>
    Array.from(
      { length: Math.ceil(n / max) },
      (_, i) => [i * max, Math.min(max, n - i * max)] as const,
    );
  const dispatches: Dispatch[] = [];
  for (const [oz, cz] of chunks(groups[2])) {
    for (const [oy, cy] of chunks(groups[1])) {
      for (const [ox, cx] of chunks(groups[0])) {
        dispatches.push({ workgroups: [cx, cy, cz], groupOffset: [ox, oy, oz] });
      }
    }
  }
  return dispatches;
}
