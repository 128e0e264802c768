/** The smallest application, bundled for the browser to measure what the runtime adds. */
import { Queue } from '@syclts/runtime';
import { factor, scale } from './scale.sycl.ts';

const queue = await Queue.create();
const out = queue.buffer(new Uint32Array(64));
await queue
  .submit((cgh) => {
    cgh.setSpecializationConstant(factor, 3);
    cgh.parallelFor([64], scale, { out });
  })
  .wait();
document.body.textContent = (await out.read()).join(' ');
