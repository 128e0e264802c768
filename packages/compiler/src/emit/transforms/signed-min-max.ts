/**
 * i32 `min`, `max`, `clamp` and `abs` become the table's helpers that compare as u32 with the
 * sign bit flipped (`i32_min`, ...). NVIDIA's Vulkan driver (580.159 on an H100) fuses two
 * signed min/max into one three-operand instruction and loses an operand's negation on the
 * way: `max(abs(x), y)` and `max(max(x, -y), z)` give wrong values for a third to a half of
 * random inputs, the defect CUDA's ptxas has with VIMNMX3 (pytorch/pytorch#190973). The
 * helpers leave no signed min/max to fuse and compute WGSL's values on every device; f32 and
 * u32 are printed as they are.
 */
import { mapBlockExprs, mapChildren } from '../../ir/children.js';
import type { Block, Expr } from '../../ir/device-code.js';

const HELPERS: ReadonlyMap<string, string> = new Map([
  ['min', 'i32_min'],
  ['max', 'i32_max'],
  ['clamp', 'i32_clamp'],
  ['abs', 'i32_abs'],
]);

/** Whether `e` is an i32 scalar or vector. */
const isI32 = (e: Expr<unknown>) =>
  (e.type.kind === 'scalar' && e.type.scalar === 'i32') ||
  (e.type.kind === 'vector' && e.type.component === 'i32');

/** `block` with each i32 min, max, clamp and abs calling its unsigned-comparison helper. */
export function signedMinMax<R>(block: Block<R>): Block<R> {
  const expr = (e: Expr<R>): Expr<R> => {
    const inner = mapChildren(e, expr);
    if (inner.op !== 'builtin' || !isI32(inner)) return inner;
    const helper = HELPERS.get(inner.name);
    return helper === undefined ? inner : { ...inner, name: helper };
  };
  return mapBlockExprs(block, expr);
}
