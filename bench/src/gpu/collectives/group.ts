/**
 * Work-group reduce and scan, hand-written, one workgroup of 256 items per 256 elements (one
 * element an item, as a SYCL kernel calling `reduce_over_group` / `exclusive_scan_over_group` on
 * its own element would be): the sum of each group's f32 elements, and the exclusive prefix sum of
 * u32 elements within each group. Two shapes of the same kernel: `subgroup` (WGSL
 * `subgroupAdd`/`subgroupInclusiveAdd`, then the sub-groups' totals through workgroup memory) and
 * `workgroup` (trees in workgroup memory, barriers only). Elements past n read as 0.
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

/** The kernel's WGSL: n, the grid's x size and the group count come from `params`. */
export function groupWgsl(op: GroupOp, shape: Shape): string {
  const type = op === 'reduce' ? 'f32' : 'u32';
  const body =
    op === 'reduce'
      ? `let total = wg_reduce_f32(x, ${groupArgs(shape)});
  if (li == 0u && group < params.groups) { dst[group] = total; }`
      : `let s = wg_scan_u32(x, ${groupArgs(shape)});
  if (i < params.n) { dst[i] = s.x; }`;
  return `${enables(shape)}
struct Params { n: u32, gx: u32, groups: u32 }
@group(0) @binding(0) var<storage, read> src: array<${type}>;
@group(0) @binding(1) var<storage, read_write> dst: array<${type}>;
@group(0) @binding(2) var<uniform> params: Params;
${op === 'reduce' ? reduceF32(shape) : scanU32(shape)}

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
  /** reduce: one f32 per group of 256; scan: n u32. */
  readonly output: GPUBuffer;
}

export async function prepareGroup(
  device: GPUDevice,
  n: number,
  op: GroupOp,
  shape: Shape,
): Promise<GroupRun> {
  const groups = Math.max(1, Math.ceil(n / WG));
  const [gx, gy] = grid(groups);
  const p = await pipeline(device, groupWgsl(op, shape));
  const params = uniforms(device, [n, gx, groups]);
  const input = storage(device, 4 * n);
  const output = storage(device, op === 'reduce' ? 4 * groups : 4 * n);
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
