/** Runs the convolution kernel on one image, on the GPU, with any coefficients. */
import { f32, type ScalarType } from '@syclts/dsl';
import type { DeviceBuffer, Plain, Queue } from '@syclts/runtime';
import { coeffs, convolve } from './convolution.sycl.ts';
import type { Coeffs, Image } from './filters.ts';

export interface FilterRun {
  readonly output: Float32Array;
  /** Submit to completion, measured on the host (the first run of a filter includes its pipeline). */
  readonly milliseconds: number;
  /** Pipelines the device created during this run. */
  readonly pipelinesCreated: number;
}

export class Convolver {
  readonly #image: Image;
  readonly #src: DeviceBuffer<ScalarType<'f32'>, 'read'>;
  readonly #dst: DeviceBuffer<Plain<ScalarType<'f32'>>, 'write'>;

  /** The buffers belong to `queue`'s device; any queue on that device may run the filter. */
  constructor(queue: Queue, image: Image) {
    this.#image = image;
    this.#src = queue.buffer(image.pixels, { access: 'read' });
    this.#dst = queue.buffer(f32, image.pixels.length, { access: 'write' });
  }

  async run(queue: Queue, coefficients: Coeffs): Promise<FilterRun> {
    const { width, height } = this.#image;
    // NaN everywhere first, so a pixel the kernel missed cannot pass the check with old data.
    await this.#dst.write(new Float32Array(this.#image.pixels.length).fill(Number.NaN)).wait();
    const before = queue.stats.pipelinesCreated;
    const start = performance.now();
    await queue
      .submit((cgh) => {
        cgh.setSpecializationConstant(coeffs, coefficients);
        cgh.parallelFor([height, width], convolve, {
          src: this.#src,
          dst: this.#dst,
          width,
          height,
        });
      })
      .wait();
    const milliseconds = performance.now() - start;
    return {
      output: await this.#dst.read(),
      milliseconds,
      pipelinesCreated: queue.stats.pipelinesCreated - before,
    };
  }
}
