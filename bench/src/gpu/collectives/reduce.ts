/**
 * Sum of n f32, hand-written: each item adds vec4<f32> values in a grid-stride loop (coalesced
 * 16-byte loads, four in flight per item, a fixed number of workgroups), then the workgroup
 * combines its items (a sub-group tree with `subgroupAdd` where the device has sub-groups, a
 * workgroup-memory tree otherwise), and the workgroups' partial sums are combined by a second
 * dispatch of one workgroup in the same pass (`finish: 'second-pass'`, the default: WebGPU orders
 * the two dispatches), or by the last workgroup to finish (`finish: 'last-workgroup'`: partials
 * published with atomics and counted with an atomicAdd ticket; it relies on an item's two relaxed
 * atomics reaching memory in order, which WGSL does not promise, so it is the variant to time
 * rather than the one to trust).
 *
 * Summation order: item-wise in vec4 lanes (four running sums, each taking every fourth stride),
 * then lanes, then the workgroup tree, then partials in order; the CPU reference is a float64 sum.
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
  storage,
  uniforms,
  WG,
} from './common.js';

export type Finish = 'second-pass' | 'last-workgroup';

export interface ReduceOptions {
  readonly shape: Shape;
  readonly finish?: Finish;
  /** Workgroups of the grid-stride pass (at most 65535). */
  readonly groups?: number;
}

/** The kernel's WGSL: sizes come from `params` (n, whole vec4s, workgroups, grid stride). */
export function reduceWgsl(shape: Shape, finish: Finish): string {
  const head = `${enables(shape)}
struct Params { n: u32, full: u32, groups: u32, stride: u32 }
@group(0) @binding(0) var<storage, read> src: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> result: array<f32>;
${finish === 'second-pass' ? '@group(0) @binding(2) var<storage, read_write> partials: array<f32>;' : '@group(0) @binding(2) var<storage, read_write> partials: array<atomic<u32>>;\n@group(0) @binding(3) var<storage, read_write> counter: atomic<u32>;\nvar<workgroup> wg_last: u32;'}
@group(0) @binding(4) var<uniform> params: Params;
${reduceF32(shape)}

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3u, ${builtins(shape)}) {
  let gid = wid.x;
  // Four independent loads in flight per item and iteration, then the rest one at a time.
  var acc = vec4f(0.0f);
  var acc1 = vec4f(0.0f);
  var acc2 = vec4f(0.0f);
  var acc3 = vec4f(0.0f);
  var i = gid * ${WG}u + li;
  let s = params.stride;
  for (; i + 3u * s < params.full; i += 4u * s) {
    acc += src[i];
    acc1 += src[i + s];
    acc2 += src[i + 2u * s];
    acc3 += src[i + 3u * s];
  }
  for (; i < params.full; i += s) { acc += src[i]; }
  acc = (acc + acc1) + (acc2 + acc3);
  // The last n % 4 elements, in a vec4 whose other lanes are not the input's.
  if (gid == 0u && li == 0u && params.full * 4u < params.n) {
    let v = src[params.full];
    acc += select(vec4f(0.0f), v, vec4u(0u, 1u, 2u, 3u) < vec4u(params.n - params.full * 4u));
  }
  let total = wg_reduce_f32((acc.x + acc.y) + (acc.z + acc.w), ${groupArgs(shape)});`;
  if (finish === 'second-pass') {
    return `${head}
  if (li == 0u) { partials[gid] = total; }
}

@compute @workgroup_size(${WG})
fn finish(${builtins(shape)}) {
  var acc = 0.0f;
  for (var i = li; i < params.groups; i += ${WG}u) { acc += partials[i]; }
  let total = wg_reduce_f32(acc, ${groupArgs(shape)});
  if (li == 0u) { result[0] = total; }
}`;
  }
  return `${head}
  if (li == 0u) {
    atomicStore(&partials[gid], bitcast<u32>(total));
    wg_last = atomicAdd(&counter, 1u);
  }
  if (workgroupUniformLoad(&wg_last) != params.groups - 1u) { return; }
  var part = 0.0f;
  for (var i = li; i < params.groups; i += ${WG}u) { part += bitcast<f32>(atomicLoad(&partials[i])); }
  let sum = wg_reduce_f32(part, ${groupArgs(shape)});
  if (li == 0u) {
    result[0] = sum;
    atomicStore(&counter, 0u);
  }
}`;
}

export interface ReduceRun extends Prepared {
  /** Input: n f32 (padded to 16 bytes). */
  readonly input: GPUBuffer;
  /** Output: the sum at offset 0. */
  readonly output: GPUBuffer;
}

export async function prepareReduce(
  device: GPUDevice,
  n: number,
  options: ReduceOptions,
): Promise<ReduceRun> {
  const finish = options.finish ?? 'second-pass';
  const groups = Math.max(1, Math.min(options.groups ?? 2048, Math.ceil(n / 4 / WG)));
  const code = reduceWgsl(options.shape, finish);
  const main = await pipeline(device, code, 'main');
  const full = Math.floor(n / 4);
  const params = uniforms(device, [n, full, groups, groups * WG]);
  const input = storage(device, 4 * n);
  const output = storage(device, 4);
  const partials = storage(device, 4 * groups);
  const counter = storage(device, 4);
  const buffers =
    finish === 'second-pass'
      ? [input, undefined, partials, undefined, params]
      : [input, output, partials, counter, params];
  const group = bind(device, main, buffers);
  const second = finish === 'second-pass' ? await pipeline(device, code, 'finish') : null;
  const secondGroup = second
    ? bind(device, second, [undefined, output, partials, undefined, params])
    : null;
  const [gx, gy] = grid(groups);
  if (gy !== 1) throw new Error('reduce: at most 65535 workgroups');
  return {
    input,
    output,
    record(encoder, timed) {
      const pass = encoder.beginComputePass(timed?.(true, true));
      pass.setPipeline(main);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(gx);
      if (second && secondGroup) {
        pass.setPipeline(second);
        pass.setBindGroup(0, secondGroup);
        pass.dispatchWorkgroups(1);
      }
      pass.end();
    },
    destroy() {
      for (const b of [input, output, partials, counter, params]) b.destroy();
    },
  };
}
