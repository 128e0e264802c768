/**
 * Work-group and sub-group reduce and scan, hand-written, one element an item in workgroups of
 * 256 (as a SYCL kernel calling `reduce_over_group` / `exclusive_scan_over_group` on its own
 * element would be).
 *
 * Work-groups: the sum of each group's f32 elements (one output per group), and the exclusive
 * prefix sum of u32 elements within each group. Two shapes of the same kernel: `subgroup` (WGSL
 * `subgroupAdd`/`subgroupInclusiveAdd`, then the sub-groups' totals through workgroup memory) and
 * `workgroup` (trees in workgroup memory, barriers only).
 *
 * Sub-groups (`subgroup` shape only: WGSL `subgroupAdd`, `subgroupExclusiveAdd`): each
 * sub-group's first item writes the sum of its f32 elements at its own index; every item writes
 * the exclusive prefix sum of the u32 elements of its sub-group before it.
 *
 * Elements past n read as 0.
 */
import {
  bind,
  builtins,
  enables,
  grid,
  groupArgs,
  type Prepared,
  pipeline,
  reduceF32,
  type Shape,
  scanU32,
  storage,
  uniforms,
  WG,
} from './common.js';

export type GroupOp = 'reduce' | 'scan';
/** Which group the items reduce or scan over. */
export type GroupScope = 'work-group' | 'sub-group';

/** The kernel's WGSL: n, the grid's x size and the group count come from `params`. */
export function groupWgsl(op: GroupOp, shape: Shape, scope: GroupScope = 'work-group'): string {
  const type = op === 'reduce' ? 'f32' : 'u32';
  const workGroup =
    op === 'reduce'
      ? `let total = wg_reduce_f32(x, ${groupArgs(shape)});
  if (li == 0u && group < params.groups) { dst[group] = total; }`
      : `let s = wg_scan_u32(x, ${groupArgs(shape)});
  if (i < params.n) { dst[i] = s.x; }`;
  const subGroup =
    op === 'reduce'
      ? `let total = subgroupAdd(x);
  if (sgi == 0u && i < params.n) { dst[i] = total; }`
      : `let s = subgroupExclusiveAdd(x);
  if (i < params.n) { dst[i] = s; }`;
  if (scope === 'sub-group' && shape !== 'subgroup') {
    throw new Error(
      'groupWgsl: sub-group functions are hand-written with sub-group built-ins only',
    );
  }
  const body = scope === 'work-group' ? workGroup : subGroup;
  return `${enables(shape)}
struct Params { n: u32, gx: u32, groups: u32 }
@group(0) @binding(0) var<storage, read> src: array<${type}>;
@group(0) @binding(1) var<storage, read_write> dst: array<${type}>;
@group(0) @binding(2) var<uniform> params: Params;
${scope === 'sub-group' ? '' : op === 'reduce' ? reduceF32(shape) : scanU32(shape)}

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3u, ${builtins(shape)}) {
  let group = wid.x + wid.y * params.gx;
  let i = group * ${WG}u + li;
  let x = select(${type}(0), src[min(i, max(params.n, 1u) - 1u)], i < params.n);
  ${body}
}`;
}

export interface GroupRun extends Prepared {
  readonly input: GPUBuffer;
  /** n elements, but one f32 per work-group of 256 for a work-group reduce. */
  readonly output: GPUBuffer;
}

/** The elements a group kernel writes into: one per work-group for a work-group reduce. */
export const groupOutputs = (n: number, op: GroupOp, scope: GroupScope): number =>
  op === 'reduce' && scope === 'work-group' ? Math.max(1, Math.ceil(n / WG)) : n;

export async function prepareGroup(
  device: GPUDevice,
  n: number,
  op: GroupOp,
  shape: Shape,
  scope: GroupScope = 'work-group',
): Promise<GroupRun> {
  const groups = Math.max(1, Math.ceil(n / WG));
  const [gx, gy] = grid(groups);
  const p = await pipeline(device, groupWgsl(op, shape, scope));
  const params = uniforms(device, [n, gx, groups]);
  const input = storage(device, 4 * n);
  const output = storage(device, 4 * groupOutputs(n, op, scope));
  const group = bind(device, p, [input, output, params]);
  return {
    input,
    output,
    record(encoder, timed) {
      const pass = encoder.beginComputePass(timed?.(true, true));
      pass.setPipeline(p);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(gx, gy);
      pass.end();
    },
    destroy() {
      input.destroy();
      output.destroy();
      params.destroy();
    },
  };
}
