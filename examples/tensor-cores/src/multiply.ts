/** Runs the tensor-core matrix multiply in every tiling the device fits, each checked in float64. */
import { f16, vec4u } from '@syclts/dsl';
import { type DeviceBuffer, errc, Queue, reinterpret, SyclError } from '@syclts/runtime';
import { matmulF16 } from './matmul.sycl.ts';
import {
  describeTiling,
  setTiling,
  TILINGS,
  type Tiling,
  tilingProblem,
  tilingRange,
} from './tiling.ts';

/**
 * The queue. In Node, Dawn offers f16 on NVIDIA's Vulkan driver only with its
 * `vulkan_enable_f16_on_nvidia` toggle, and WGSL subgroup matrices (tensor cores) only with
 * `allow_unsafe_apis`; in a browser the toggles are the browser's (Chrome: --enable-unsafe-webgpu).
 */
export const createQueue = () =>
  Queue.create({
    dawnToggles: { enable: ['allow_unsafe_apis', 'vulkan_enable_f16_on_nvidia'] },
  });

export interface Row {
  readonly tiling: string;
  /** Host time per multiply: the fastest of rounds of `repeat` multiplies submitted back to back. */
  readonly msPerRun: number;
  readonly tflops: number;
  /** Sampled entries that differ from the float64 product (of integers: any difference). */
  readonly wrong: { readonly integers: number; readonly reals: number };
}

export interface Report {
  readonly adapter: string;
  /** How the joint matrices run: the device's tensor cores, plain WGSL, or not at all. */
  readonly lowering: 'subgroup matrices' | 'plain WGSL' | 'refused';
  readonly n: number;
  readonly repeat: number;
  readonly samples: number;
  readonly rows: readonly Row[];
  /** Tilings this device or n cannot run, and why. */
  readonly skipped: readonly { readonly tiling: string; readonly why: string }[];
  /** The runtime's error when the device cannot run the kernel at all (no `shader-f16`). */
  readonly refused?: { readonly errc: string; readonly message: string };
  readonly ok: boolean;
}

/** A random n x n matrix: small integers (every product and sum exact), or k / 64, |k| <= 64. */
function randomMatrix(n: number, kind: 'integers' | 'reals'): Float64Array {
  return Float64Array.from({ length: n * n }, () =>
    kind === 'integers'
      ? Math.floor(Math.random() * 5) - 2
      : (Math.floor(Math.random() * 129) - 64) / 64,
  );
}

/** Sampled entries of c against the float64 product: exact for integers, 1e-5 relative for reals. */
function wrongEntries(
  a: Float64Array,
  b: Float64Array,
  c: Float32Array,
  n: number,
  exact: boolean,
  samples: number,
): number {
  let wrong = 0;
  for (let s = 0; s < samples; s++) {
    const i = Math.floor(Math.random() * n);
    const j = Math.floor(Math.random() * n);
    let sum = 0;
    let magnitude = 0;
    for (let t = 0; t < n; t++) {
      const p = a[i * n + t]! * b[t * n + j]!;
      sum += p;
      magnitude += Math.abs(p);
    }
    const error = Math.abs(c[i * n + j]! - sum); // NaN (never written) counts as wrong
    if (!(exact ? error === 0 : error <= 1e-5 * magnitude + 1e-6)) wrong++;
  }
  return wrong;
}

