/**
 * Runtime benchmarks (not tests): host overhead per launch against the same dispatch made with
 * direct WebGPU calls, and the cost of a specialization constant value change (native with a
 * new value set, native with a cached one, emulated). Kernel: `out[i] = factor * i` over 64
 * items (one workgroup), so the figures are dominated by the host and the driver.
 *
 * Each row issues a batch of launches without waiting, then waits once: the host time per
 * launch (issuing) and the time per launch until the device finished. Rows run interleaved in
 * ROUNDS rounds after a warm-up; the table gives medians. A second table gives the median
 * latency of single launches, each waited for (on SwiftShader it mostly measures Dawn's event
 * polling).
 * Run: bench/run.sh (bundles this file, then runs it with node). Prints a Markdown table.
 */
import { u32 } from '@syclts/dsl';
import { Queue } from '../src/index.js';
import { factor, fill, fillNativeWgsl } from '../test/fixtures/fill.js';

const N = 64;
const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 1000);
const NEW_PIPELINES = Number(process.env.BENCH_NEW_PIPELINES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const now = () => performance.now();

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Direct WebGPU: pipeline, layout, bind group and uniform made once; per launch only encode and submit. */
async function direct(device: GPUDevice, out: GPUBuffer): Promise<() => void> {
  const layout = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    ],
  });
  const pipeline = await device.createComputePipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module: device.createShaderModule({ code: fillNativeWgsl }), entryPoint: 'k_fill' },
  });
  const launch = device.createBuffer({
    size: 32,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(launch, 0, new Uint32Array([N, 1, 1, 0, 0, 0, 0, 0]));
  const bindGroup = device.createBindGroup({
    layout,
    entries: [
      { binding: 0, resource: { buffer: launch } },
      { binding: 1, resource: { buffer: out } },
    ],
  });
  return () => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(1);
    pass.end();
    device.queue.submit([encoder.finish()]);
  };
}

interface Row {
  readonly name: string;
  readonly note: string;
  readonly launches: number;
  /** Resolves when everything the row issued has completed (a queue's commands may wait for pipelines). */
  readonly finish: () => Promise<void>;
  /** Issues launch `i` of a batch; `batch` numbers the batches (for values never used before). */
  readonly launch: (i: number, batch: number) => void;
  readonly issue: number[];
  readonly total: number[];
}

async function measure(row: Row, batch: number): Promise<void> {
  const start = now();
  for (let i = 0; i < row.launches; i++) row.launch(i, batch);
  const issued = now();
  await row.finish();
  row.issue.push(((issued - start) * 1000) / row.launches);
  row.total.push(((now() - start) * 1000) / row.launches);
}

async function main(): Promise<void> {
  const q = await Queue.create({ specConstants: 'native' });
  const emulated = await Queue.create({ specConstants: 'emulated' });
  const out = q.buffer(u32, N);
  const outEmulated = emulated.buffer(u32, N);
  const directLaunch = await direct(q.device, out.gpuBuffer);
  const withValue = (queue: Queue, buffer: typeof out, value: number) =>
    queue.submit((cgh) => {
      cgh.setSpecializationConstant(factor, value);
      cgh.parallelFor(N, fill, { out: buffer });
    });
  const row = (
    name: string,
    note: string,
    finish: Row['finish'],
    launch: Row['launch'],
    launches = LAUNCHES,
  ): Row => ({ name, note, launches, finish, launch, issue: [], total: [] });
  const directDone = () => q.device.queue.onSubmittedWorkDone();
  const queueDone = () => q.wait();
  const emulatedDone = () => emulated.wait();

  const rows = [
    row('direct WebGPU', 'pipeline and bind group made once', directDone, () => directLaunch()),
    row('syclts, default values', 'native, cached pipeline', queueDone, () => {
      q.parallelFor(N, fill, { out });
    }),
    row('syclts, the same value set each launch', 'native, cached pipeline', queueDone, () => {
      withValue(q, out, 3);
    }),
    row('syclts, value from a cached set of 8', 'native, pipeline cache hits', queueDone, (i) => {
      withValue(q, out, 2000 + (i % 8));
    }),
    row(
      'syclts, new value each launch, emulated',
      'one writeBuffer, no pipeline',
      emulatedDone,
      (i, b) => {
        withValue(emulated, outEmulated, 1_000_000 * (b + 1) + i);
      },
    ),
    row(
      'syclts, new value each launch, native',
      'a pipeline created per launch',
      queueDone,
      (i, b) => {
        withValue(q, out, 100_000 * (b + 1) + i);
      },
      NEW_PIPELINES,
    ),
  ];
  let batch = 0;
  for (const r of rows) await measure(r, batch++);
  for (const r of rows) {
    r.issue.length = 0;
    r.total.length = 0;
  }
  for (let round = 0; round < ROUNDS; round++) for (const r of rows) await measure(r, batch++);

  const reference = median(rows[0]!.total);
  console.log(`adapter: ${q.adapterDescription}`);
  console.log(
    `median of ${ROUNDS} rounds; a round issues ${LAUNCHES} launches per row (${NEW_PIPELINES} for new native values), then waits`,
  );
  console.log(
    `pipelines created: ${q.stats.pipelinesCreated} native queue, ${emulated.stats.pipelinesCreated} emulated queue\n`,
  );
  console.log(
    '| launch | host µs/launch (issue) | µs/launch until done | vs direct (until done) | note |',
  );
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const r of rows) {
    const total = median(r.total);
    console.log(
      `| ${r.name} | ${median(r.issue).toFixed(1)} | ${total.toFixed(1)} | ${(total / reference).toFixed(2)}x | ${r.note} |`,
    );
  }

  // Latency of one value change: each launch waited for before the next.
  const latency = async (launch: (i: number) => Promise<void>, count: number) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const start = now();
      await launch(i);
      times.push((now() - start) * 1000);
    }
    return median(times);
  };
  const waited = [
    [
      'direct WebGPU',
      await latency(async () => {
        directLaunch();
        await q.device.queue.onSubmittedWorkDone();
      }, 50),
    ],
    ['syclts, same value', await latency(() => withValue(q, out, 3).wait(), 50)],
    [
      'syclts, value from a cached set of 8',
      await latency((i) => withValue(q, out, 2000 + (i % 8)).wait(), 50),
    ],
    [
      'syclts, new value, emulated',
      await latency((i) => withValue(emulated, outEmulated, 7_000_000 + i).wait(), 50),
    ],
    [
      'syclts, new value, native',
      await latency((i) => withValue(q, out, 9_000_000 + i).wait(), NEW_PIPELINES),
    ],
  ] as const;
  console.log('\n| launch, waited for before the next | µs (median) |');
  console.log('| --- | ---: |');
  for (const [name, us] of waited) console.log(`| ${name} | ${us.toFixed(1)} |`);
  q.device.destroy();
  emulated.device.destroy();
}

await main();
