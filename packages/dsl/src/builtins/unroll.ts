/**
 * `for (const i of unroll(n)) { ... }`: a loop the compiler writes out, one copy of the body per
 * value of `i` (0, 1, ..., n - 1 as u32; or `start` to `end` by `step`, as Python's `range`).
 * The bounds are build-time constants. Unrolled, an index into a private array or a matrix
 * load's offset becomes a constant the GPU's compiler can resolve: the register tile of a
 * matrix multiply stays in registers, and a bounds check is decided at compile time.
 */
export function unroll(end: number): Iterable<number>;
export function unroll(start: number, end: number, step?: number): Iterable<number>;
export function unroll(): Iterable<number> {
  throw new Error('unroll is device code: loop over it inside a kernel or a deviceFunction');
}
