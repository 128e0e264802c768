// Device-memory bandwidth ceiling as WebGPU sees it: a vec4 copy kernel over 1 GiB,
// counting bytes read plus bytes written, GPU timestamps, median of 15.
//   node bandwidth.mjs [--seconds S]
// With --seconds, rounds of 15 passes for about S seconds (the first right away, as without it),
// and a second line: the first, best and last rounds' medians (a fresh process's first rounds can
// be much slower than its later ones).
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);
// Dawn rounds timestamps to 2^16 ns unless timestamp_quantization is off.
const gpu = create([
  'enable-dawn-features=allow_unsafe_apis',
  'disable-dawn-features=timestamp_quantization',
]);
globalThis.__gpu = gpu; // Dawn crashes if its instance is collected while devices live
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const device = await adapter.requestDevice({
  requiredFeatures: ['timestamp-query'],
  requiredLimits: {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
  },
});
const bytes = Math.min(1 << 30, adapter.limits.maxStorageBufferBindingSize);
const n4 = bytes / 16;
const module = device.createShaderModule({
  code: `
@group(0) @binding(0) var<storage, read> src: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4f>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let i = g.x + g.y * nw.x * 256u;
  if (i < ${n4}u) { dst[i] = src[i]; }
}`,
});
const bgl = device.createBindGroupLayout({
  entries: [
    { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
    { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
  ],
});
const pipeline = device.createComputePipeline({
  layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
  compute: { module, entryPoint: 'main' },
});
const src = device.createBuffer({
  size: bytes,
  usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
});
const dst = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE });
device.queue.writeBuffer(
  src,
  0,
  new Float32Array(bytes / 4).map(() => Math.random()),
);
const bg = device.createBindGroup({
  layout: bgl,
  entries: [
    { binding: 0, resource: { buffer: src } },
    { binding: 1, resource: { buffer: dst } },
  ],
});
const reps = 15,
  groups = n4 / 256,
  gx = Math.min(groups, 32768),
  gy = Math.ceil(groups / gx);
const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] || 0);
const qs = device.createQuerySet({ type: 'timestamp', count: 2 * reps });
const res = device.createBuffer({
  size: 16 * reps,
  usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
});
/** One round: `reps` passes in one submission, each with its own timestamps; sorted µs. */
async function round() {
  const rd = device.createBuffer({
    size: 16 * reps,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const enc = device.createCommandEncoder();
  for (let r = 0; r < reps; r++) {
    const p = enc.beginComputePass({
      timestampWrites: {
        querySet: qs,
        beginningOfPassWriteIndex: 2 * r,
        endOfPassWriteIndex: 2 * r + 1,
      },
    });
    p.setPipeline(pipeline);
    p.setBindGroup(0, bg);
    p.dispatchWorkgroups(gx, gy);
    p.end();
  }
  enc.resolveQuerySet(qs, 0, 2 * reps, res, 0);
  enc.copyBufferToBuffer(res, 0, rd, 0, 16 * reps);
  device.queue.submit([enc.finish()]);
  await rd.mapAsync(GPUMapMode.READ);
  const t = new BigUint64Array(rd.getMappedRange());
  const us = Array.from({ length: reps }, (_, r) => Number(t[2 * r + 1] - t[2 * r]) / 1000).sort(
    (a, b) => a - b,
  );
  rd.destroy();
  return us;
}
const rate = (us) => ((2 * bytes) / us / 1e3).toFixed(0);
const us = await round();
const med = us[reps >> 1];
console.log(
  `copy bandwidth: ${rate(med)} GB/s (${bytes} B read + ${bytes} B written in ${med.toFixed(1)} us, median of ${reps}); best ${rate(us[0])} GB/s (${us[0].toFixed(1)} us)`,
);
if (seconds > 0) {
  const medians = [med];
  const until = performance.now() + 1000 * seconds;
  while (performance.now() < until) medians.push((await round())[reps >> 1]);
  const best = Math.min(...medians);
  const last = medians.at(-1);
  console.log(
    `rounds: ${medians.length} in ${seconds} s; first ${rate(med)} GB/s (${med.toFixed(1)} us), best ${rate(best)} GB/s (${best.toFixed(1)} us, round ${medians.indexOf(best) + 1}), last ${rate(last)} GB/s (${last.toFixed(1)} us); medians ${medians.map((m) => m.toFixed(0)).join(' ')}`,
  );
}
process.exit(0);
