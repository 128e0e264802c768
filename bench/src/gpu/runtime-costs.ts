/**
 * Host-side costs of the runtime on the 3x3 convolution over one workgroup's worth of pixels
 * (64 x 4), so that the device work is negligible: what a specialization constant value change
 * costs (native with a new value set, native with a value set seen before, emulated), and the
 * host overhead per launch against the same dispatch made with direct WebGPU calls.
 */
import { f32 } from '@syclts/dsl';
import { ndRange, type Queue } from '@syclts/runtime';
import { coeffs, conv3x3, conv3x3Args, height, width } from '../kernels/conv.sycl.ts';
import { median, settle } from './device.js';
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

/** Under 'auto': how long a new value set ran emulated before its native pipeline took over. */
export interface Takeover {
  /** The first launch with the new value set, submit to completion, microseconds. */
  readonly firstUs: number;
  /**
   * The first launch against an emulated launch with a new value set made just before it (on
   * the emulated queue, same kernel and buffers): side by side, so the host's drift cancels.
   */
  readonly vsEmulated: number;
  /** Launches (each waited for) until one ran native, and the time until then. */
  readonly launches: number;
  readonly ms: number;
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

/**
 * A coefficient set no launch has used before: nine f32 values drawn at random, so that no earlier
 * process made a pipeline with them either (a driver's shader disk cache cannot hold it; with the
 * same sequence of "new" values in every process, NVIDIA's cache held every pipeline after the
 * first run).
 */
const newValues = (): Coefficients =>
  Array.from({ length: 9 }, () => Math.fround(Math.random() * 2 - 1)) as Coefficients;

/**
 * The pipeline syclts makes for the convolution's native variant, as Dawn was asked for it (its
 * module, layout, entry point and override constants, and the launch's bind group), so that a
 * baseline can create the same pipeline with direct calls. Recorded from the device's calls
 * during the first launch of `s` on `native`, with random coefficients; the constants holding
 * them are found by value.
 */
async function sameWgsl(
  native: Queue,
  s: Setup,
): Promise<{
  descriptor: (values: Coefficients) => GPUComputePipelineDescriptor;
  bindGroup: GPUBindGroup;
}> {
  const device = native.device;
  let recorded: GPUComputePipelineDescriptor | null = null;
  let bindGroup: GPUBindGroup | null = null;
  const record = (d: GPUComputePipelineDescriptor) => {
    if (d.label?.endsWith('#conv3x3 (native)')) recorded = d;
  };
  const { createComputePipeline, createComputePipelineAsync, createBindGroup } = device;
  device.createComputePipeline = (d) => {
    record(d);
    return createComputePipeline.call(device, d);
  };
  device.createComputePipelineAsync = (d) => {
    record(d);
    return createComputePipelineAsync.call(device, d);
  };
  device.createBindGroup = (d) => {
    const group = createBindGroup.call(device, d);
    if (d.label?.endsWith('#conv3x3')) bindGroup = group;
    return group;
  };
  const probe = newValues();
  s.launch(native, probe);
  await native.wait();
  device.createComputePipeline = createComputePipeline;
  device.createComputePipelineAsync = createComputePipelineAsync;
  device.createBindGroup = createBindGroup;
  const descriptor = recorded as GPUComputePipelineDescriptor | null;
  if (!descriptor || !bindGroup)
    throw new Error('sameWgsl: no native pipeline of conv3x3 was made');
  const constants = descriptor.compute.constants as Record<string, number>;
  const keys = probe.map((v) => Object.keys(constants).find((k) => constants[k] === v));
  if (keys.some((k) => k === undefined))
    throw new Error('sameWgsl: coefficients not found in the constants');
  return {
    descriptor: (values) => ({
      ...descriptor,
      compute: {
        ...descriptor.compute,
        constants: { ...constants, ...Object.fromEntries(keys.map((k, i) => [k!, values[i]!])) },
      },
    }),
    bindGroup,
  };
}

/** Value-change cost: host latency of one launch, submit to completion, by kind of value change. */
export async function valueChangeCost(
  native: Queue,
  emulated: Queue,
  auto: Queue,
  samples: number,
  /** Launches of each kind sampled (but those that make a pipeline), each waited for, before the samples. */
  warmUp: number,
  /**
   * A native queue on a second device of the same process: the new value sets made on `native`
   * are launched again on it, new to syclts and to Dawn (whose caches are per queue and per
   * device), while the driver's shader cache may hold their pipelines (the warm-cache figure).
   */
  second: Queue,
): Promise<{ rows: LatencyRow[]; takeover: Takeover }> {
  const s = await setup(native, emulated);
  // Before any launch of `s`: its first one makes the bind group recorded.
  const same = await sameWgsl(native, s);
  const w = await setup(second, emulated);
  const t = await setup(auto, emulated);
  const cached = Array.from({ length: 8 }, newValues);
  for (const v of cached) s.launch(native, v);
  s.launch(emulated, newValues());
  await Promise.all([native.wait(), emulated.wait()]);
  type Sampled = { what: string; queue: Queue | null; launch: (i: number) => void };
  /** The rows' samples taken in turn (one of each, then the next), so the host's drift hits all alike. */
  const rowsOf = async (sampled: readonly Sampled[], count = samples): Promise<LatencyRow[]> => {
    const before = sampled.map((r) => r.queue?.stats.pipelinesCreated ?? 0);
    const us = sampled.map((): number[] => []);
    for (let i = 0; i < count; i++) {
      for (const [r, { queue, launch }] of sampled.entries()) {
        const t0 = performance.now();
        launch(i);
        if (queue) await queue.wait();
        else await native.device.queue.onSubmittedWorkDone();
        us[r]!.push((performance.now() - t0) * 1000);
      }
    }
    return sampled.map((r, i) => ({
      what: r.what,
      us: median(us[i]!),
      pipelines: (r.queue?.stats.pipelinesCreated ?? 0) - before[i]!,
      samples: count,
    }));
  };
  const direct: Sampled = {
    what: 'direct WebGPU, pipeline made once',
    queue: null,
    launch: () => s.direct.dispatch(1, 1),
  };
  const seenBefore: Sampled = {
    what: 'native, a value set seen before (cached pipeline)',
    queue: native,
    launch: (i) => s.launch(native, cached[i % cached.length]!),
  };
  const emulatedNew: Sampled = {
    what: 'emulated, a new value set',
    queue: emulated,
    launch: () => s.launch(emulated, newValues()),
  };
  // Warm up: the operations sampled below that make no pipeline, each waited for, as in an app
  // that has launched and waited a while. V8 optimizes the runtime's launch and wait paths after a
  // few thousand of them; batched launches alone leave the wait path cold (on a device whose
  // calls do nothing, a launch and its wait took 7.1 µs after 20,000 launches waited for a
  // hundred at a time, 3.1 µs after 20,000 each waited for).
  await rowsOf([direct, seenBefore, emulatedNew], warmUp);
  await settle();
  const row = async (sampled: Sampled) => (await rowsOf([sampled]))[0]!;
  // 'auto' with its emulated pipeline made: a new value set, then until native takes over.
  t.launch(auto, newValues());
  await auto.wait();
  const takeover = async (): Promise<Takeover> => {
    const e0 = performance.now();
    s.launch(emulated, newValues());
    await emulated.wait();
    const emulatedUs = (performance.now() - e0) * 1000;
    const values = newValues();
    const before = auto.stats.nativeLaunches;
    const t0 = performance.now();
    t.launch(auto, values);
    await auto.wait();
    const firstUs = (performance.now() - t0) * 1000;
    let launches = 1;
    while (auto.stats.nativeLaunches === before) {
      t.launch(auto, values);
      await auto.wait();
      launches++;
    }
    return { firstUs, vsEmulated: firstUs / emulatedUs, launches, ms: performance.now() - t0 };
  };
  const takeovers: Takeover[] = [];
  for (let i = 0; i < 9; i++) takeovers.push(await takeover());
  const made: Coefficients[] = [];
  const device = native.device;
  const layout = device.createBindGroupLayout({
    entries: [0, 1].map((binding) => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: binding === 0 ? ('read-only-storage' as const) : ('storage' as const) },
    })),
  });
  const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
  const image = device.createBuffer({ size: 4 * W * H, usage: GPUBufferUsage.STORAGE });
  const out = device.createBuffer({ size: 4 * W * H, usage: GPUBufferUsage.STORAGE });
  const bindGroup = device.createBindGroup({
    layout,
    entries: [image, out].map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  /** One dispatch of `pipeline` with `group`, made with direct calls and submitted. */
  const dispatchOnce = (pipeline: GPUComputePipeline, group: GPUBindGroup, offsets: number[]) => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group, offsets);
    pass.dispatchWorkgroups(1, 1);
    pass.end();
    device.queue.submit([encoder.finish()]);
  };
  // The recorded bind group with one dynamic offset (the launch uniform's): checked once, so that
  // the baseline's launches are not silently invalid.
  device.pushErrorScope('validation');
  dispatchOnce(device.createComputePipeline(same.descriptor(newValues())), same.bindGroup, [0]);
  const invalid = await device.popErrorScope();
  if (invalid) throw new Error(`the same-WGSL baseline's launch is invalid: ${invalid.message}`);
  const rows = [
    ...(await rowsOf([direct, seenBefore])),
    // A new pipeline three ways, sampled in turn (the driver's compile time drifts within a process).
    ...(await rowsOf([
      {
        what: 'native, a new value set (new pipeline; fresh random values, driver shader cache empty)',
        queue: native,
        launch: () => {
          const values = newValues();
          made.push(values);
          s.launch(native, values);
        },
      },
      {
        what: 'direct WebGPU: createComputePipeline (synchronous) of the WGSL, layout and override constants syclts made, with fresh random values, then the launch',
        queue: null,
        launch: () =>
          dispatchOnce(
            device.createComputePipeline(same.descriptor(newValues())),
            same.bindGroup,
            [0],
          ),
      },
      {
        what: 'direct WebGPU: createComputePipeline (synchronous) of hand-written WGSL with fresh random values as literals, then the launch',
        queue: null,
        launch: () => {
          const code = convLiteral(W, H, newValues());
          const pipeline = device.createComputePipeline({
            layout: pipelineLayout,
            compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
          });
          dispatchOnce(pipeline, bindGroup, []);
        },
      },
    ])),
    await row({
      what: 'native, the same new value sets again on a second device (new to syclts and Dawn; driver shader cache warm)',
      queue: second,
      launch: (i) => w.launch(second, made[i]!),
    }),
    await row(emulatedNew),
    await row({
      what: 'auto (tiered), a new value set',
      queue: auto,
      launch: () => t.launch(auto, newValues()),
    }),
  ];
  const mid = (pick: (t: Takeover) => number) => median(takeovers.map(pick));
  return {
    rows,
    takeover: {
      firstUs: mid((t) => t.firstUs),
      vsEmulated: mid((t) => t.vsEmulated),
      launches: mid((t) => t.launches),
      ms: mid((t) => t.ms),
    },
  };
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
  const direct = { wait: () => native.device.queue.onSubmittedWorkDone() };
  const rows: {
    what: string;
    queue: { wait(): Promise<void> };
    launch: (i: number) => void;
    issue: number[];
    done: number[];
  }[] = [
    {
      what: 'direct WebGPU, one submit per dispatch (pipeline and bind group made once)',
      queue: direct,
      launch: () => s.direct.dispatch(1, 1),
      issue: [],
      done: [],
    },
    {
      what: 'direct WebGPU, all dispatches in one pass, one submit',
      queue: direct,
      launch: (i) => {
        if (i === launches - 1) s.direct.dispatchMany(launches, 1, 1);
      },
      issue: [],
      done: [],
    },
    {
      what: 'syclts native, the same value set',
      queue: native,
      launch: () => s.launch(native, fixed),
      issue: [],
      done: [],
    },
    {
      what: 'syclts native, one of 8 cached value sets',
      queue: native,
      launch: (i) => s.launch(native, cached[i % 8]!),
      issue: [],
      done: [],
    },
    {
      what: 'syclts emulated, a new value set each launch',
      queue: emulated,
      launch: () => s.launch(emulated, newValues()),
      issue: [],
      done: [],
    },
    {
      what: 'syclts, values as kernel arguments (new each launch)',
      queue: native,
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
  const measure = async (row: (typeof rows)[number], round: number) => {
    await settle();
    const t0 = performance.now();
    for (let i = 0; i < launches; i++) row.launch(i);
    const issued = performance.now();
    await row.queue.wait();
    if (round < 0) return; // warm-up round
    row.issue.push(((issued - t0) * 1000) / launches);
    row.done.push(((performance.now() - t0) * 1000) / launches);
  };
  // The rows in turn, round after round, so that the host's drift hits all alike.
  for (let round = -1; round < rounds; round++) for (const row of rows) await measure(row, round);
  return rows.map((r) => ({ what: r.what, issueUs: median(r.issue), doneUs: median(r.done) }));
}
