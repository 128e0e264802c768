/**
 * Tensor cores from `.sycl.ts`: the f16 x f16 -> f32 matrix multiply written with joint matrices.
 * examples/tensor-cores's kernel (one workgroup array per tile, its tile sizes specialization
 * constants) in every tiling of the example the device fits, each beside hand-written WGSL of
 * that tiling (gpu/matmul-f16-wgsl.mjs with `unpack`); the kernel laid out in one region per
 * sub-group (kernels/tensor-regions.sycl.ts) beside hand-written WGSL of its algorithm
 * (`regions`); and both layouts hand-written with 16-byte copies to workgroup memory (the
 * hand-written sweep's fastest), in one process:
 *
 *   node tensor-cores.mjs [n]        (default 4096; ROBUST=0 adds Dawn's disable_robustness)
 *
 * Needs a GPU whose Dawn offers `shader-f16` and `chromium-experimental-subgroup-matrix` with
 * f16 -> f32 16 x 16 x 16 (NVIDIA with the toggles below). Each kernel's output is poisoned, then
 * checked exactly on small-integer matrices and against a float64 sum on k/64 values; then, after
 * about two seconds of load (the GPU's clocks rise under it), the kernels are timed in turn, five
 * rounds of ten launches, every pass with GPU timestamps. Prints a Markdown table.
 */
import { create, globals } from 'webgpu';
import { matmulF16 } from '../../examples/tensor-cores/src/matmul.sycl.ts';
import {
  describeTiling,
  TILINGS,
  type Tiling,
  tilingConstants,
  tilingProblem,
  tilingRange,
} from '../../examples/tensor-cores/src/tiling.ts';
import { matmulF16Wgsl, sampledCheck, testMatrix } from '../gpu/matmul-f16-wgsl.mjs';
import { readBack, storage } from './gpu/collectives/common.js';
import { timePasses } from './gpu/pass-timing.js';
import { directLaunch } from './gpu/syclts-direct.js';
import { tensorMatmulRegions, tensorRegionsSize } from './kernels/tensor-regions.sycl.ts';

Object.assign(globalThis, globals);
const n = Number(process.argv[2] ?? 4096);
const robust = process.env.ROBUST !== '0';
const gpu = create([
  `enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia${robust ? '' : ',disable_robustness'}`,
  'disable-dawn-features=timestamp_quantization',
]);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) throw new Error('tensor-cores: no adapter');
const features: GPUFeatureName[] = [
  'timestamp-query',
  'shader-f16',
  'subgroups',
  'chromium-experimental-subgroup-matrix' as GPUFeatureName,
];
for (const f of features) {
  if (!adapter.features.has(f)) throw new Error(`tensor-cores: the adapter lacks ${f}`);
}
const device = await adapter.requestDevice({
  requiredFeatures: features,
  requiredLimits: {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
    maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
  },
});

function matrix(kind: 'int' | 'real') {
  const m = testMatrix(n, kind);
  const buffer = storage(device, 2 * n * n);
  device.queue.writeBuffer(buffer, 0, m.bits);
  return { ...m, buffer };
}
const inputs = { int: [matrix('int'), matrix('int')], real: [matrix('real'), matrix('real')] };
const output = storage(device, 4 * n * n);

type Record = (
  encoder: GPUCommandEncoder,
  timed?: (f: boolean, l: boolean) => GPUComputePassDescriptor,
) => void;
interface Contender {
  readonly what: string;
  /** Records one launch over the inputs of `kind`. */
  readonly launch: (kind: 'int' | 'real') => Promise<Record>;
}

async function handWritten(
  what: string,
  options: Parameters<typeof matmulF16Wgsl>[0],
): Promise<Contender> {
  const k = matmulF16Wgsl({ ...options, N: n });
  const module = device.createShaderModule({ code: k.code });
  const pipeline = await device.createComputePipelineAsync({
    layout: 'auto',
    compute: { module, entryPoint: 'main' },
  });
  return {
    what,
    launch: async (kind) => {
      const [a, b] = inputs[kind];
      const group = device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [a!.buffer, b!.buffer, output].map((buffer, binding) => ({
          binding,
          resource: { buffer },
        })),
      });
      return (encoder, timed) => {
        const pass = encoder.beginComputePass(timed?.(true, true));
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups(...k.workgroups());
        pass.end();
      };
    },
  };
}

/** kernels/tensor-regions.sycl.ts, launched on the built-ins. */
function regions(what: string): Contender {
  return {
    what,
    launch: async (kind) => {
      const [a, b] = inputs[kind];
      const r = await directLaunch(
        device,
        tensorMatmulRegions,
        'subgroups',
        [n / 128, n],
        [1, 256],
        { a: a!.buffer, b: b!.buffer, c: output },
        {},
        { constants: [[tensorRegionsSize, n]] },
      );
      return (encoder, timed) => r.record(encoder, timed);
    },
  };
}

