/** A launch whose kernel prints; the page shows the console's lines below as well. */
import { Queue } from '@syclts/runtime';
import type { Print } from '../.vitepress/theme/live.ts';
import { roots } from './debugging.sycl.ts';

export async function run(print: Print) {
  const xs = Float32Array.from([4, 2.25, 0.25, 9, -1, 16, 0.1, -0.5]);
  const queue = await Queue.create();
  const out = queue.buffer(new Float32Array(xs.length), { access: 'write' });
  // Copy the console's lines to this page while the launch runs (they go to the console anyway).
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    lines.push(args.join(' '));
    log(...args);
  };
  try {
    await queue.parallelFor([xs.length], roots, { xs: queue.buffer(xs), out }).wait();
  } finally {
    console.log = log;
  }
  for (const line of lines) print(line);
  return { xs: Array.from(xs), lines };
}
