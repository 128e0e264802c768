/** Device-wide reduction (reduce.sycl.ts), a typed host call. */
import { u32 } from '@syclts/dsl';
import { ndRange, type Queue, type SyclEvent } from '@syclts/runtime';
import { bits, bitsOf, type Input, inputAndOutput, type Output } from './buffers.ts';
import { operation } from './operation.sycl.ts';
import { type Element, type Operator, operationOf } from './operation.ts';
import { reduceParts } from './reduce.sycl.ts';
import { scratch } from './scratch.ts';

export interface ReduceOptions {
  /** SYCL's function object; default `'plus'`. */
  readonly op?: Operator;
  /** Combined in before the elements; default the operator's identity. */
  readonly init?: number;
}

/** Work-groups of the first launch at most: enough loads in flight to fill the memory system. */
const GROUPS = 2048;
/** Elements per item of the first launch at least, below which fewer work-groups run. */
const PER_ITEM = 16;

/**
 * `output[0]` = `init` and every element of `input` combined by `op` (oneDPL's `reduce`).
 * `output` is another buffer of the same element type. f32 sums are combined in an order that
 * depends only on the input's length, so a run gives the same bits as the run before.
 */
export function reduce<T extends Element>(
  queue: Queue,
  input: Input<T>,
  output: Output<T>,
  options: ReduceOptions = {},
): SyclEvent {
  const api = 'reduce';
  const element = inputAndOutput(api, input, output, 1);
  const { code, identity } = operationOf(api, element, options.op ?? 'plus');
  const init = options.init === undefined ? identity : bitsOf(api, 'init', element, options.init);
  const n = input.length;
  const groups = Math.min(GROUPS, Math.ceil(n / (256 * PER_ITEM)));
  const parts = scratch(queue, 'reduce parts', u32, Math.max(1, groups));
  if (groups > 0) {
    queue.submit((cgh) => {
      cgh.setSpecializationConstant(operation, code);
      cgh.parallelFor(ndRange(groups * 256, 256), reduceParts, {
        src: bits(input),
        parts,
        n,
        init: identity,
        id: identity,
      });
    });
  }
  // One work-group combines the parts (or, for an empty input, gives `init`).
  return queue.submit((cgh) => {
    cgh.setSpecializationConstant(operation, code);
    cgh.parallelFor(ndRange(256, 256), reduceParts, {
      src: parts,
      parts: bits(output),
      n: groups,
      init,
      id: identity,
    });
  });
}
