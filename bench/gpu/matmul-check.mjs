// Correctness check of the hand-written kernels on whatever adapter is at hand.

import { requestAdapter } from '@syclts/runtime';
import { matmulWgsl } from './matmul-wgsl.mjs';

const { adapter, description } = await requestAdapter();
const device = await adapter.requestDevice();
const N = 256;
const A = Float32Array.from({ length: N * N }, () => Math.random() * 2 - 1);
const B = Float32Array.from({ length: N * N }, () => Math.random() * 2 - 1);
const ref = new Float64Array(N * N);
for (let i = 0; i < N; i++)
  for (let k = 0; k < N; k++) {
    const a = A[i * N + k];
    for (let j = 0; j < N; j++) ref[i * N + j] += a * B[k * N + j];
  }
const buf = (data, usage) => {
  const b = device.createBuffer({ size: data.byteLength, usage, mappedAtCreation: true });
  new Float32Array(b.getMappedRange()).set(data);
  b.unmap();
  return b;
};
for (const variant of ['literal', 'override', 'uniform']) {
  for (const cfg of JSON.parse(process.env.CFGS ?? '[{"BM":64,"BN":64,"BK":16,"TM":4,"TN":4}]')) {
    const { code, workgroups } = matmulWgsl({ ...cfg, n: variant, N });
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    for (const m of info.messages) console.log(m.type, m.lineNum, m.message);
    const entries = [0, 1, 2].map((binding) => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: binding < 2 ? 'read-only-storage' : 'storage' },
    }));
    if (variant === 'uniform')
      entries.push({ binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } });
    const bgl = device.createBindGroupLayout({ entries });
    const pipeline = device.createComputePipeline({
      layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
      compute: { module, entryPoint: 'main', constants: variant === 'override' ? { 0: N } : {} },
    });
    const a = buf(A, GPUBufferUsage.STORAGE),
      b = buf(B, GPUBufferUsage.STORAGE);
    const c = buf(
      new Float32Array(N * N).fill(NaN),
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    );
    const res = [
      { binding: 0, resource: { buffer: a } },
      { binding: 1, resource: { buffer: b } },
      { binding: 2, resource: { buffer: c } },
    ];
    if (variant === 'uniform')
      res.push({
        binding: 3,
        resource: {
          buffer: buf(
            new Float32Array(new Uint32Array([N, 0, 0, 0]).buffer),
            GPUBufferUsage.UNIFORM,
          ),
        },
      });
    const rb = device.createBuffer({
      size: N * N * 4,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, device.createBindGroup({ layout: bgl, entries: res }));
    pass.dispatchWorkgroups(...workgroups(N));
    pass.end();
    enc.copyBufferToBuffer(c, 0, rb, 0, N * N * 4);
    device.queue.submit([enc.finish()]);
    await rb.mapAsync(GPUMapMode.READ);
    const out = new Float32Array(rb.getMappedRange());
    let num = 0,
      den = 0;
    for (let i = 0; i < N * N; i++) {
      num += (out[i] - ref[i]) ** 2;
      den += ref[i] ** 2;
    }
    console.log(variant, JSON.stringify(cfg), 'rel err', Math.sqrt(num / den).toExponential(2));
  }
}
console.log(description);
