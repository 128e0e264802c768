/**
 * Kernel speed: the matrix multiply and the 3x3 convolution compiled by syclts, run through
 * the runtime with native specialization constants, emulated ones, the same values as kernel
 * arguments (the launch uniform), and those arguments on a queue with adaptive specialization
 * once its pipeline with them folded in took over, against hand-written WGSL with literal
 * constants. Every variant is checked against a float64 reference on a poisoned output before it
 * is timed.
 */
import { f32, vec4f } from '@syclts/dsl';
import { ndRange, type Queue } from '@syclts/runtime';
import { matmulWgsl } from '../../gpu/matmul-wgsl.mjs';
import { coeffs, conv3x3, conv3x3Args, height, width } from '../kernels/conv.sycl.ts';
import {
  conv3x3Vec4,
  conv3x3Vec4Args,
  vec4Coeffs,
  vec4Height,
  vec4Width,
} from '../kernels/conv-vec4.sycl.ts';
import { matmul, matmulArgs, size, tileK } from '../kernels/matmul.sycl.ts';
import { matmulWide, matmulWideArgs, wideSize } from '../kernels/matmul-wide.sycl.ts';
import { type BenchDevice, median } from './device.js';
import {
  convLiteral,
  convUniform,
  convUniformRecord,
  convVec4Literal,
  DirectKernel,
  matmulLiteral,
  matmulUniform,
} from './literal-wgsl.js';
import { productError, TOLERANCE } from './product-check.js';

export type Variant =
  | 'literal'
  | 'hand-written uniform'
  | 'native'
  | 'emulated'
  | 'uniform'
  | 'adaptive';
export const VARIANTS: readonly Variant[] = [
  'literal',
  'hand-written uniform',
  'native',
  'emulated',
  'uniform',
  'adaptive',
];

export interface SpeedRow {
  readonly kernel: string;
  readonly variant: Variant;
  /** Median GPU time of one launch, microseconds. */
  readonly us: number;
  /** Dispatches timed (launches x rounds when every launch was timed). */
  readonly timed: number;
  /** Largest error over the checked entries, relative to the sum of the magnitudes of the terms. */
  readonly error: number;
  readonly checked: number;
}

export interface SpeedOptions {
  readonly bench: BenchDevice;
  readonly native: Queue;
  readonly emulated: Queue;
  /** A queue with adaptive specialization (`Queue.create({ adaptive })`), the 'adaptive' rows'. */
  readonly adaptive: Queue;
  /** Timed launches per variant and round, and rounds (variants interleave between rounds). */
  readonly launches: number;
  readonly rounds: number;
}

const random = (n: number) => Float32Array.from({ length: n }, () => Math.random() * 2 - 1);

async function readBack(device: GPUDevice, buffer: GPUBuffer): Promise<Float32Array> {
  const staging = device.createBuffer({
    size: buffer.size,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const data = new Float32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return data;
}

/** Entries to check: all of them up to `limit`, else a random sample of `limit`. */
function sample(count: number, limit: number): number[] {
  if (count <= limit) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: limit }, () => Math.floor(Math.random() * count));
}

interface Problem {
  readonly kernel: string;
  readonly output: GPUBuffer;
  /** 'hand-written uniform' where the suite has that kernel with its values in a uniform. */
  readonly launch: Record<Exclude<Variant, 'hand-written uniform'>, () => void> & {
    readonly 'hand-written uniform'?: () => void;
  };
  /** Largest relative error of the output against the float64 reference, over checked entries. */
  readonly check: (out: Float32Array) => { error: number; checked: number };
}

/** Waits until both queues submitted and completed everything (pipelines are created asynchronously). */
async function settle(options: SpeedOptions): Promise<void> {
  await options.native.wait();
  await options.emulated.wait();
  await options.adaptive.wait();
  await options.bench.device.queue.onSubmittedWorkDone();
}

/**
 * Launches `launch` (on the adaptive queue) until one runs on the pipeline with its arguments
 * folded in: every later launch with the same values does, so the 'adaptive' row times the
 * steady state.
 */
async function takeOver(options: SpeedOptions, kernel: string, launch: () => void): Promise<void> {
  const { stats } = options.adaptive;
  const before = stats.specializedLaunches ?? 0;
  const start = performance.now();
  for (let i = 1; i <= 10_000; i++) {
    launch();
    await settle(options);
    if ((stats.specializedLaunches ?? 0) > before) {
      console.log(
        `${kernel} adaptive: the folded pipeline took over at launch ${i}, ${(performance.now() - start).toFixed(1)} ms after the first`,
      );
      return;
    }
    // Waits that grow (to 50 ms): a software adapter's compile needs the cores the launches take.
    await new Promise((resolve) => setTimeout(resolve, Math.min(2 ** i, 50)));
  }
  throw new Error(`${kernel} adaptive: the folded pipeline never took over`);
}

