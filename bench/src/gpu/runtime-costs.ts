/**
 * Host-side costs of the runtime on the 3x3 convolution over one workgroup's worth of pixels
 * (64 x 4), so that the device work is negligible: what a specialization constant value change
 * costs (native with a new value set, native with a value set seen before, emulated), and the
 * host overhead per launch against the same dispatch made with direct WebGPU calls.
 */
import { f32 } from '@syclts/dsl';
import { ndRange, type Queue } from '@syclts/runtime';
import { coeffs, conv3x3, conv3x3Args, height, width } from '../kernels/conv.sycl.ts';
import { median } from './device.js';
import { CONV_COEFFS, type Coefficients } from './kernel-speed.js';
import { convLiteral, DirectKernel } from './literal-wgsl.js';

const W = 64;
const H = 4;

export interface LatencyRow {
  readonly what: string;
  /** Median host time from submit until the launch completed, microseconds. */
  readonly us: number;
  readonly pipelines: number;
  readonly samples: number;
}

export interface OverheadRow {
  readonly what: string;
  /** Median host time to issue one launch (no waiting), microseconds. */
  readonly issueUs: number;
  /** Median time per launch until the device finished a batch, microseconds. */
  readonly doneUs: number;
}

interface Setup {
  readonly native: Queue;
  readonly emulated: Queue;
  readonly direct: DirectKernel;
  readonly launch: (queue: Queue, values: Coefficients) => void;
}

async function setup(native: Queue, emulated: Queue): Promise<Setup> {
  const image = Float32Array.from({ length: W * H }, () => Math.random());
  const src = native.buffer(f32, W * H, { access: 'read' });
  const dst = native.buffer(f32, W * H, { access: 'write' });
  const srcE = emulated.buffer(f32, W * H, { access: 'read' });
  const dstE = emulated.buffer(f32, W * H, { access: 'write' });
  native.device.queue.writeBuffer(src.gpuBuffer, 0, image);
  emulated.device.queue.writeBuffer(srcE.gpuBuffer, 0, image);
  const direct = await DirectKernel.create(
    native.device,
    convLiteral(W, H, CONV_COEFFS),
    [src.gpuBuffer],
    dst.gpuBuffer,
  );
  const range = ndRange([H, W], [4, 64]);
  return {
    native,
    emulated,
    direct,
    launch: (queue, values) => {
      const args = queue === native ? { src, dst } : { src: srcE, dst: dstE };
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(coeffs, values);
        cgh.setSpecializationConstant(width, W);
        cgh.setSpecializationConstant(height, H);
        cgh.parallelFor(range, conv3x3, args);
      });
    },
  };
}

let fresh = 0;
/** A coefficient set no launch has used before. */
const newValues = (): Coefficients => {
  const values: Coefficients = [...CONV_COEFFS];
  values[4] += ++fresh * 2 ** -12;
  return values;
};

/** Value-change cost: host latency of one launch, submit to completion, by kind of value change. */
export async function valueChangeCost(
  native: Queue,
  emulated: Queue,
  samples: number,
): Promise<LatencyRow[]> {
  const s = await setup(native, emulated);
  const cached = Array.from({ length: 8 }, newValues);
  for (const v of cached) s.launch(native, v);
  s.launch(emulated, newValues());
  s.direct.dispatch(1, 1);
  await native.wait();
  await emulated.wait();
  const row = async (what: string, queue: Queue | null, launch: (i: number) => void) => {
    const before = queue?.stats.pipelinesCreated ?? 0;
    const us: number[] = [];
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      launch(i);
      if (queue) await queue.wait();
      else await native.device.queue.onSubmittedWorkDone();
      us.push((performance.now() - t0) * 1000);
    }
    return {
      what,
      us: median(us),
      pipelines: (queue?.stats.pipelinesCreated ?? 0) - before,
      samples,
    };
  };
  return [
    await row('direct WebGPU, pipeline made once', null, () => s.direct.dispatch(1, 1)),
    await row('native, a value set seen before (cached pipeline)', native, (i) =>
      s.launch(native, cached[i % cached.length]!),
    ),
    await row('native, a new value set (new pipeline)', native, () =>
      s.launch(native, newValues()),
    ),
    await row('emulated, a new value set', emulated, () => s.launch(emulated, newValues())),
  ];
}

/** Host overhead per launch: batches of launches issued without waiting, then one wait. */
export async function launchOverhead(
  native: Queue,
  emulated: Queue,
  launches: number,
  rounds: number,
): Promise<OverheadRow[]> {
  const s = await setup(native, emulated);
  const fixed = newValues();
  const cached = Array.from({ length: 8 }, newValues);
  const src = native.buffer(f32, W * H, { access: 'read' });
  const dst = native.buffer(f32, W * H, { access: 'write' });
  const range = ndRange([H, W], [4, 64]);
  const rows: {
    what: string;
    device: GPUDevice;
    launch: (i: number) => void;
    issue: number[];
    done: number[];
  }[] = [
    {
      what: 'direct WebGPU (pipeline and bind group made once)',
      device: native.device,
      launch: () => s.direct.dispatch(1, 1),
      issue: [],
      done: [],
    },
    {
      what: 'syclts native, the same value set',
      device: native.device,
      launch: () => s.launch(native, fixed),
      issue: [],
      done: [],
    },
    {
      what: 'syclts native, one of 8 cached value sets',
      device: native.device,
      launch: (i) => s.launch(native, cached[i % 8]!),
      issue: [],
      done: [],
    },
    {
      what: 'syclts emulated, a new value set each launch',
      device: emulated.device,
      launch: () => s.launch(emulated, newValues()),
      issue: [],
      done: [],
    },
    {
      what: 'syclts, values as kernel arguments (new each launch)',
      device: native.device,
      launch: () => {
        native.parallelFor(range, conv3x3Args, {
          src,
          dst,
          weights: newValues(),
          width: W,
          height: H,
        });
      },
      issue: [],
      done: [],
    },
  ];
  for (let round = -1; round < rounds; round++) {
    for (const row of rows) {
      const t0 = performance.now();
      for (let i = 0; i < launches; i++) row.launch(i);
      const issued = performance.now();
      await row.device.queue.onSubmittedWorkDone();
      if (round < 0) continue; // warm-up round
      row.issue.push(((issued - t0) * 1000) / launches);
      row.done.push(((performance.now() - t0) * 1000) / launches);
    }
  }
  return rows.map((r) => ({ what: r.what, issueUs: median(r.issue), doneUs: median(r.done) }));
}
