/**
 * WGSL's limits on a shader (the WGSL specification's "Limits" table): the values every
 * implementation supports. syclts holds device code to them, not to what one GPU compiler
 * happens to accept beyond them, so that a build that succeeds compiles everywhere.
 */
import { type DataType, sizeOf } from '@syclts/dsl';
import type { Block, LetStmt } from './device-code.js';

export const WGSL_LIMITS = {
  /** Bytes of function-address-space variables declared in one function. */
  functionMemory: 8192,
  /** Bytes of private-address-space variables one shader uses. */
  privateMemory: 8192,
  /**
   * Elements of an array value constructor. The specification's 2047, not Tint's 32767: what
   * only Dawn accepts is not a build that compiles everywhere.
   */
  arrayConstructorElements: 2047,
  structMembers: 1023,
  functionParams: 255,
  /** NestDepth of a composite type: 1 per array or struct level, 1 for a vector, 2 for a matrix. */
  typeNesting: 15,
} as const;

/** WGSL's NestDepth: 0 for a scalar or atomic. */
export function nestDepth(type: DataType): number {
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return 0;
    case 'vector':
      return 1;
    case 'matrix':
      return 2;
    case 'array':
      return 1 + nestDepth(type.element);
    case 'struct':
      return 1 + Math.max(...type.fields.map((f) => nestDepth(f.type)));
  }
}

/**
 * The bytes a function's locals take, and the first local with which they pass the limit (or
 * null). Every local counts, `const`s included: WGSL `let`s of composites are given memory by
 * GPU compilers too, and a large one can crash them.
 */
export function functionMemory(
  block: Block,
  /** Bytes taken before the block's own locals (a kernel's reduction accumulators). */
  reserved = 0,
): { bytes: number; crossing: LetStmt | null } {
  let bytes = reserved;
  let crossing: LetStmt | null = null;
  const visit = (b: Block): void => {
    for (const s of b) {
      switch (s.kind) {
        case 'let':
          bytes += sizeOf(s.type);
          if (crossing === null && bytes > WGSL_LIMITS.functionMemory) crossing = s;
          break;
        case 'if':
          visit(s.then);
          if (s.else) visit(s.else);
          break;
        case 'for':
          if (s.init?.kind === 'let') visit([s.init]);
          visit(s.body);
          break;
        case 'while':
          visit(s.body);
          break;
        case 'block':
          visit(s.body);
          break;
        default:
          break;
      }
    }
  };
  visit(block);
  return { bytes, crossing };
}
