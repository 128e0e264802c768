// Times each WGSL scan in ./wgsl beside a vec4 copy, in one process: every output poisoned and
// checked against a CPU prefix sum first, then 3 rounds of REPS passes each, interleaved, per-pass
// timestamps. LOG2 sets the size (default 28), FB=1 forces the fallback of the syclts variants,
// SOFT=1 uses the runtime's adapter (SwiftShader here) instead of the hardware one.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);
const dir = new URL('./wgsl/', import.meta.url).pathname;
const N = 1 << Number(process.env.LOG2 ?? 28),
  TILE = 8192,
  TILES = N / TILE,
  REPS = Number(process.env.REPS ?? 20),
  ROUNDS = 3;
const gpu = process.env.SOFT
  ? null
  : create([
      'enable-dawn-features=allow_unsafe_apis',
      'disable-dawn-features=timestamp_quantization',
    ]);
globalThis.keepDawn = gpu; // Dawn must not be collected while its devices live
const adapter = process.env.SOFT
  ? (await (await import('@syclts/runtime')).requestAdapter()).adapter
  : await gpu.requestAdapter({ powerPreference: 'high-performance' });
const L = adapter.limits;
const device = await adapter.requestDevice({
  requiredFeatures: ['timestamp-query', 'subgroups'].filter((f) => adapter.features.has(f)),
  requiredLimits: {
    maxStorageBufferBindingSize: L.maxStorageBufferBindingSize,
    maxBufferSize: L.maxBufferSize,
  },
});
console.log(adapter.info.vendor, adapter.info.architecture, adapter.info.description);
const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
const src = device.createBuffer({ size: 4 * N, usage: S });
const dst = device.createBuffer({ size: 4 * N, usage: S });
const state = device.createBuffer({ size: 4 * (2 + 2 * TILES), usage: S });
const input = new Uint32Array(N);
let seed = (Date.now() ^ 0x9e3779b9) >>> 0;
for (let i = 0; i < N; i++) {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  input[i] = seed;
}
device.queue.writeBuffer(src, 0, input);
console.error('input written');
process.on('exit', (c) => console.error('exit', c));
const expected = new Uint32Array(N);
{
  let s = 0;
  for (let i = 0; i < N; i++) {
    expected[i] = s;
    s = (s + input[i]) >>> 0;
  }
}
// launch uniform of syclts's layout: global_range, group_offset, n, tiles, init, id
const launch = device.createBuffer({
  size: 48,
  usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
});
device.queue.writeBuffer(
  launch,
  0,
  new Uint32Array([TILES * 256, 1, 1, 0, 0, 0, 0, 0, N, TILES, 0, 0]),
);
const params = device.createBuffer({
  size: 16,
  usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
});
device.queue.writeBuffer(params, 0, new Uint32Array([N, N / 4, TILES, 0]));
const poison = await device.createComputePipelineAsync({
  layout: 'auto',
  compute: {
    module: device.createShaderModule({
      code: `@group(0) @binding(0) var<storage, read_write> d: array<vec4u>;
   @compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) { let i = g.x + g.y * nw.x * 256u; if (i < arrayLength(&d)) { d[i] = vec4u(0xdeadbeefu); } }`,
    }),
  },
});
const poisonGroup = device.createBindGroup({
  layout: poison.getBindGroupLayout(0),
  entries: [{ binding: 0, resource: { buffer: dst } }],
});
const copy = await device.createComputePipelineAsync({
  layout: 'auto',
  compute: {
    module: device.createShaderModule({
      code: `@group(0) @binding(0) var<storage, read> s: array<vec4u>; @group(0) @binding(1) var<storage, read_write> d: array<vec4u>;
   @compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) { let i = g.x + g.y * nw.x * 256u; if (i < arrayLength(&d)) { d[i] = s[i]; } }`,
    }),
  },
});
const copyGroup = device.createBindGroup({
  layout: copy.getBindGroupLayout(0),
  entries: [
    { binding: 0, resource: { buffer: src } },
    { binding: 1, resource: { buffer: dst } },
  ],
});
const wgs = Math.ceil(N / 4 / 256);
const copyGrid = [Math.min(wgs, 32768), Math.ceil(wgs / 32768)];
const variants = [
  {
    name: 'copy vec4',
    record(pass) {
      pass.setPipeline(copy);
      pass.setBindGroup(0, copyGroup);
      pass.dispatchWorkgroups(...copyGrid);
    },
    copy: true,
  },
];
for (const f of readdirSync(dir)
  .filter((f) => f.endsWith('.wgsl'))
  .sort()) {
  const code = readFileSync(dir + f, 'utf8');
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const syclts = code.includes('fn k_scanTiles');
  const pipeline = await device.createComputePipelineAsync({
    layout: 'auto',
    compute: {
      module,
      entryPoint: syclts ? 'k_scanTiles' : 'main',
      constants: syclts && process.env.FB ? { 1: 1 } : {},
    },
  });
  const entries = syclts
    ? [
        [2, launch],
        [3, src],
        [4, dst],
        [5, state],
        [6, src],
        [7, dst],
      ]
    : [
        [0, src],
        [1, dst],
        [2, state],
        [3, params],
      ];
  const used = entries.filter(([b]) => new RegExp(`@binding\\(${b}\\)`).test(code));
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: used.map(([binding, buffer]) => ({ binding, resource: { buffer } })),
  });
  const err = await device.popErrorScope();
  if (err) {
    console.error(f, err.message);
    continue;
  }
  variants.push({
    name: f.replace('.wgsl', ''),
    clear: true,
    record(pass) {
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(TILES);
    },
  });
}
const qs = device.createQuerySet({ type: 'timestamp', count: 2 * REPS });
const resolved = device.createBuffer({
  size: 16 * REPS,
  usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
});
const readable = device.createBuffer({
  size: 16 * REPS,
  usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});
