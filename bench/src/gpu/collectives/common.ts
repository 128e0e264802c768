/**
 * Shared pieces of the hand-written collectives: WGSL functions for a 256-item workgroup in two
 * shapes (WGSL `subgroups` built-ins, or workgroup memory only), buffers and read-back.
 *
 * The sub-group shape takes sub-group s to hold items [s * size, (s + 1) * size) of the workgroup:
 * WGSL does not promise that layout, but Dawn gives it on SwiftShader (size 4) and on NVIDIA (32)
 * in every shape tried; the tests check the results on the adapter at hand.
 */

export const WG = 256;

/** Which workgroup-level shape a kernel uses. */
export type Shape = 'subgroup' | 'workgroup';

/** The shape a device supports best: sub-groups where it has the feature. */
export const bestShape = (device: GPUDevice): Shape =>
  device.features.has('subgroups' as GPUFeatureName) ? 'subgroup' : 'workgroup';

/** `enable subgroups;` where the shape needs it. */
export const enables = (shape: Shape): string =>
  shape === 'subgroup' ? 'enable subgroups;\n' : '';

/** Built-in parameters a kernel's entry point takes for the workgroup functions of its shape. */
export const builtins = (shape: Shape): string =>
  shape === 'subgroup'
    ? '@builtin(local_invocation_index) li: u32, @builtin(subgroup_invocation_id) sgi: u32, @builtin(subgroup_size) sgs: u32'
    : '@builtin(local_invocation_index) li: u32';

/** Arguments passing those built-ins on to the workgroup functions. */
export const groupArgs = (shape: Shape): string => (shape === 'subgroup' ? 'li, sgi, sgs' : 'li');
const params = (shape: Shape): string =>
  shape === 'subgroup' ? 'li: u32, sgi: u32, sgs: u32' : 'li: u32';

/**
 * `wg_scan_u32(x, ...) -> vec2u`: (exclusive prefix of x over the workgroup, workgroup total),
 * wrapping modulo 2^32. Call from uniform control flow; it ends with a barrier, so it may be
 * called again at once.
 */
export function scanU32(shape: Shape): string {
  if (shape === 'subgroup') {
    return `
var<workgroup> wg_scan_part: array<u32, ${WG / 4}>;
fn wg_scan_u32(x: u32, ${params(shape)}) -> vec2u {
  let incl = subgroupInclusiveAdd(x);
  if (sgi == sgs - 1u) { wg_scan_part[li / sgs] = incl; }
  workgroupBarrier();
  let sid = li / sgs;
  var before = 0u;
  var total = 0u;
  for (var s = 0u; s < ${WG}u / sgs; s++) {
    let v = wg_scan_part[s];
    before += select(0u, v, s < sid);
    total += v;
  }
  workgroupBarrier();
  return vec2u(before + incl - x, total);
}`;
  }
  return `
var<workgroup> wg_scan_buf: array<u32, ${WG}>;
fn wg_scan_u32(x: u32, ${params(shape)}) -> vec2u {
  wg_scan_buf[li] = x;
  workgroupBarrier();
  for (var off = 1u; off < ${WG}u; off <<= 1u) {
    var v = wg_scan_buf[li];
    if (li >= off) { v += wg_scan_buf[li - off]; }
    workgroupBarrier();
    wg_scan_buf[li] = v;
    workgroupBarrier();
  }
  let incl = wg_scan_buf[li];
  let total = wg_scan_buf[${WG - 1}u];
  workgroupBarrier();
  return vec2u(incl - x, total);
}`;
}

/**
 * `wg_reduce_f32(x, ...) -> f32`: the workgroup's sum, the same value in every item. Call from
 * uniform control flow; it ends with a barrier.
 */
