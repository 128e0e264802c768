/** One generated fuzz input: the modules of a program and the options it is built with. */
import type { BuildSource } from '../../src/build.js';

/**
 * How big hostile inputs get: 'full' goes to 10^5-term expressions and 5,000-deep nesting;
 * 'quick' (the CI slice) stops at a few thousand terms and 1,000 levels, and makes smaller
 * well-typed kernels, so that 10^4 inputs fit in CI's time.
 */
export type Size = 'full' | 'quick';

export type SpecConstantsChoice = 'native' | 'emulated' | 'both';

export interface FuzzInput {
  /** Which generator made it (reported with every finding). */
  readonly family: string;
  readonly sources: readonly BuildSource[];
  readonly specConstants: SpecConstantsChoice;
}

/** True when device code splices raw WGSL, whose text the compiler passes through unchecked. */
export function hasRawWgsl(input: FuzzInput): boolean {
  return input.sources.some((s) => s.source.includes('wgsl`'));
}
