// Hand-written WGSL 3x3 convolutions of an N x N f32 image (edges clamped) beside a vec4f copy
// of the same bytes, GPU timestamps per pass, each output checked against a CPU reference (every
// 97th entry): one pixel an item (the suite's literal kernel), and four pixels an item as vec4f
// over one, two or four rows, in several workgroup shapes. After 2.5 s of the copy (the GPU's
// clocks rise under load), eight interleaved rounds of 15 passes each; medians.
//
//   node conv-tune.mjs [N]        (default 4096)
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);
const gpu = create(['disable-dawn-features=timestamp_quantization']);
globalThis.__gpu = gpu;
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const device = await adapter.requestDevice({
  requiredFeatures: ['timestamp-query'],
  requiredLimits: {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
  },
});
const N = Number(process.argv[2] ?? 4096);
const C = [-0.0625, -0.125, -0.0625, -0.125, 1.75, -0.125, -0.0625, -0.125, -0.0625];
const coeffs = `const COEFFS = array<f32, 9>(${C.map((v) => `${v}f`).join(', ')});`;
const head = `const W: i32 = ${N}i;\nconst H: i32 = ${N}i;\nconst W4: i32 = ${N / 4}i;\n${coeffs}\n`;
const scalar = `${head}@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let y = i32(gid.y); let x = i32(gid.x); var acc = 0.0f;
  for (var dy = 0i; dy < 3i; dy++) { let row = clamp(y + dy - 1i, 0i, H - 1i) * W;
    for (var dx = 0i; dx < 3i; dx++) { acc += COEFFS[dy * 3i + dx] * src[row + clamp(x + dx - 1i, 0i, W - 1i)]; } }
  dst[y * W + x] = acc;
}`;
// Each item: 4 outputs along x, rows as vec4 (left, centre, right), edges clamped.
const vec4 = (rows, wg) => `${head}@group(0) @binding(0) var<storage, read> src: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4f>;
fn tap(r: i32, q: i32) -> array<f32, 6> {
  let row = clamp(r, 0i, H - 1i) * W4;
  let c = src[row + q];
  let l = src[row + max(q - 1i, 0i)];
  let rr = src[row + min(q + 1i, W4 - 1i)];
  let lp = select(l.w, c.x, q == 0i);
  let rp = select(rr.x, c.w, q == W4 - 1i);
  return array<f32, 6>(lp, c.x, c.y, c.z, c.w, rp);
}
@compute @workgroup_size(${wg[0]}, ${wg[1]})
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let q = i32(gid.x); let y0 = i32(gid.y) * ${rows}i;
  var t: array<array<f32, 6>, ${rows + 2}>;
  for (var i = 0i; i < ${rows + 2}i; i++) { t[i] = tap(y0 + i - 1i, q); }
  for (var j = 0i; j < ${rows}i; j++) {
    var o = vec4f(0.0f);
    for (var dy = 0i; dy < 3i; dy++) { for (var dx = 0i; dx < 3i; dx++) {
      let k = COEFFS[dy * 3i + dx];
      o += k * vec4f(t[j + dy][dx], t[j + dy][dx + 1], t[j + dy][dx + 2], t[j + dy][dx + 3]);
    } }
    dst[(y0 + j) * W4 + q] = o;
  }
}`;
const copy = `@group(0) @binding(0) var<storage, read> src: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4f>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) gid: vec3u) { dst[gid.x] = src[gid.x]; }`;
const variants = [
  { name: 'copy vec4', code: copy, groups: [(N * N) / 4 / 256, 1] },
  { name: "scalar (the suite's literal)", code: scalar, groups: [N / 64, N / 4] },
  { name: 'vec4 x1 row, wg 64x4', code: vec4(1, [64, 4]), groups: [N / 4 / 64, N / 4] },
  { name: 'vec4 x2 rows, wg 64x4', code: vec4(2, [64, 4]), groups: [N / 4 / 64, N / 8] },
  { name: 'vec4 x4 rows, wg 64x4', code: vec4(4, [64, 4]), groups: [N / 4 / 64, N / 16] },
  { name: 'vec4 x2 rows, wg 128x2', code: vec4(2, [128, 2]), groups: [N / 4 / 128, N / 4] },
  { name: 'vec4 x1 row, wg 256x1', code: vec4(1, [256, 1]), groups: [N / 4 / 256, N] },
];
const image = new Float32Array(N * N).map(() => Math.random());
const src = device.createBuffer({
  size: N * N * 4,
  usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
});
device.queue.writeBuffer(src, 0, image);
const dst = device.createBuffer({
  size: N * N * 4,
  usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
});
const read = device.createBuffer({
  size: N * N * 4,
  usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});
