/**
 * The device-memory ceiling as WebGPU sees it: a vec4f copy kernel, counting bytes read plus
 * bytes written, timed like the kernels (GPU timestamps, median).
 */
import { type BenchDevice, median } from './device.js';

export async function copyBandwidth(
  bench: BenchDevice,
  bytes: number,
  launches: number,
): Promise<{ bytes: number; us: number; gbs: number }> {
  const { device, timer } = bench;
  const vec4s = bytes / 16;
  const groups = vec4s / 256;
  const gx = Math.min(groups, 32768);
  const gy = Math.ceil(groups / gx);
  const code = `
@group(0) @binding(0) var<storage, read> src: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4f>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x + g.y * ${gx * 256}u;
  if (i < ${vec4s}u) { dst[i] = src[i]; }
}`;
  const layout = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    ],
  });
  const pipeline = await device.createComputePipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
  });
  const src = device.createBuffer({
    size: bytes,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  const dst = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE });
  device.queue.writeBuffer(
    src,
    0,
    Float32Array.from({ length: bytes / 4 }, () => Math.random()),
  );
  const bindGroup = device.createBindGroup({
    layout,
    entries: [
      { binding: 0, resource: { buffer: src } },
      { binding: 1, resource: { buffer: dst } },
    ],
  });
  const copy = () => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
    device.queue.submit([encoder.finish()]);
  };
  copy();
  await device.queue.onSubmittedWorkDone();
  timer.arm();
  for (let i = 0; i < launches; i++) copy();
  const us = median(await timer.collect());
  src.destroy();
  dst.destroy();
  return { bytes, us, gbs: (2 * bytes) / us / 1e3 };
}
