/** examples/starter in the page: its host code (scaleOnGpu) with two gains, as its page does. */
import { Queue } from '@syclts/runtime';
import { LIMIT } from '../../examples/starter/src/kernels.sycl.ts';
import { scaleOnGpu } from '../../examples/starter/src/scale.ts';
import type { Print } from '../.vitepress/theme/live.ts';

export async function run(print: Print) {
  const queue = await Queue.create();
  const input = Float32Array.from({ length: 8 }, (_, i) => 10 * (i + 1));
  print(`adapter: ${queue.adapterDescription}`);
  print(`input:   ${input.join(' ')}`);
  const rows: { by: number; output: number[]; overLimit: number }[] = [];
  for (const by of [2, 0.5]) {
    const { output, overLimit } = await scaleOnGpu(queue, input, by);
    print(`${`x ${by}:`.padEnd(9)}${output.join(' ')}  (${overLimit} over ${LIMIT} so far)`);
    rows.push({ by, output: Array.from(output), overLimit });
  }
  return rows;
}