const reps = 15;
const qs = device.createQuerySet({ type: 'timestamp', count: 2 * reps });
const res = device.createBuffer({
  size: 16 * reps,
  usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
});
const rts = device.createBuffer({
  size: 16 * reps,
  usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});
const ref = new Float32Array(N * N);
const at = (y, x) => image[Math.min(Math.max(y, 0), N - 1) * N + Math.min(Math.max(x, 0), N - 1)];
for (let y = 0; y < N; y++)
  for (let x = 0; x < N; x++) {
    let a = 0;
    for (let dy = 0; dy < 3; dy++)
      for (let dx = 0; dx < 3; dx++)
        a = Math.fround(a + Math.fround(C[dy * 3 + dx] * at(y + dy - 1, x + dx - 1)));
    ref[y * N + x] = a;
  }
for (const v of variants) {
  v.pipeline = await device.createComputePipelineAsync({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: v.code }), entryPoint: 'main' },
  });
  v.bg = device.createBindGroup({
    layout: v.pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: src } },
      { binding: 1, resource: { buffer: dst } },
    ],
  });
  device.queue.writeBuffer(dst, 0, new Float32Array(N * N).fill(NaN));
  const e = device.createCommandEncoder();
  const p = e.beginComputePass();
  p.setPipeline(v.pipeline);
  p.setBindGroup(0, v.bg);
  p.dispatchWorkgroups(...v.groups);
  p.end();
  e.copyBufferToBuffer(dst, 0, read, 0, N * N * 4);
  device.queue.submit([e.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(read.getMappedRange().slice(0));
  read.unmap();
  let worst = 0;
  for (let i = 0; i < N * N; i += 97) {
    const want = v.name.startsWith('copy') ? image[i] : ref[i];
    worst = Math.max(worst, Math.abs(out[i] - want));
    if (Number.isNaN(out[i])) worst = Infinity;
  }
  v.worst = worst;
  v.times = [];
}
async function round(v) {
  const e = device.createCommandEncoder();
  for (let r = 0; r < reps; r++) {
    const p = e.beginComputePass({
      timestampWrites: {
        querySet: qs,
        beginningOfPassWriteIndex: 2 * r,
        endOfPassWriteIndex: 2 * r + 1,
      },
    });
    p.setPipeline(v.pipeline);
    p.setBindGroup(0, v.bg);
    p.dispatchWorkgroups(...v.groups);
    p.end();
  }
  e.resolveQuerySet(qs, 0, 2 * reps, res, 0);
  e.copyBufferToBuffer(res, 0, rts, 0, 16 * reps);
  device.queue.submit([e.finish()]);
  await rts.mapAsync(GPUMapMode.READ);
  const ts = new BigUint64Array(rts.getMappedRange().slice(0));
  rts.unmap();
  return Array.from({ length: reps }, (_, r) => Number(ts[2 * r + 1] - ts[2 * r]) / 1e3);
}
const until = performance.now() + 2500;
while (performance.now() < until) await round(variants[0]);
for (let k = 0; k < 8; k++) for (const v of variants) v.times.push(...(await round(v)));
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const copyUs = med(variants[0].times);
for (const v of variants) {
  const us = med(v.times);
  console.log(
    `${v.name.padEnd(32)} ${us.toFixed(1).padStart(8)} us  ${((2 * N * N * 4) / us / 1e3).toFixed(0)} GB/s  ${(copyUs / us).toFixed(3)} of copy  max err ${v.worst.toExponential(1)}`,
  );
}
process.exit(0);
