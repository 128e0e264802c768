/**
 * The identity of each of SYCL's group operators (its `known_identity`), one table for the link
 * step's reductions, the printer's group functions and the interpreter.
 */
import type { GroupOperatorName, ScalarName } from '@syclts/dsl';

/**
 * The value `op` leaves any scalar of type `scalar` unchanged with: ±Infinity for f32's
 * `minimum` and `maximum` (which WGSL refuses as a constant: printers make it from its bits).
 */
export function groupIdentity(op: GroupOperatorName, scalar: ScalarName): number | boolean {
  switch (op) {
    case 'plus':
    case 'bitOr':
    case 'bitXor':
      return 0;
    case 'multiplies':
      return 1;
    case 'bitAnd':
      return scalar === 'u32' ? 0xffffffff : -1;
    case 'logicalAnd':
      return true;
    case 'logicalOr':
      return false;
    case 'minimum':
      return scalar === 'u32' ? 0xffffffff : scalar === 'i32' ? 2 ** 31 - 1 : Infinity;
    case 'maximum':
      return scalar === 'u32' ? 0 : scalar === 'i32' ? -(2 ** 31) : -Infinity;
  }
}

/** The bits of ±Infinity in f32. */
export function infinityBits(value: number): number {
  return value > 0 ? 0x7f800000 : 0xff800000;
}