const back = device.createBuffer({
  size: 4 * N,
  usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});
async function run(v, timed) {
  const enc = device.createCommandEncoder();
  for (let i = 0; i < (timed ? REPS : 3); i++) {
    if (v.clear) enc.clearBuffer(state);
    const pass = enc.beginComputePass(
      timed
        ? {
            timestampWrites: {
              querySet: qs,
              beginningOfPassWriteIndex: 2 * i,
              endOfPassWriteIndex: 2 * i + 1,
            },
          }
        : {},
    );
    v.record(pass);
    pass.end();
  }
  if (timed) {
    enc.resolveQuerySet(qs, 0, 2 * REPS, resolved, 0);
    enc.copyBufferToBuffer(resolved, 0, readable, 0, 16 * REPS);
  }
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  if (!timed) return null;
  await readable.mapAsync(GPUMapMode.READ);
  const t = new BigUint64Array(readable.getMappedRange().slice(0));
  readable.unmap();
  return Array.from({ length: REPS }, (_, i) => Number(t[2 * i + 1] - t[2 * i]) / 1000);
}
async function check(v) {
  const enc = device.createCommandEncoder();
  let p = enc.beginComputePass();
  p.setPipeline(poison);
  p.setBindGroup(0, poisonGroup);
  p.dispatchWorkgroups(...copyGrid);
  p.end();
  enc.clearBuffer(state);
  p = enc.beginComputePass();
  v.record(p);
  p.end();
  enc.copyBufferToBuffer(dst, 0, back, 0, 4 * N);
  device.queue.submit([enc.finish()]);
  await back.mapAsync(GPUMapMode.READ);
  const got = new Uint32Array(back.getMappedRange());
  const want = v.copy ? input : expected;
  let bad = 0,
    first = -1;
  for (let i = 0; i < N; i++)
    if (got[i] !== want[i]) {
      bad++;
      if (first < 0) first = i;
    }
  back.unmap();
  const fb = new Uint32Array(4);
  {
    const e = device.createCommandEncoder();
    const sb = device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    e.copyBufferToBuffer(state, 4 * (1 + 2 * TILES), sb, 0, 4);
    device.queue.submit([e.finish()]);
    await sb.mapAsync(GPUMapMode.READ);
    fb.set(new Uint32Array(sb.getMappedRange(), 0, 1));
    sb.unmap();
  }
  return (v.copy ? '' : `fb ${fb[0]} `) + (bad ? `WRONG ${bad} (first ${first})` : 'ok');
}
console.error('variants', variants.length);
const times = new Map(variants.map((v) => [v.name, []]));
const checks = new Map();
for (const v of variants) {
  checks.set(v.name, await check(v));
  console.error('checked', v.name, checks.get(v.name));
  await run(v, false);
}
if (device.features.has('timestamp-query'))
  for (let r = 0; r < ROUNDS; r++)
    for (const v of variants) times.get(v.name).push(...(await run(v, true)));
else {
  console.log([...checks].map(([k, c]) => `${k}: ${c}`).join('\n'));
  process.exit();
}
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};
const copyUs = med(times.get('copy vec4'));
const lines = [
  '| variant | median µs | best µs | GB/s | x copy | check |',
  '| --- | ---: | ---: | ---: | ---: | --- |',
];
for (const v of variants) {
  const t = times.get(v.name),
    m = med(t);
  lines.push(
    `| ${v.name} | ${m.toFixed(1)} | ${Math.min(...t).toFixed(1)} | ${((8 * N) / m / 1000).toFixed(0)} | ${(copyUs / m).toFixed(3)} | ${checks.get(v.name)} |`,
  );
}
console.log(lines.join('\n'));
if (process.env.OUT)
  writeFileSync(
    `${process.env.OUT}/scan-${Date.now()}.json`,
    JSON.stringify(Object.fromEntries(times)),
  );
