// Times hand-written WGSL f16 subgroup-matrix multiplies (tile configurations) with GPU
// timestamps and checks each against a float64 reference. Run on a GPU: node matmul-f16-tune.mjs [N]
import { create, globals } from 'webgpu';
import { matmulF16Wgsl, sampledCheck, testMatrix } from './matmul-f16-wgsl.mjs';

Object.assign(globalThis, globals);
const gpu = create([
  `enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia${process.env.ROBUST === '0' ? ',disable_robustness' : ''}`,
  'disable-dawn-features=timestamp_quantization',
]);
globalThis.__gpu = gpu;
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const features = [
  'timestamp-query',
  'shader-f16',
  'subgroups',
  'chromium-experimental-subgroup-matrix',
];
for (const f of features) if (!adapter.features.has(f)) throw new Error(`adapter lacks ${f}`);
console.log(
  `adapter: ${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`,
);
console.log(
  'subgroup matrix configs:',
  JSON.stringify(
    adapter.info.subgroupMatrixConfigs.map(
      (c) => `${c.componentType}->${c.resultComponentType} ${c.M}x${c.N}x${c.K}`,
    ),
  ),
);
console.log(
  'wgsl language features:',
  [...gpu.wgslLanguageFeatures].join(' '),
  'robustness',
  process.env.ROBUST ?? '1',
);
const device = await adapter.requestDevice({
  requiredFeatures: features,
  requiredLimits: {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
    maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
  },
});
console.log('workgroup storage limit', adapter.limits.maxComputeWorkgroupStorageSize);
device.addEventListener?.('uncapturederror', (e) => console.log('uncaptured', e.error.message));
const N = Number(process.argv[2] ?? 4096);
const configs = JSON.parse(process.env.CFGS ?? '[{}]');
const reps = 10;
const rounds = 5;

const mk = (data, usage) => {
  const b = device.createBuffer({ size: data.byteLength, usage: usage | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(b, 0, data);
  return b;
};
const querySet = device.createQuerySet({ type: 'timestamp', count: 2 * reps });
const resolve = device.createBuffer({
  size: 16 * reps,
  usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
});
const readTs = device.createBuffer({
  size: 16 * reps,
  usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});
const C = device.createBuffer({
  size: N * N * 4,
  usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
});
const cRead = device.createBuffer({
  size: N * N * 4,
  usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});
const data = {
  int: [testMatrix(N, 'int'), testMatrix(N, 'int')],
  real: [testMatrix(N, 'real'), testMatrix(N, 'real')],
};
const bufs = Object.fromEntries(
  Object.entries(data).map(([k, [a, b]]) => [
    k,
    [mk(a.bits, GPUBufferUsage.STORAGE), mk(b.bits, GPUBufferUsage.STORAGE)],
  ]),
);

async function check(pipeline, bgl, k, kind) {
  const [a, b] = data[kind];
  const bg = device.createBindGroup({
    layout: bgl,
    entries: [bufs[kind][0], bufs[kind][1], C].map((buffer, binding) => ({
      binding,
      resource: { buffer },
    })),
  });
  device.queue.writeBuffer(C, 0, new Float32Array(N * N).fill(Number.NaN));
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(...k.workgroups());
  pass.end();
  enc.copyBufferToBuffer(C, 0, cRead, 0, N * N * 4);
  device.queue.submit([enc.finish()]);
  await cRead.mapAsync(GPUMapMode.READ);
  const c = new Float32Array(cRead.getMappedRange().slice(0));
  cRead.unmap();
  return sampledCheck(a, b, c, N, kind, kind === 'int' ? 4096 : 512);
}

const ready = [];
for (const cfg of configs) {
  let k;
  try {
    k = matmulF16Wgsl({ ...cfg, N });
  } catch (e) {
    console.log(JSON.stringify(cfg), 'n/a', e.message);
    continue;
  }
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code: k.code });
  const info = await module.getCompilationInfo();
  const errs = info.messages.filter((m) => m.type === 'error');
  const bgl = device.createBindGroupLayout({
    entries: [0, 1, 2].map((binding) => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: binding < 2 ? 'read-only-storage' : 'storage' },
    })),
  });
  const t0 = performance.now();
  const pipeline = await device
    .createComputePipelineAsync({
      layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
      compute: { module, entryPoint: 'main' },
    })
    .catch((e) => e);
  const compileMs = performance.now() - t0;
  const err = await device.popErrorScope();
  if (errs.length || err || pipeline instanceof Error) {
    console.log(
      JSON.stringify(cfg),
      'error',
      (
        errs.map((m) => `${m.lineNum}:${m.message}`).join(' | ') ||
        String(err?.message ?? pipeline.message)
      ).slice(0, 600),
    );
    continue;
  }
  const exact = await check(pipeline, bgl, k, 'int');
  const real = await check(pipeline, bgl, k, 'real');
  const bg = device.createBindGroup({
    layout: bgl,
    entries: [bufs.real[0], bufs.real[1], C].map((buffer, binding) => ({
      binding,
      resource: { buffer },
    })),
  });
  ready.push({ cfg, k, bg, pipeline, compileMs, exact, real, times: [] });
}

/** One round of `reps` launches of a kernel, each pass timed; microseconds. */
async function round({ k, bg, pipeline }) {
  const enc = device.createCommandEncoder();
  for (let r = 0; r < reps; r++) {
    const pass = enc.beginComputePass({
      timestampWrites: {
        querySet,
        beginningOfPassWriteIndex: 2 * r,
        endOfPassWriteIndex: 2 * r + 1,
      },
    });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(...k.workgroups());
    pass.end();
  }
  enc.resolveQuerySet(querySet, 0, 2 * reps, resolve, 0);
  enc.copyBufferToBuffer(resolve, 0, readTs, 0, 16 * reps);
  device.queue.submit([enc.finish()]);
  await readTs.mapAsync(GPUMapMode.READ);
  const ts = new BigUint64Array(readTs.getMappedRange().slice(0));
  readTs.unmap();
  return Array.from({ length: reps }, (_, r) => Number(ts[2 * r + 1] - ts[2 * r]) / 1e3);
}

// The GPU's clocks rise under load: about two seconds of the first kernel before any timing,
// then the kernels in turn, round after round, so that drift reaches all of them alike.
if (ready.length) {
  const until = performance.now() + 2000;
  while (performance.now() < until) await round(ready[0]);
}
for (let r = 0; r < rounds; r++)
  for (const kernel of ready) kernel.times.push(...(await round(kernel)));
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
for (const { cfg, k, times, compileMs, exact, real } of ready) {
  const tf = (us) => (k.flops / (us * 1e-6) / 1e12).toFixed(1);
  const perRound = Array.from({ length: rounds }, (_, r) =>
    tf(median(times.slice(r * reps, (r + 1) * reps))),
  );
  console.log(
    JSON.stringify(cfg),
    `median ${median(times).toFixed(1)} us = ${tf(median(times))} TFLOP/s (rounds ${perRound.join(' ')}), best ${tf(Math.min(...times))}; compile ${compileMs.toFixed(0)} ms;`,
    `ints exact ${exact.samples - exact.bad}/${exact.samples}; reals within 1e-5: ${real.samples - real.bad}/${real.samples} (worst rel ${real.worst.toExponential(2)})`,
  );
}
process.exit(0);
