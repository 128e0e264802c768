/**
 * The cold path: the first launches of a new process, before V8 has optimised anything, against
 * the same launch made with direct WebGPU calls in the same process. The GPU suite runs this in
 * fresh processes (one per sample) and prints the table; alone:
 *
 *   node cold-path.mjs [launches]
 *
 * One small launch (the 3x3 convolution over 64 x 4 pixels, one workgroup) at a time, each waited
 * for (host time from the call to its completion): syclts with native specialization constants
 * (the same value set every launch: the first launch makes the pipeline), syclts with the values as
 * kernel arguments, direct WebGPU (pipeline and bind group made before the first launch), and
 * direct WebGPU writing the values into its kernel's uniform before each launch (what a host that
 * passes values per launch does), the four interleaved launch by launch, their order rotating, so
 * that Dawn's and Node's own first calls fall on all alike. Prints one JSON line last: each row's
 * microseconds per launch, and each launch's parts (the launch call, the wait call, the wait for
 * completion after it).
 */
import { f32 } from '@syclts/dsl';
import { ndRange, Queue } from '@syclts/runtime';
import { benchDevice } from './gpu/device.js';
import { CONV_COEFFS } from './gpu/kernel-speed.js';
import { convLiteral, convUniform, convUniformRecord, DirectKernel } from './gpu/literal-wgsl.js';
import { coeffs, conv3x3, conv3x3Args, height, width } from './kernels/conv.sycl.ts';

const W = 64;
const H = 4;
const launches = Number(process.argv[2] ?? 30);

const { device } = await benchDevice();
const queue = await Queue.create({ device, specConstants: 'native' });
const image = Float32Array.from({ length: W * H }, () => Math.random());
const src = queue.buffer(f32, W * H, { access: 'read' });
const dst = queue.buffer(f32, W * H, { access: 'write' });
const dstArgs = queue.buffer(f32, W * H, { access: 'write' });
device.queue.writeBuffer(src.gpuBuffer, 0, image);
const directOut = device.createBuffer({ size: 4 * W * H, usage: GPUBufferUsage.STORAGE });
const direct = await DirectKernel.create(
  device,
  convLiteral(W, H, CONV_COEFFS),
  [src.gpuBuffer],
  directOut,
);
const paramsOut = device.createBuffer({ size: 4 * W * H, usage: GPUBufferUsage.STORAGE });
const params = device.createBuffer({
  size: 64,
  usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
});
const record = convUniformRecord(W, H, CONV_COEFFS);
const directValues = await DirectKernel.create(
  device,
  convUniform(),
  [src.gpuBuffer],
  paramsOut,
  params,
);
const range = ndRange([H, W], [4, 64]);

const rows = [
  {
    what: 'direct WebGPU (pipeline and bind group made before)',
    launch: () => direct.dispatch(1, 1),
    wait: () => device.queue.onSubmittedWorkDone(),
  },
  {
    what: 'direct WebGPU, the values written to its uniform (writeBuffer) before each launch',
    launch: () => {
      device.queue.writeBuffer(params, 0, record);
      directValues.dispatch(1, 1);
    },
    wait: () => device.queue.onSubmittedWorkDone(),
  },
  {
    what: 'syclts native, the same value set',
    launch: () =>
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(coeffs, CONV_COEFFS);
        cgh.setSpecializationConstant(width, W);
        cgh.setSpecializationConstant(height, H);
        cgh.parallelFor(range, conv3x3, { src, dst });
      }),
    wait: () => queue.wait(),
  },
  {
    what: 'syclts, the values as kernel arguments',
    launch: () => {
      queue.parallelFor(range, conv3x3Args, {
        src,
        dst: dstArgs,
        weights: CONV_COEFFS,
        width: W,
        height: H,
      });
    },
    wait: () => queue.wait(),
  },
];
const us = rows.map((): number[] => []);
/** Each launch's parts: the launch call, the wait call, and the wait for completion after it. */
const parts = rows.map((): [number, number, number][] => []);
for (let i = 0; i < launches; i++) {
  for (let k = 0; k < rows.length; k++) {
    const r = (i + k) % rows.length;
    const row = rows[r]!;
    const t0 = performance.now();
    row.launch();
    const t1 = performance.now();
    const done = row.wait();
    const t2 = performance.now();
    await done;
    const t3 = performance.now();
    us[r]!.push((t3 - t0) * 1000);
    parts[r]!.push([(t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000]);
  }
}
console.log(
  JSON.stringify({ rows: rows.map((r, i) => ({ what: r.what, us: us[i], parts: parts[i] })) }),
);
device.destroy();
process.exit(0);
