/** Runs and times the matrix multiply in its variants, and checks each result on the CPU. */
import { ndRange, Queue, requestAdapter } from '@syclts/runtime';
import { chooseBlockSize } from './block-size.ts';
import { blockSize, FIXED_BLOCK, matmul, matmulFixedBlock } from './matmul.sycl.ts';

export interface Queues {
  readonly adapter: string;
  /** Kernels run natively: a pipeline per block size, the block size a literal in the WGSL. */
  readonly native: Queue;
  /** Same device; kernels that can run emulated read the block size from a buffer. */
  readonly emulated: Queue;
}

/** A device with the adapter's compute limits, so the block size can follow the hardware. */
export async function createQueues(): Promise<Queues> {
  const { adapter, description } = await requestAdapter();
  const limits = adapter.limits;
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxComputeInvocationsPerWorkgroup: limits.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: limits.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupSizeY: limits.maxComputeWorkgroupSizeY,
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
    },
  });
  return {
    adapter: description,
    native: await Queue.create({ device, specConstants: 'native' }),
    emulated: await Queue.create({ device, specConstants: 'emulated' }),
  };
}

export interface Measurement {
  readonly kernel: 'matmul' | 'matmulFixedBlock';
  readonly mode: 'native' | 'emulated';
  readonly block: number;
  readonly pipelinesCreated: number;
  /** Host time per multiply, over `repeat` multiplies submitted back to back. */
  readonly msPerRun: number;
  readonly gflops: number;
  readonly maxError: number;
  readonly ok: boolean;
}

export interface Report {
  readonly adapter: string;
  readonly n: number;
  readonly repeat: number;
  readonly checkedEntries: number;
  readonly tolerance: number;
  readonly limits: { readonly invocations: number; readonly workgroupStorage: number };
  readonly rows: readonly Measurement[];
  readonly ok: boolean;
  /** The inputs and each row's product, when asked for (for checks outside the example). */
  readonly matrices?: {
    readonly a: readonly number[];
    readonly b: readonly number[];
    /** By `${kernel} ${mode}`. */
    readonly c: Readonly<Record<string, readonly number[]>>;
  };
}

/** Deterministic values in [-1, 1). */
function randomMatrix(n: number, seed: number): Float32Array {
  const m = new Float32Array(n * n);
  let s = seed >>> 0;
  for (let i = 0; i < m.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    m[i] = s / 2 ** 31 - 1;
  }
  return m;
}

/** f32 rounding over n products of values in [-1, 1], with a wide margin. */
export const tolerance = (n: number) => 4e-6 * n;

/** The entries the CPU checks: all of them for small matrices, a fixed sample otherwise. */
function checkedEntries(n: number): number[] {
  if (n <= 256) return Array.from({ length: n * n }, (_, i) => i);
  return Array.from({ length: 1024 }, (_, i) => (Math.imul(i, 2654435761) >>> 0) % (n * n));
}

export async function multiplyAll(
  queues: Queues,
  n: number,
  repeat: number,
  keepMatrices = false,
): Promise<Report> {
  const { native, emulated } = queues;
  const limits = native.device.limits;
  const bs = chooseBlockSize(limits, n);
  if (n % FIXED_BLOCK !== 0)
    throw new Error(`the matrix size must be a multiple of ${FIXED_BLOCK}, got ${n}`);
  const aHost = randomMatrix(n, 1);
  const bHost = randomMatrix(n, 2);
  const a = native.buffer(aHost, { access: 'read' });
  const b = native.buffer(bHost, { access: 'read' });
  const c = native.buffer(new Float32Array(n * n), { access: 'write' });
  const entries = checkedEntries(n);
  const expected = entries.map((e) => {
    const row = Math.floor(e / n);
    const col = e % n;
    let sum = 0;
    for (let k = 0; k < n; k++) sum += aHost[row * n + k]! * bHost[k * n + col]!;
    return sum;
  });

  const products: Record<string, number[]> = {};
  const measure = async (
    queue: Queue,
    kernel: typeof matmul,
    block: number,
    name: string,
  ): Promise<Omit<Measurement, 'kernel' | 'mode'>> => {
    const launch = () =>
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(blockSize, block);
        cgh.parallelFor(ndRange([n, n], [block, block]), kernel, { a, b, c, n });
      });
    const before = queue.stats.pipelinesCreated;
    await launch().wait(); // creates the pipeline
    await c.write(new Float32Array(n * n).fill(Number.NaN)).wait();
    const start = performance.now();
    for (let r = 0; r < repeat; r++) launch();
    await queue.wait();
    const msPerRun = (performance.now() - start) / repeat;
    const result = await c.read();
    if (keepMatrices) products[name] = [...result];
    const maxError = Math.max(...entries.map((e, i) => Math.abs(result[e]! - expected[i]!)));
    return {
      block,
      pipelinesCreated: queue.stats.pipelinesCreated - before,
      msPerRun,
      gflops: (2 * n ** 3) / (msPerRun * 1e6),
      maxError,
      ok: maxError <= tolerance(n), // NaN (an entry never written) fails too
    };
  };

  const rows: Measurement[] = [
    { kernel: 'matmul', mode: 'native', ...(await measure(native, matmul, bs, 'matmul native')) },
    {
      kernel: 'matmulFixedBlock',
      mode: 'native',
      ...(await measure(native, matmulFixedBlock, FIXED_BLOCK, 'matmulFixedBlock native')),
    },
    {
      kernel: 'matmulFixedBlock',
      mode: 'emulated',
      ...(await measure(emulated, matmulFixedBlock, FIXED_BLOCK, 'matmulFixedBlock emulated')),
    },
  ];
  return {
    adapter: queues.adapter,
    n,
    repeat,
    checkedEntries: entries.length,
    tolerance: tolerance(n),
    limits: {
      invocations: limits.maxComputeInvocationsPerWorkgroup,
      workgroupStorage: limits.maxComputeWorkgroupStorageSize,
    },
    rows,
    ok: rows.every((row) => row.ok),
    ...(keepMatrices && { matrices: { a: [...aHost], b: [...bHost], c: products } }),
  };
}

/** The summary as text lines, for the console and the page. */
export function describeReport(report: Report): string[] {
  const lines = [
    `adapter: ${report.adapter}`,
    `limits:  ${report.limits.invocations} invocations per workgroup, ${report.limits.workgroupStorage} bytes of workgroup memory`,
    `sizes:   ${report.n} x ${report.n} matrices, ${report.repeat} timed runs per kernel`,
    'kernel            spec constants  block  new pipelines   ms/run  GFLOP/s  max |gpu - cpu|',
  ];
  for (const row of report.rows) {
    lines.push(
      `${row.kernel.padEnd(17)} ${row.mode.padEnd(15)} ${String(row.block).padStart(5)} ${String(row.pipelinesCreated).padStart(14)} ${row.msPerRun.toFixed(2).padStart(8)} ${row.gflops.toFixed(2).padStart(8)}  ${row.maxError.toExponential(1)}`,
    );
  }
  const what =
    report.checkedEntries === report.n * report.n
      ? `all ${report.checkedEntries} entries`
      : `${report.checkedEntries} sampled entries`;
  lines.push(
    report.ok
      ? `check:   every result matches the CPU reference (${what}, tolerance ${report.tolerance.toExponential(1)})`
      : `check:   FAILED, a result differs from the CPU reference (${what}) by more than ${report.tolerance.toExponential(1)}`,
  );
  return lines;
}
