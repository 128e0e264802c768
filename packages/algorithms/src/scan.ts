/** Device-wide exclusive and inclusive scans (scan.sycl.ts), typed host calls. */
import { atomic, u32 } from '@syclts/dsl';
import { ndRange, type Queue, type SyclEvent } from '@syclts/runtime';
import { bitsOf, type Input, inputAndOutput, type Output, vectorsOf } from './buffers.ts';
import { operation } from './operation.sycl.ts';
import { type Element, type Operator, operationOf } from './operation.ts';
import { alwaysFallBack, inclusive, scanState, scanTiles, spin } from './scan.sycl.ts';
import { scratch } from './scratch.ts';

export interface ScanOptions {
  /** SYCL's function object; default `'plus'`. */
  readonly op?: Operator;
  /**
   * Combined in before the first element: the first result of an exclusive scan. Default: the
   * operator's identity.
   */
  readonly init?: number;
}

/** The look-back's settings, for tests and benchmarks. */
export interface LookBack {
  /** Reads of a predecessor that is not ready before reducing its tile; default 4. */
  readonly spin?: number;
  /** Reduce every predecessor's tile, never reading a published value. */
  readonly alwaysFallBack?: boolean;
}

const TILE = 8192;

/**
 * `output[i]` = `init` and `input[0..i)` combined by `op` (oneDPL's `exclusive_scan`), in one
 * pass over the input. `input` and `output` are different buffers of one element type; the
 * output holds at least as many elements.
 */
export function exclusiveScan<T extends Element>(
  queue: Queue,
  input: Input<T>,
  output: Output<T>,
  options: ScanOptions = {},
): SyclEvent {
  return scan('exclusiveScan', queue, input, output, options, false);
}

/** `output[i]` = `init` and `input[0..i]` combined by `op` (oneDPL's `inclusive_scan`). */
export function inclusiveScan<T extends Element>(
  queue: Queue,
  input: Input<T>,
  output: Output<T>,
  options: ScanOptions = {},
): SyclEvent {
  return scan('inclusiveScan', queue, input, output, options, true);
}

/** @internal Either scan, with the look-back's settings, of the input's first `n` elements. */
export function scan<T extends Element>(
  api: string,
  queue: Queue,
  input: Input<T>,
  output: Output<T>,
  options: ScanOptions,
  includes: boolean,
  lookBack: LookBack = {},
  n: number = input.length,
): SyclEvent {
  const element = inputAndOutput(api, input, output, n);
  const src = vectorsOf(api, 'input', input, 'read');
  const dst = vectorsOf(api, 'output', output, 'write');
  const { code, identity } = operationOf(api, element, options.op ?? 'plus');
  const init = options.init === undefined ? null : bitsOf(api, 'init', element, options.init);
  const tiles = Math.ceil(n / TILE);
  const state = scratch(queue, 'scan state', atomic(u32), 2 + 2 * tiles);
  queue.parallelFor(2 + 2 * tiles, scanState, { state });
  return queue.submit((cgh) => {
    cgh.setSpecializationConstant(operation, code);
    cgh.setSpecializationConstant(inclusive, includes);
    if (lookBack.spin !== undefined) cgh.setSpecializationConstant(spin, lookBack.spin);
    if (lookBack.alwaysFallBack) cgh.setSpecializationConstant(alwaysFallBack, true);
    cgh.parallelFor(ndRange(tiles * 256, 256), scanTiles, {
      src,
      dst,
      state,
      n,
      tiles,
      init: init ?? identity,
      id: identity,
    });
  });
}