/** examples/tensor-cores's kernel, its tile sizes set as specialization constants. */
function sweptSyclts(t: Tiling): Contender {
  const range = tilingRange(t, n);
  return {
    what: `\`.sycl.ts\`, tiles as specialization constants (examples/tensor-cores), ${describeTiling(t)}`,
    launch: async (kind) => {
      const [a, b] = inputs[kind];
      const r = await directLaunch(
        device,
        matmulF16,
        'subgroups',
        range.global,
        range.local,
        { a: a!.buffer, b: b!.buffer, c: output },
        {},
        { constants: tilingConstants(t, n) },
      );
      return (encoder, timed) => r.record(encoder, timed);
    },
  };
}

/** The tiling of the regions kernel and of the example's default, which the hand-written kernels share. */
const TILING = { BM: 128, BN: 256, BK: 32, WM: 64, WN: 64, stages: 1 } as const;

/** Each `.sycl.ts` kernel is compared with the hand-written kernel of its algorithm (`base`). */
const contenders: (Contender & { readonly base?: number })[] = [
  { ...regions('`.sycl.ts`, regions (kernels/tensor-regions.sycl.ts)'), base: 1 },
  await handWritten('hand-written WGSL, regions, the same algorithm', {
    ...TILING,
    regions: true,
    unpack: true,
  }),
  await handWritten('hand-written WGSL, one array per tile, 16-byte copies (`buffer` view)', {
    ...TILING,
    view: true,
  }),
  await handWritten('hand-written WGSL, regions, 16-byte copies (`buffer` view)', {
    ...TILING,
    regions: true,
    view: true,
  }),
];
// The example's kernel in each tiling the device fits, beside hand-written WGSL of that tiling.
for (const t of TILINGS.filter((t) => !tilingProblem(t, n, device.limits))) {
  const base = contenders.length + 1;
  contenders.push(
    { ...sweptSyclts(t), base },
    await handWritten(`hand-written WGSL, one array per tile, ${describeTiling(t)}`, {
      BM: 64 * t.rows,
      BN: 64 * t.cols,
      BK: t.k,
      WM: 64,
      WN: 64,
      stages: 1,
      unpack: true,
    }),
  );
}

/** Sampled entries of C against a float64 sum: exact on integers, within 1e-5 of the magnitudes on reals. */
async function check(c: Contender, kind: 'int' | 'real'): Promise<string> {
  device.queue.writeBuffer(output, 0, new Float32Array(n * n).fill(Number.NaN));
  const record = await c.launch(kind);
  const encoder = device.createCommandEncoder();
  record(encoder);
  device.queue.submit([encoder.finish()]);
  const got = new Float32Array(await readBack(device, output, 4 * n * n));
  const [a, b] = inputs[kind];
  const { bad, samples } = sampledCheck(a!, b!, got, n, kind, kind === 'int' ? 2048 : 512);
  if (bad > 0) throw new Error(`${c.what}: ${bad} of ${samples} sampled ${kind} entries wrong`);
  return `${samples} ${kind === 'int' ? 'exact' : 'within 1e-5'}`;
}

const checks = [];
for (const c of contenders) checks.push(`${await check(c, 'int')}, ${await check(c, 'real')}`);
const records = await Promise.all(contenders.map((c) => c.launch('real')));
const until = performance.now() + 2000;
while (performance.now() < until) await timePasses(device, records[0]!, 10, 0);
const times = contenders.map((): number[] => []);
for (let round = 0; round < 5; round++) {
  for (const [i, record] of records.entries()) {
    times[i]!.push(...(await timePasses(device, record, 10, 1)).us);
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
const flops = 2 * n ** 3;
console.log(
  `Adapter: ${adapter.info.vendor} ${adapter.info.description}; n = ${n}; Dawn robustness ${robust ? 'on' : 'off (disable_robustness)'}; ${new Date().toISOString()}`,
);
console.log('| kernel | median µs | TFLOP/s | vs the same algorithm hand-written | checked |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const [i, c] of contenders.entries()) {
  const us = median(times[i]!);
  const ratio = c.base === undefined ? '' : `${(median(times[c.base]!) / us).toFixed(3)}x`;
  console.log(
    `| ${c.what} | ${us.toFixed(1)} | ${(flops / (us * 1e-6) / 1e12).toFixed(1)} | ${ratio} | ${checks[i]} |`,
  );
}
device.destroy();
process.exit(0);
