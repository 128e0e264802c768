import { Queue } from '@syclts/runtime';
import { stats } from './stats.sycl.ts';

const n = 2 ** 20;
// Multiples of 2^-23 in [-1, 1): exact in f32, where Math.random() * 2 - 1 can round up to 1.
const xs = Float32Array.from(
  { length: n },
  () => Math.floor(Math.random() * 2 ** 24) / 2 ** 23 - 1,
);

const queue = await Queue.create();
console.log(`adapter: ${queue.adapterDescription}`);

const input = queue.buffer(xs, { access: 'read' });
const sum = queue.buffer(Float32Array.of(0)); // the sum is added to the 0 it holds
const peak = queue.buffer(Float32Array.of(0)); // its 0 is replaced: initializeToIdentity below
const start = performance.now();
await queue
  .parallelFor(n, stats, { xs: input, sum, peak: { buffer: peak, initializeToIdentity: true } })
  .wait();
const [gpuSum] = await sum.read();
const [gpuPeak] = await peak.read();
const ms = performance.now() - start;

// The same on the CPU, the sum in double precision.
let cpuSum = 0;
let magnitudes = 0;
let cpuPeak = -Infinity;
for (const x of xs) {
  cpuSum += x;
  magnitudes += Math.abs(x);
  cpuPeak = Math.max(cpuPeak, x);
}
// The GPU adds in f32, in a tree of partial sums: its rounding error stays far below this bound.
const tolerance = 1e-5 * magnitudes;
const ok = Math.abs(gpuSum! - cpuSum) <= tolerance && gpuPeak === cpuPeak;

console.log(`n:     ${n} random floats in [-1, 1)`);
console.log(`sum:   ${gpuSum} (CPU ${cpuSum}, tolerance ${tolerance}: 1e-5 x the sum of |x|)`);
console.log(`max:   ${gpuPeak} (CPU ${cpuPeak})`);
console.log(`time:  ${ms.toFixed(1)} ms (launch to results read, pipeline creation included)`);
console.log(`check: ${ok ? 'ok' : 'FAILED'}`);
process.exitCode = ok ? 0 : 1;
