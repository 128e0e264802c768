/** examples/hello in the page: one kernel, one specialization constant, run twice. */
import { Queue } from '@syclts/runtime';
import { factor, scale } from '../../examples/hello/src/scale.sycl.ts';
import type { Print } from '../.vitepress/theme/live.ts';

export async function run(print: Print) {
  const n = 8;
  const queue = await Queue.create();
  print(`adapter: ${queue.adapterDescription}`);
  const rows: { factor: number; out: number[] }[] = [];
  for (const value of [undefined, 3]) {
    const out = queue.buffer(new Uint32Array(n));
    await queue
      .submit((cgh) => {
        if (value !== undefined) cgh.setSpecializationConstant(factor, value);
        cgh.parallelFor([n], scale, { out });
      })
      .wait();
    const label =
      value === undefined ? 'factor = 7 (default)' : `factor = ${value} (set at run time)`;
    const values = Array.from(await out.read());
    print(`${label}: ${values.join(' ')}`);
    rows.push({ factor: value ?? 7, out: values });
  }
  return rows;
}