export function reduceF32(shape: Shape): string {
  if (shape === 'subgroup') {
    return `
var<workgroup> wg_reduce_part: array<f32, ${WG / 4}>;
fn wg_reduce_f32(x: f32, ${params(shape)}) -> f32 {
  let s = subgroupAdd(x);
  if (sgi == 0u) { wg_reduce_part[li / sgs] = s; }
  workgroupBarrier();
  var total = 0.0f;
  for (var k = 0u; k < ${WG}u / sgs; k++) { total += wg_reduce_part[k]; }
  workgroupBarrier();
  return total;
}`;
  }
  return `
var<workgroup> wg_reduce_buf: array<f32, ${WG}>;
fn wg_reduce_f32(x: f32, ${params(shape)}) -> f32 {
  wg_reduce_buf[li] = x;
  workgroupBarrier();
  for (var off = ${WG / 2}u; off > 0u; off >>= 1u) {
    if (li < off) { wg_reduce_buf[li] += wg_reduce_buf[li + off]; }
    workgroupBarrier();
  }
  let total = wg_reduce_buf[0];
  workgroupBarrier();
  return total;
}`;
}

/** A 2D dispatch of `groups` workgroups (x at most 65535), exact where it can be. */
export function grid(groups: number): [number, number] {
  const gy = Math.ceil(groups / 65535);
  return [Math.ceil(groups / gy), gy];
}

export function storage(device: GPUDevice, bytes: number, extra = 0): GPUBuffer {
  return device.createBuffer({
    size: Math.max(16, Math.ceil(bytes / 16) * 16),
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST | extra,
  });
}

export async function readBack(
  device: GPUDevice,
  buffer: GPUBuffer,
  bytes: number,
): Promise<ArrayBuffer> {
  const size = Math.ceil(bytes / 4) * 4;
  const staging = device.createBuffer({
    size: Math.max(4, size),
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  if (size > 0) encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const data = staging.getMappedRange().slice(0, bytes);
  staging.destroy();
  return data;
}

const pipelines = new WeakMap<GPUDevice, Map<string, Promise<GPUComputePipeline>>>();

/**
 * The compute pipeline of `code`'s `entryPoint`, made once per device: sizes reach the kernels
 * in a uniform, so every size shares one pipeline (a software adapter takes seconds to compile a
 * scan).
 */
export function pipeline(
  device: GPUDevice,
  code: string,
  entryPoint = 'main',
): Promise<GPUComputePipeline> {
  let made = pipelines.get(device);
  if (!made) {
    made = new Map();
    pipelines.set(device, made);
  }
  const key = `${entryPoint}\n${code}`;
  let p = made.get(key);
  if (!p) {
    p = device.createComputePipelineAsync({
      layout: 'auto',
      compute: { module: device.createShaderModule({ code }), entryPoint },
    });
    made.set(key, p);
  }
  return p;
}

/** A uniform buffer holding `values` as u32 (padded to 16 bytes). */
export function uniforms(device: GPUDevice, values: number[]): GPUBuffer {
  const data = new Uint32Array(Math.ceil(values.length / 4) * 4);
  data.set(values);
  const buffer = device.createBuffer({
    size: data.byteLength,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

/** A bind group of `p`'s group 0: `buffers[i]` at binding i; holes where `p` uses none. */
export function bind(
  device: GPUDevice,
  p: GPUComputePipeline,
  buffers: (GPUBuffer | undefined)[],
): GPUBindGroup {
  const entries: GPUBindGroupEntry[] = [];
  buffers.forEach((buffer, binding) => {
    if (buffer) entries.push({ binding, resource: { buffer } });
  });
  return device.createBindGroup({ layout: p.getBindGroupLayout(0), entries });
}

/** A hand-written collective prepared for one size: its buffers and how to record one run. */
export interface Prepared {
  /** Records one run: clears (outside any pass) then compute passes, the first and last timed. */
  record(
    encoder: GPUCommandEncoder,
    timed?: (first: boolean, last: boolean) => GPUComputePassDescriptor,
  ): void;
  destroy(): void;
}
