/**
 * examples/compact in the page: keep the elements above a threshold, in order, with the
 * exclusive scan of @syclts/algorithms. Seeded inputs, so a test can check the result.
 */
import { exclusiveScan } from '@syclts/algorithms';
import { Queue } from '@syclts/runtime';
import { gather, mark } from '../../examples/compact/src/keep.sycl.ts';
import type { Print } from '../.vitepress/theme/live.ts';
import { seededFloats } from './inputs.ts';

export async function run(print: Print) {
  const n = 2 ** 16;
  const threshold = 0.5;
  const data = seededFloats(n, 7);
  const queue = await Queue.create();
  print(`adapter: ${queue.adapterDescription}`);

  const xs = queue.buffer(data, { access: 'read' });
  const flags = queue.buffer(new Uint32Array(n));
  const places = queue.buffer(new Uint32Array(n));
  const kept = queue.buffer(new Float32Array(n).fill(Number.NaN));
  // Mark, count what comes before each element, move each kept element to its place.
  queue.parallelFor(n, mark, { xs, flags, threshold });
  exclusiveScan(queue, flags, places);
  queue.parallelFor(n, gather, { xs, flags, places, kept });
  // The last element's place, plus one if it is kept itself.
  const count = (await places.read())[n - 1]! + (await flags.read())[n - 1]!;
  const gpu = Array.from((await kept.read()).subarray(0, count));

  print(`n:     ${n} floats in [-1, 1), kept where > ${threshold}`);
  print(`kept:  ${count}`);
  print(`first: ${gpu.slice(0, 4).join(' ')}`);
  return { n, threshold, count, kept: gpu };
}
