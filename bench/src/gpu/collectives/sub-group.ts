/**
 * Sub-group reduce and scan, hand-written (WGSL `subgroupAdd`, `subgroupExclusiveAdd`), one
 * element an item in workgroups of 256, as a SYCL kernel calling `reduce_over_group` /
 * `exclusive_scan_over_group` on its sub-group would: each sub-group's first item writes the sum
 * of its f32 elements at its own index; every item writes the exclusive prefix sum of the u32
 * elements of its sub-group before it. Elements past n read as 0. Needs the `subgroups` feature.
 */
import {
  bind,
  builtins,
  enables,
  grid,
  type Prepared,
  pipeline,
  storage,
  uniforms,
  WG,
} from './common.js';

export type SubGroupOp = 'reduce' | 'scan';

export function subGroupWgsl(op: SubGroupOp): string {
  const type = op === 'reduce' ? 'f32' : 'u32';
  const body =
    op === 'reduce'
      ? `let total = subgroupAdd(x);
  if (sgi == 0u && i < params.n) { dst[i] = total; }`
      : `let s = subgroupExclusiveAdd(x);
  if (i < params.n) { dst[i] = s; }`;
  return `${enables('subgroup')}
struct Params { n: u32, gx: u32 }
@group(0) @binding(0) var<storage, read> src: array<${type}>;
@group(0) @binding(1) var<storage, read_write> dst: array<${type}>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3u, ${builtins('subgroup')}) {
  let i = (wid.x + wid.y * params.gx) * ${WG}u + li;
  let x = select(${type}(0), src[min(i, max(params.n, 1u) - 1u)], i < params.n);
  ${body}
}`;
}

export interface SubGroupRun extends Prepared {
  readonly input: GPUBuffer;
  /** n elements: reduce writes each sub-group's first, scan every one. */
  readonly output: GPUBuffer;
}

export async function prepareSubGroup(
  device: GPUDevice,
  n: number,
  op: SubGroupOp,
): Promise<SubGroupRun> {
  const [gx, gy] = grid(Math.max(1, Math.ceil(n / WG)));
  const p = await pipeline(device, subGroupWgsl(op));
  const params = uniforms(device, [n, gx]);
  const input = storage(device, 4 * n);
  const output = storage(device, 4 * n);
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
