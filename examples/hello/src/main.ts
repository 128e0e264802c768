import { Queue } from '@syclts/runtime';
import { factor, scale } from './scale.sycl.ts';

const n = 8;
const queue = await Queue.create();
console.log(`adapter: ${queue.adapterDescription}`);

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
  console.log(`${label}: ${Array.from(await out.read()).join(' ')}`);
}
