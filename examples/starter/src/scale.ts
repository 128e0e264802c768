/** Host code: runs the kernel through a SYCL queue on WebGPU, in the browser or in Node. */
import type { Queue } from '@syclts/runtime';
import { gain, overLimit, scale } from './kernels.sycl.ts';

export interface Scaled {
  readonly output: Float32Array;
  /** Results over the limit so far, over every launch on this device. */
  readonly overLimit: number;
}

export async function scaleOnGpu(queue: Queue, input: Float32Array, by: number): Promise<Scaled> {
  const inputBuffer = queue.buffer(input, { access: 'read' });
  const outputBuffer = queue.buffer(new Float32Array(input.length));
  queue.submit((cgh) => {
    cgh.setSpecializationConstant(gain, by);
    cgh.parallelFor([input.length], scale, { input: inputBuffer, output: outputBuffer });
  });
  const count = new Uint32Array(1);
  await queue.copy(overLimit, count).wait();
  return { output: await outputBuffer.read(), overLimit: count[0]! };
}
