import { expect, test } from 'vitest';
import { requestAdapter } from '../src/index.js';

test('an adapter runs a compute pass with an override set at pipeline creation', async () => {
  const { adapter, description } = await requestAdapter();
  const device = await adapter.requestDevice();
  const module = device.createShaderModule({
    code: `@id(0) override k: u32 = 7u;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < arrayLength(&out)) { out[g.x] = k * g.x + 1u; }
}`,
  });
  const layout = device.createBindGroupLayout({
    entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } }],
  });
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: 'main', constants: { '0': 3 } },
  });
  const n = 100;
  const out = device.createBuffer({
    size: n * 4,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    mappedAtCreation: true,
  });
  new Uint32Array(out.getMappedRange()).fill(0xdeadbeef);
  out.unmap();
  const readback = device.createBuffer({
    size: n * 4,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({ layout, entries: [{ binding: 0, resource: { buffer: out } }] }),
  );
  pass.dispatchWorkgroups(2);
  pass.end();
  encoder.copyBufferToBuffer(out, 0, readback, 0, n * 4);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const result = Array.from(new Uint32Array(readback.getMappedRange()));
  console.log(`[syclts] compute pass ran on adapter: ${description}`);
  expect(result).toEqual(Array.from({ length: n }, (_, i) => 3 * i + 1));
  device.destroy();
});

test('an unknown adapter kind is errc.platform naming where it came from', async () => {
  const { Queue, errc } = await import('../src/index.js');
  await expect(Queue.create({ kind: 'gpu' as never })).rejects.toMatchObject({
    errc: errc.platform,
    message: expect.stringContaining("kind must be 'auto', 'hardware' or 'software', got 'gpu'"),
  });
});

test('bad queue options are errc.invalid, before any device is requested', async () => {
  const { Queue, errc } = await import('../src/index.js');
  await expect(Queue.create({ pipelineCacheSize: 0 })).rejects.toMatchObject({
    errc: errc.invalid,
  });
  await expect(Queue.create({ specConstants: 'fast' as never })).rejects.toMatchObject({
    errc: errc.invalid,
  });
});

test('isSupported() is true where Queue.create finds an adapter', async () => {
  const { isSupported, Queue } = await import('../src/index.js');
  expect(await isSupported()).toBe(true);
  const queue = await Queue.create();
  queue.destroy();
});

test("a GPUDevice from the app's own Dawn, without WebGPU's globals, runs launches and reads", async () => {
  const { Queue } = await import('../src/index.js');
  const { factor, fill } = await import('./fixtures/fill.js');
  const { adapter } = await requestAdapter();
  const device = await adapter.requestDevice();
  const names = ['GPUBufferUsage', 'GPUShaderStage', 'GPUMapMode'] as const;
  const saved = names.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));
  for (const name of names) Reflect.deleteProperty(globalThis, name);
  try {
    expect(typeof (globalThis as { GPUBufferUsage?: unknown }).GPUBufferUsage).toBe('undefined');
    const queue = await Queue.create({ device });
    const n = 70;
    const out = queue.buffer(new Uint32Array(n).fill(0xdeadbeef));
    await queue
      .submit((cgh) => {
        cgh.setSpecializationConstant(factor, 13);
        cgh.parallelFor(n, fill, { out });
      })
      .wait();
    expect(Array.from(await out.read())).toEqual(Array.from({ length: n }, (_, i) => 13 * i));
  } finally {
    names.forEach((name, i) => {
      const descriptor = saved[i];
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    });
    device.destroy();
  }
});
