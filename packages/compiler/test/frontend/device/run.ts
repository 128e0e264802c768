/** Runs the jobs prepare.ts wrote, on a hardware GPU through Dawn (see prepare.ts). */
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';
import { runKernel } from '../gpu-run.js';
import type { JobFile } from './jobs.js';

Object.assign(globalThis, globals);
const { program, jobs } = JSON.parse(
  readFileSync(new URL('./frontend-jobs.json', import.meta.url), 'utf8'),
) as JobFile;
// Kept in a variable: the instance must outlive the adapter and device. The toggle lets Dawn
// offer shader-f16 on NVIDIA through Vulkan (it changes nothing elsewhere).
const gpu = create(['enable-dawn-features=vulkan_enable_f16_on_nvidia']);
const adapter = await gpu.requestAdapter();
if (!adapter) throw new Error('no adapter');
const info = adapter.info;
console.log(`adapter: ${info.vendor} ${info.architecture} ${info.description}`);
const device = await adapter.requestDevice({
  requiredFeatures: adapter.features.has('shader-f16') ? ['shader-f16'] : [],
});
const arrays = {
  f32: Float32Array,
  i32: Int32Array,
  u32: Uint32Array,
  f16bits: Uint16Array,
} as const;
let failures = 0;
for (const job of jobs) {
  if (job.requires && !device.features.has(job.requires)) {
    console.log(`not run: ${job.name} (the adapter lacks ${job.requires})`);
    continue;
  }
  const args = Object.fromEntries(
    Object.entries(job.accessors).map(([name, [kind, values]]) => [
      name,
      arrays[kind].from(values),
    ]),
  );
  let result: Awaited<ReturnType<typeof runKernel>>;
  try {
    result = await runKernel(device, program, {
      kernel: job.kernel,
      range: job.range,
      args: { ...args, ...job.values },
    });
  } catch (error) {
    failures++;
    console.log(`FAIL ${job.name}: ${String(error).split('\n')[0]}`);
    continue;
  }
  const words = new Uint32Array(result.accessors[job.output]!);
  const floats = new Float32Array(result.accessors[job.output]!);
  let bad = 0;
  for (const [i, want] of job.expected.entries()) {
    const tolerance = job.tolerance[i];
    const ok =
      tolerance === Infinity ||
      (tolerance == null ? words[i] === want : Math.abs(floats[i]! - want) <= tolerance);
    if (!ok && bad++ < 3)
      console.log(
        `  ${job.name}: word ${i} is ${tolerance == null ? words[i] : floats[i]}, expected ${want}`,
      );
  }
  failures += bad;
  console.log(`${bad === 0 ? 'ok  ' : 'FAIL'} ${job.name} (${job.expected.length} words)`);
}
console.log(failures === 0 ? 'all jobs match' : `${failures} mismatching words`);
process.exit(failures === 0 ? 0 : 1);