export async function multiplyAll(queue: Queue, n: number, repeat: number): Promise<Report> {
  const device = queue.device;
  const samples = Math.min(n * n, 512);
  const runnable = TILINGS.map((t) => ({ t, why: tilingProblem(t, n, device.limits) }));
  const skipped = runnable.flatMap(({ t, why }) =>
    why ? [{ tiling: describeTiling(t), why }] : [],
  );
  const tilings = runnable.flatMap(({ t, why }) => (why ? [] : [t]));
  if (tilings.length === 0) throw new Error(`no tiling multiplies ${n} x ${n} matrices here`);
  const lowering =
    device.features.has('chromium-experimental-subgroup-matrix') && device.features.has('subgroups')
      ? 'subgroup matrices'
      : 'plain WGSL';
  const inputs = {
    integers: [randomMatrix(n, 'integers'), randomMatrix(n, 'integers')],
    reals: [randomMatrix(n, 'reals'), randomMatrix(n, 'reals')],
  } as const;
  // Matrices of f16 (the runtime rounds each number), read by the kernel 8 halves at a time.
  const halves = (m: Float64Array) => {
    const buffer = queue.buffer(f16, n * n, { access: 'read' });
    buffer.write(Array.from(m));
    return reinterpret(buffer, vec4u);
  };
  const gpu = {
    integers: inputs.integers.map(halves),
    reals: inputs.reals.map(halves),
  };
  const c = queue.buffer(new Float32Array(n * n), { access: 'write' });
  const launch = (t: Tiling, [a, b]: DeviceBuffer<typeof vec4u, 'read'>[]) =>
    queue.submit((cgh) => {
      setTiling(cgh, t, n);
      cgh.parallelFor(tilingRange(t, n), matmulF16, { a: a!, b: b!, c });
    });
  const poison = () => c.write(new Float32Array(n * n).fill(Number.NaN));

  const rows: Row[] = [];
  for (const t of tilings) {
    const wrong = { integers: 0, reals: 0 };
    for (const kind of ['integers', 'reals'] as const) {
      poison();
      try {
        await launch(t, gpu[kind]).wait();
      } catch (error) {
        if (!(error instanceof SyclError) || rows.length > 0) throw error;
        return {
          adapter: queue.adapterDescription,
          lowering: 'refused',
          n,
          repeat,
          samples,
          rows,
          skipped,
          refused: { errc: error.errc, message: error.message },
          ok: error.errc === errc.featureNotSupported && !device.features.has('shader-f16'),
        };
      }
      const [a, b] = inputs[kind];
      wrong[kind] = wrongEntries(a, b, await c.read(), n, kind === 'integers', samples);
    }
    // A GPU's clock falls while it idles and may take more than a second of load to rise again:
    // rounds of `repeat` launches for two seconds, the fastest round counted.
    let msPerRun = Number.POSITIVE_INFINITY;
    const until = performance.now() + 2000;
    do {
      const start = performance.now();
      for (let r = 0; r < repeat; r++) launch(t, gpu.reals);
      await queue.wait();
      msPerRun = Math.min(msPerRun, (performance.now() - start) / repeat);
    } while (performance.now() < until);
    rows.push({
      tiling: describeTiling(t),
      msPerRun,
      tflops: (2 * n ** 3) / (msPerRun * 1e9),
      wrong,
    });
  }
  return {
    adapter: queue.adapterDescription,
    lowering,
    n,
    repeat,
    samples,
    rows,
    skipped,
    ok: rows.every((r) => r.wrong.integers === 0 && r.wrong.reals === 0),
  };
}

/** The summary as text lines, for the console and the page. */
export function describeReport(report: Report): string[] {
  const lines = [
    `adapter:  ${report.adapter}`,
    `matrices: ${report.n} x ${report.n} f16 into f32, ${report.repeat} timed runs per tiling`,
    `lowering: ${report.lowering === 'subgroup matrices' ? "the device's subgroup matrices (tensor cores)" : report.lowering}`,
  ];
  if (report.refused) {
    lines.push(`refused:  ${report.refused.errc}: ${report.refused.message}`);
    return lines;
  }
  lines.push('tiling (rows x cols x k)      ms/run   TFLOP/s  wrong entries (integers, reals)');
  for (const row of report.rows) {
    lines.push(
      `${row.tiling.padEnd(28)} ${row.msPerRun.toFixed(3).padStart(7)} ${row.tflops.toFixed(2).padStart(9)}  ${row.wrong.integers}, ${row.wrong.reals} of ${report.samples}`,
    );
  }
  for (const s of report.skipped) lines.push(`skipped:  ${s.tiling}: ${s.why}`);
  lines.push(
    report.ok
      ? `check:    every sampled entry matches the float64 product (integers exactly, reals within 1e-5)`
      : 'check:    FAILED, sampled entries differ from the float64 product',
  );
  return lines;
}
