// Times hand-written WGSL matrix multiplies (tile configurations x constant kinds) with GPU
// timestamps. Run on the GPU machine: node matmul-tune.mjs [N...]
import { create, globals } from 'webgpu';
import { matmulWgsl } from './matmul-wgsl.mjs';

Object.assign(globalThis, globals);
// Keep the instance referenced: Dawn crashes if it is collected while its devices live.
// Dawn rounds timestamps to 2^16 ns unless timestamp_quantization is off.
const gpu = create([
  'enable-dawn-features=allow_unsafe_apis',
  'disable-dawn-features=timestamp_quantization',
]);
globalThis.__gpu = gpu;
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const device = await adapter.requestDevice({
  requiredFeatures: ['timestamp-query'],
  requiredLimits: {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
    maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
  },
});
console.log(
  `adapter: ${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`,
);
const sizes = process.argv.slice(2).map(Number);
const configs = JSON.parse(
  process.env.CFGS ??
    JSON.stringify([
      { BM: 64, BN: 64, BK: 16, TM: 4, TN: 4 },
      { BM: 128, BN: 128, BK: 8, TM: 8, TN: 8 },
      { BM: 128, BN: 128, BK: 16, TM: 8, TN: 8 },
      { BM: 128, BN: 64, BK: 16, TM: 8, TN: 4 },
      { BM: 64, BN: 128, BK: 16, TM: 4, TN: 8 },
      { BM: 128, BN: 128, BK: 32, TM: 8, TN: 8 },
    ]),
);
const variants = (process.env.VARIANTS ?? 'literal,override,uniform').split(',');
const reps = 15;
const querySet = device.createQuerySet({ type: 'timestamp', count: 2 * reps });
const resolve = device.createBuffer({
  size: 16 * reps,
  usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
});
const readTs = device.createBuffer({
  size: 16 * reps,
  usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});
const rows = [];
for (const N of sizes.length ? sizes : [2048, 4096]) {
  const rand = () => Float32Array.from({ length: N * N }, () => Math.random() * 2 - 1);
  const mk = (data, usage) => {
    const b = device.createBuffer({
      size: data.byteLength,
      usage: usage | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(b, 0, data);
    return b;
  };
  const Ah = rand(),
    Bh = rand();
  const A = mk(Ah, GPUBufferUsage.STORAGE),
    B = mk(Bh, GPUBufferUsage.STORAGE);
  const C = device.createBuffer({
    size: N * N * 4,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  const cRead = device.createBuffer({
    size: N * N * 4,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const uni = mk(new Uint32Array([N, 0, 0, 0]), GPUBufferUsage.UNIFORM);
  for (const cfg of configs)
    for (const variant of variants) {
      let k;
      try {
        k = matmulWgsl({ ...cfg, n: variant, N });
      } catch (e) {
        rows.push([N, JSON.stringify(cfg), variant, 'n/a', e.message]);
        continue;
      }
      device.pushErrorScope('validation');
      const module = device.createShaderModule({ code: k.code });
      const entries = [0, 1, 2].map((binding) => ({
        binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: binding < 2 ? 'read-only-storage' : 'storage' },
      }));
      if (variant === 'uniform')
        entries.push({
          binding: 3,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: 'uniform' },
        });
      const bgl = device.createBindGroupLayout({ entries });
      const t0 = performance.now();
      const pipeline = await device
        .createComputePipelineAsync({
          layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
          compute: {
            module,
            entryPoint: 'main',
            constants: variant === 'override' ? { 0: N } : {},
          },
        })
        .catch((e) => e);
      const compileMs = performance.now() - t0;
      const err = await device.popErrorScope();
      if (err || pipeline instanceof Error) {
        rows.push([
          N,
          JSON.stringify(cfg),
          variant,
          'error',
          String(err?.message ?? pipeline.message).slice(0, 200),
        ]);
        continue;
      }
      const res = [
        { binding: 0, resource: { buffer: A } },
        { binding: 1, resource: { buffer: B } },
        { binding: 2, resource: { buffer: C } },
      ];
      if (variant === 'uniform') res.push({ binding: 3, resource: { buffer: uni } });
      const bg = device.createBindGroup({ layout: bgl, entries: res });
      const run = (ts) => {
        const enc = device.createCommandEncoder();
        for (let r = 0; r < reps; r++) {
          const pass = enc.beginComputePass(
            ts
              ? {
                  timestampWrites: {
                    querySet,
                    beginningOfPassWriteIndex: 2 * r,
                    endOfPassWriteIndex: 2 * r + 1,
                  },
                }
              : undefined,
          );
          pass.setPipeline(pipeline);
          pass.setBindGroup(0, bg);
          pass.dispatchWorkgroups(...k.workgroups(N));
          pass.end();
        }
        if (ts) {
          enc.resolveQuerySet(querySet, 0, 2 * reps, resolve, 0);
          enc.copyBufferToBuffer(resolve, 0, readTs, 0, 16 * reps);
        }
        device.queue.submit([enc.finish()]);
      };
      run(false);
      run(true);
      await readTs.mapAsync(GPUMapMode.READ);
      const t = new BigUint64Array(readTs.getMappedRange());
      const us = [];
      for (let r = 0; r < reps; r++) us.push(Number(t[2 * r + 1] - t[2 * r]) / 1000);
      readTs.unmap();
      us.sort((a, b) => a - b);
      const med = us[reps >> 1];
      // spot-check 64 entries against a float64 reference
      const enc = device.createCommandEncoder();
      enc.copyBufferToBuffer(C, 0, cRead, 0, N * N * 4);
      device.queue.submit([enc.finish()]);
      await cRead.mapAsync(GPUMapMode.READ);
      const c = new Float32Array(cRead.getMappedRange());
      let maxRel = 0;
      for (let s = 0; s < 64; s++) {
        const i = (s * 7919) % N,
          j = (s * 104729) % N;
        let ref = 0,
          mag = 0;
        for (let q = 0; q < N; q++) {
          ref += Ah[i * N + q] * Bh[q * N + j];
          mag += Math.abs(Ah[i * N + q] * Bh[q * N + j]);
        }
        maxRel = Math.max(maxRel, Math.abs(c[i * N + j] - ref) / mag);
      }
      cRead.unmap();
      rows.push([
        N,
        JSON.stringify(cfg),
        variant,
        `${med.toFixed(1)} us`,
        `${((2 * N ** 3) / med / 1e6).toFixed(2)} TFLOP/s`,
        `compile ${compileMs.toFixed(0)} ms`,
        `err ${maxRel.toExponential(1)}`,
      ]);
      console.log(rows.at(-1).join(' | '));
    }
}
console.log('\nN | config | constants | median | rate | pipeline | max rel err');
for (const r of rows) console.log(r.join(' | '));
process.exit(0);