async function measure(options: SpeedOptions, problem: Problem): Promise<SpeedRow[]> {
  const { device, timer } = options.bench;
  await takeOver(options, problem.kernel, problem.launch.adaptive);
  const specialized = options.adaptive.stats.specializedLaunches ?? 0;
  let adaptiveLaunches = 0;
  const results = new Map<Variant, { us: number[]; error: number; checked: number }>();
  const variants = VARIANTS.filter((v) => problem.launch[v] !== undefined);
  const launch = (variant: Variant) => problem.launch[variant]!();
  for (const variant of variants) {
    device.queue.writeBuffer(
      problem.output,
      0,
      new Float32Array(problem.output.size / 4).fill(Number.NaN),
    );
    launch(variant);
    await settle(options);
    const { error, checked } = problem.check(await readBack(device, problem.output));
    if (!(error <= TOLERANCE)) {
      throw new Error(`${problem.kernel} (${variant}): relative error ${error} over ${TOLERANCE}`);
    }
    launch(variant); // warm-up
    await settle(options);
    results.set(variant, { us: [], error, checked });
  }
  // Bring the clocks up: about 300 ms of the literal kernel before the timed rounds.
  const warmUntil = performance.now() + 300;
  while (performance.now() < warmUntil) {
    for (let i = 0; i < 8; i++) problem.launch.literal();
    await settle(options);
  }
  // Every launch of every round timed: the timer is armed before one more launch of each
  // variant (untimed: the runtime's queues record it into the pass they opened before the
  // arming), so that each queue's next pass is opened, and timed, while armed; it stays armed
  // across the rounds, each launch's dispatch labelled with its variant.
  timer.arm('primer');
  for (const variant of variants) {
    launch(variant);
    await settle(options);
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const variant of variants) {
      // One launch at a time, so that every variant's launch is a compute pass of its own.
      timer.label = variant;
      for (let i = 0; i < options.launches; i++) {
        launch(variant);
        await settle(options);
      }
      if (variant === 'adaptive') adaptiveLaunches += options.launches;
    }
  }
  const timed = await timer.collectLabelled();
  // The check, warm-up and primer launches, then the timed ones: each on the folded pipeline.
  const folded = (options.adaptive.stats.specializedLaunches ?? 0) - specialized;
  if (folded !== adaptiveLaunches + 3) {
    console.log(
      `warning: ${problem.kernel} (adaptive): ${folded} of ${adaptiveLaunches + 3} launches ran on the folded pipeline`,
    );
  }
  for (const variant of variants) {
    const us = timed.get(variant) ?? [];
    if (us.length !== options.rounds * options.launches) {
      console.log(
        `warning: ${problem.kernel} (${variant}): ${us.length} dispatches timed for ${options.rounds * options.launches} launches`,
      );
    }
    results.get(variant)!.us.push(...us);
  }
  return variants.map((variant) => {
    const r = results.get(variant)!;
    const sorted = [...r.us].sort((x, y) => x - y);
    console.log(
      `${problem.kernel} ${variant}: min ${sorted[0]!.toFixed(1)} median ${median(sorted).toFixed(1)} max ${sorted.at(-1)!.toFixed(1)} us`,
    );
    return {
      kernel: problem.kernel,
      variant,
      us: median(r.us),
      timed: r.us.length,
      error: r.error,
      checked: r.checked,
    };
  });
}

/** The k step of the matrix multiply's tiles (the fastest of 8 and 16 on the H100). */
export const MATMUL_TILE_K = 16;

