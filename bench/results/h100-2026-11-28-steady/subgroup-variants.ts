// The sub-group reduce of the collectives rows in variants, side by side in one process (each
// variant timed three times, their order rotating): the hand-written kernel, the same with the
// built-ins syclts's entry point declares, with its helper function, with every item writing;
// the kernel syclts made, with its launch-slot code on and off. Its imports are bench/src/gpu/'s:
// to run it, place it in a folder under bench/src/ and bundle it as scripts/bundle.mjs does.

import { bind, grid, pipeline, readBack, storage, uniforms } from '../gpu/collectives/common.js';
import { groupWgsl } from '../gpu/collectives/group.js';
import { benchDevice } from '../gpu/device.js';
import { timePasses } from '../gpu/pass-timing.js';
import { directLaunch } from '../gpu/syclts-direct.js';
import { subGroupScan, subGroupSum } from '../kernels/collectives.sycl.ts';

const log2 = Number(process.env.LOG2 ?? 28);
const n = 2 ** log2;
const { device, description } = await benchDevice();
console.log(description, 'n = 2^' + log2);
const input = storage(device, 4 * n);
const words = new Uint32Array(n);
for (let i = 0; i < n; i++) words[i] = (Math.random() * 2 ** 32) >>> 0;
const floats = new Float32Array(n);
for (let i = 0; i < n; i++) floats[i] = words[i]! / 2 ** 32;
device.queue.writeBuffer(input, 0, floats);
const output = storage(device, 4 * n);
const groups = n / 256;
const [gx, gy] = grid(groups);
type Rec = (e: GPUCommandEncoder, t?: (f: boolean, l: boolean) => GPUComputePassDescriptor) => void;
async function hand(code: string): Promise<Rec> {
  const p = await pipeline(device, code);
  const params = uniforms(device, [n, gx, groups]);
  const g = bind(device, p, [input, output, params]);
  return (e, t) => {
    const pass = e.beginComputePass(t?.(true, true));
    pass.setPipeline(p);
    pass.setBindGroup(0, g);
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
  };
}
const base = groupWgsl('reduce', 'subgroup', 'sub-group');
const more = base.replace(
  '@builtin(subgroup_size) sgs: u32',
  '@builtin(subgroup_size) sgs: u32, @builtin(subgroup_id) sgid: u32, @builtin(num_subgroups) nsg: u32',
);
const helper = base
  .replace(
    '@compute',
    'fn red(x: f32, a: u32) -> f32 {\n  let r = subgroupAdd(x);\n  return r;\n}\n@compute',
  )
  .replace('let total = subgroupAdd(x);', 'let total = red(x, sgi);');
const writeAll = base.replace(
  'if (sgi == 0u && i < params.n) { dst[i] = total; }',
  'if (i < params.n) { dst[i] = total; }',
);
const variants: [string, Rec][] = [
  ['hand-written', await hand(base)],
  ['hand + subgroup_id/num_subgroups', await hand(more)],
  ['hand + helper fn', await hand(helper)],
  ['hand, every item writes', await hand(writeAll)],
];
// Pipelines made while slotsOff is set get launch_slots_on = false.
let slotsOff = false;
const made = device.createComputePipelineAsync.bind(device);
device.createComputePipelineAsync = (d: GPUComputePipelineDescriptor) =>
  made(
    d.compute.constants && 'launch_slots_on' in d.compute.constants
      ? {
          ...d,
          compute: {
            ...d.compute,
            constants: { ...d.compute.constants, launch_slots_on: slotsOff ? 0 : 1 },
          },
        }
      : d,
  );
for (const [name, k, off] of [
  ['syclts subGroupSum, launch_slots_on true', subGroupSum, false],
  ['syclts subGroupSum, launch_slots_on false', subGroupSum, true],
  ['syclts subGroupScan (u32), unslotted', subGroupScan, true],
] as const) {
  slotsOff = off;
  const d = await directLaunch(
    device,
    k,
    'subgroups',
    [gy, gx * 256],
    [1, 256],
    { src: input, dst: output },
    { n },
  );
  variants.push([name, (e, t) => d.record(e, t)]);
}
slotsOff = false;
console.log(base);
const results: Record<string, number[]> = {};
for (let round = 0; round < 3; round++) {
  for (let v = 0; v < variants.length; v++) {
    const [name, rec] = variants[(v + round) % variants.length]!;
    device.queue.writeBuffer(output, 0, new Uint32Array(64).fill(0xffffffff));
    {
      const e = device.createCommandEncoder();
      rec(e);
      device.queue.submit([e.finish()]);
    }
    const bits = new Uint32Array(await readBack(device, output, 4 * 64));
    const t = await timePasses(device, (e, timed) => rec(e, timed), 20, 2, 300);
    results[name] = [...(results[name] ?? []), t.median];
    console.log(
      `round ${round} ${name}: median ${t.median.toFixed(1)} best ${t.best.toFixed(1)} µs; out[0..3] ${[...bits.slice(0, 4)].map((b) => b.toString(16)).join(' ')}`,
    );
  }
}
for (const [name, m] of Object.entries(results))
  console.log(`${name}: ${m.map((x) => x.toFixed(1)).join(', ')}`);
