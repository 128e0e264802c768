import type { Program } from '@syclts/dsl';
import type { LinkedImage } from '../link/linked-image.js';

/** Prints each linked image as WGSL (one text per mode) with its property sets. */
export function emitProgram(_images: readonly LinkedImage[]): Program {
  throw new Error('emitProgram: not implemented yet');
}