export async function matmulSpeed(options: SpeedOptions, n: number): Promise<SpeedRow[]> {
  const { native, emulated } = options;
  const { device } = options.bench;
  const ah = random(n * n);
  const bh = random(n * n);
  const a = native.buffer(vec4f, (n * n) / 4, { access: 'read' });
  const b = native.buffer(vec4f, (n * n) / 4, { access: 'read' });
  const c = native.buffer(vec4f, (n * n) / 4, { access: 'write' });
  device.queue.writeBuffer(a.gpuBuffer, 0, ah);
  device.queue.writeBuffer(b.gpuBuffer, 0, bh);
  const literal = await DirectKernel.create(
    device,
    matmulLiteral(n, MATMUL_TILE_K),
    [a.gpuBuffer, b.gpuBuffer],
    c.gpuBuffer,
  );
  const params = device.createBuffer({
    size: 16,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(params, 0, Uint32Array.of(n, MATMUL_TILE_K, n / 4, MATMUL_TILE_K / 8));
  const handUniform = await DirectKernel.create(
    device,
    matmulUniform(n, MATMUL_TILE_K, 'in the kernel'),
    [a.gpuBuffer, b.gpuBuffer],
    c.gpuBuffer,
    params,
  );
  const range = ndRange([n / 8, n / 8], [16, 16]);
  const specialised = (queue: Queue) => () => {
    queue.submit((cgh) => {
      cgh.setSpecializationConstant(size, n);
      cgh.setSpecializationConstant(tileK, MATMUL_TILE_K);
      cgh.parallelFor(range, matmul, { a, b, c });
    });
  };
  const samples = sample(n * n, 4096);
  const rows = await measure(options, {
    kernel: `matmul ${n}`,
    output: c.gpuBuffer,
    launch: {
      literal: () => literal.dispatch(n / 128, n / 128),
      'hand-written uniform': () => handUniform.dispatch(n / 128, n / 128),
      native: specialised(native),
      emulated: specialised(emulated),
      uniform: () => {
        native.parallelFor(range, matmulArgs, { a, b, c, n, bk: MATMUL_TILE_K });
      },
      adaptive: () => {
        options.adaptive.parallelFor(range, matmulArgs, { a, b, c, n, bk: MATMUL_TILE_K });
      },
    },
    check: (out) => productError(ah, bh, out, n, samples),
  });
  for (const buffer of [a, b, c]) buffer.gpuBuffer.destroy();
  params.destroy();
  return rows;
}

/** The tiling the hand-written sweep found fastest at n = 4096: kernels/matmul-wide.sycl.ts's. */
export const WIDE_TILING = { BM: 64, BN: 128, BK: 16, TM: 4, TN: 8 } as const;

/**
 * kernels/matmul-wide.sycl.ts in every variant, its literal row the hand-written WGSL of the same
 * tiling from the sweep's generator (bench/gpu/matmul-wgsl.mjs): syclts beside the best
 * hand-written tiling, in one process.
 */
export async function matmulWideSpeed(options: SpeedOptions, n: number): Promise<SpeedRow[]> {
  const { native, emulated } = options;
  const { device } = options.bench;
  const ah = random(n * n);
  const bh = random(n * n);
  const a = native.buffer(vec4f, (n * n) / 4, { access: 'read' });
  const b = native.buffer(vec4f, (n * n) / 4, { access: 'read' });
  const c = native.buffer(vec4f, (n * n) / 4, { access: 'write' });
  device.queue.writeBuffer(a.gpuBuffer, 0, ah);
  device.queue.writeBuffer(b.gpuBuffer, 0, bh);
  const handWritten = matmulWgsl({ ...WIDE_TILING, N: n });
  const literal = await DirectKernel.create(
    device,
    handWritten.code,
    [a.gpuBuffer, b.gpuBuffer],
    c.gpuBuffer,
  );
  const [x, y] = handWritten.workgroups(n);
  const range = ndRange([n / 4, n / 8], [16, 16]);
  const specialised = (queue: Queue) => () => {
    queue.submit((cgh) => {
      cgh.setSpecializationConstant(wideSize, n);
      cgh.parallelFor(range, matmulWide, { a, b, c });
    });
  };
  const samples = sample(n * n, 4096);
  const rows = await measure(options, {
    kernel: `matmul-wide ${n}`,
    output: c.gpuBuffer,
    launch: {
      literal: () => literal.dispatch(x, y),
      native: specialised(native),
      emulated: specialised(emulated),
      uniform: () => {
        native.parallelFor(range, matmulWideArgs, { a, b, c, n });
      },
      adaptive: () => {
        options.adaptive.parallelFor(range, matmulWideArgs, { a, b, c, n });
      },
    },
    check: (out) => productError(ah, bh, out, n, samples),
  });
  for (const buffer of [a, b, c]) buffer.gpuBuffer.destroy();
  return rows;
}

/** Dense coefficients, none zero or one, so no variant can skip a term. */
/** Nine coefficients, row-major. */
export type Coefficients = [number, number, number, number, number, number, number, number, number];

export const CONV_COEFFS: Coefficients = [
  -0.0625, -0.125, -0.0625, -0.125, 1.75, -0.125, -0.0625, -0.125, -0.0625,
];

/** A convolution's buffers and its launches through the runtime, by how they take their values. */
interface ConvLaunches {
  readonly src: GPUBuffer;
  readonly dst: GPUBuffer;
  readonly specialised: (queue: Queue) => () => void;
  readonly withArgs: (queue: Queue) => () => void;
}

/** conv.sycl.ts: one pixel an item. */
function scalarConv(native: Queue, w: number, h: number): ConvLaunches {
  const src = native.buffer(f32, w * h, { access: 'read' });
  const dst = native.buffer(f32, w * h, { access: 'write' });
  const range = ndRange([h, w], [4, 64]);
  return {
    src: src.gpuBuffer,
    dst: dst.gpuBuffer,
    specialised: (queue) => () => {
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(coeffs, CONV_COEFFS);
        cgh.setSpecializationConstant(width, w);
        cgh.setSpecializationConstant(height, h);
        cgh.parallelFor(range, conv3x3, { src, dst });
      });
    },
    withArgs: (queue) => () => {
      queue.parallelFor(range, conv3x3Args, {
        src,
        dst,
        weights: CONV_COEFFS,
        width: w,
        height: h,
      });
    },
  };
}

