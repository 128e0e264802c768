/// <reference types="vite/client" />
/** The page: scales a few numbers on the GPU with two gains and shows the results. */
import { isSupported, Queue } from '@syclts/runtime';
import { LIMIT } from './kernels.sycl.ts';
import { scaleOnGpu } from './scale.ts';

const out = document.querySelector<HTMLElement>('#out')!;

if (await isSupported()) {
  const queue = await Queue.create();
  const input = Float32Array.from({ length: 8 }, (_, i) => 10 * (i + 1));
  const render = async () => {
    const lines = [`adapter: ${queue.adapterDescription}`, `input:   ${input.join(' ')}`];
    for (const by of [2, 0.5]) {
      const { output, overLimit } = await scaleOnGpu(queue, input, by);
      lines.push(`${`x ${by}:`.padEnd(9)}${output.join(' ')}  (${overLimit} over ${LIMIT} so far)`);
    }
    out.textContent = lines.join('\n');
  };
  await render();
  // `npm run dev`: an edit to the device code swaps the kernels in place; run them again to show it.
  import.meta.hot?.on('vite:afterUpdate', render);
} else {
  out.textContent = 'This browser has no WebGPU: Queue.create() would say why.';
}
