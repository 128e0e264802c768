/**
 * examples/reduce in the page: the sum and the maximum of 2^20 floats, one kernel with two
 * reduction variables. The inputs come from a seeded generator, so a test can check the results.
 */
import { Queue } from '@syclts/runtime';
import { stats } from '../../examples/reduce/src/stats.sycl.ts';
import type { Print } from '../.vitepress/theme/live.ts';
import { seededFloats } from './inputs.ts';

export async function run(print: Print) {
  const n = 2 ** 20;
  const xs = seededFloats(n);
  const queue = await Queue.create();
  print(`adapter: ${queue.adapterDescription}`);

  const input = queue.buffer(xs, { access: 'read' });
  const sum = queue.buffer(Float32Array.of(0)); // the sum is added to the 0 it holds
  const peak = queue.buffer(Float32Array.of(0)); // its 0 is replaced: initializeToIdentity
  const start = performance.now();
  await queue
    .parallelFor(n, stats, { xs: input, sum, peak: { buffer: peak, initializeToIdentity: true } })
    .wait();
  const [gpuSum] = await sum.read();
  const [gpuPeak] = await peak.read();
  const ms = performance.now() - start;

  print(`n:     ${n} floats in [-1, 1)`);
  print(`sum:   ${gpuSum}`);
  print(`max:   ${gpuPeak}`);
  print(`time:  ${ms.toFixed(1)} ms (launch to results read, pipeline creation included)`);
  return { n, sum: gpuSum!, max: gpuPeak! };
}