/** conv-vec4.sycl.ts: four pixels an item, read and written as vec4f. */
function vec4Conv(native: Queue, w: number, h: number): ConvLaunches {
  const src = native.buffer(vec4f, (w * h) / 4, { access: 'read' });
  const dst = native.buffer(vec4f, (w * h) / 4, { access: 'write' });
  const range = ndRange([h, w / 4], [4, 64]);
  return {
    src: src.gpuBuffer,
    dst: dst.gpuBuffer,
    specialised: (queue) => () => {
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(vec4Coeffs, CONV_COEFFS);
        cgh.setSpecializationConstant(vec4Width, w);
        cgh.setSpecializationConstant(vec4Height, h);
        cgh.parallelFor(range, conv3x3Vec4, { src, dst });
      });
    },
    withArgs: (queue) => () => {
      queue.parallelFor(range, conv3x3Vec4Args, {
        src,
        dst,
        weights: CONV_COEFFS,
        width: w,
        height: h,
      });
    },
  };
}

/**
 * The convolutions the suite times: one pixel an item, and four (16-byte loads and stores); the
 * first also as hand-written WGSL with its values in a uniform (`convUniform`).
 */
const CONVS = {
  scalar: {
    label: 'conv3x3',
    pixels: 1,
    literal: convLiteral,
    handUniform: convUniform,
    make: scalarConv,
  },
  vec4: {
    label: 'conv3x3-vec4',
    pixels: 4,
    literal: convVec4Literal,
    handUniform: null,
    make: vec4Conv,
  },
} as const;

export async function convSpeed(
  options: SpeedOptions,
  w: number,
  h: number,
  shape: keyof typeof CONVS = 'scalar',
): Promise<SpeedRow[]> {
  const { native, emulated } = options;
  const { device } = options.bench;
  const conv = CONVS[shape];
  const image = random(w * h);
  const { src, dst, specialised, withArgs } = conv.make(native, w, h);
  device.queue.writeBuffer(src, 0, image);
  const literal = await DirectKernel.create(device, conv.literal(w, h, CONV_COEFFS), [src], dst);
  const params = device.createBuffer({
    size: 64,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(params, 0, convUniformRecord(w, h, CONV_COEFFS));
  const handUniform = conv.handUniform
    ? await DirectKernel.create(device, conv.handUniform(), [src], dst, params)
    : null;
  const groups: [number, number] = [w / conv.pixels / 64, h / 4];
  const clampTo = (v: number, hi: number) => Math.min(Math.max(v, 0), hi - 1);
  const samples = sample(w * h, 1 << 16);
  const rows = await measure(options, {
    kernel: `${conv.label} ${w}x${h}`,
    output: dst,
    launch: {
      literal: () => literal.dispatch(...groups),
      ...(handUniform && { 'hand-written uniform': () => handUniform.dispatch(...groups) }),
      native: specialised(native),
      emulated: specialised(emulated),
      uniform: withArgs(native),
      adaptive: withArgs(options.adaptive),
    },
    check: (out) => {
      let error = 0;
      for (const e of samples) {
        const y = Math.floor(e / w);
        const x = e % w;
        let ref = 0;
        let magnitude = 0;
        for (let dy = 0; dy < 3; dy++) {
          for (let dx = 0; dx < 3; dx++) {
            const t =
              CONV_COEFFS[dy * 3 + dx]! *
              image[clampTo(y + dy - 1, h) * w + clampTo(x + dx - 1, w)]!;
            ref += t;
            magnitude += Math.abs(t);
          }
        }
        error = Math.max(error, Math.abs(out[e]! - ref) / magnitude);
      }
      return { error, checked: samples.length };
    },
  });
  params.destroy();
  return rows;
}
