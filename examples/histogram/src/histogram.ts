/** Runs the histogram over several launches, reads it back, checks it, and shows the host-access rules. */
import { type Queue, SyclError } from '@syclts/runtime';
import { accumulate, BINS, bins, clearBins, valueRange } from './histogram.sycl.ts';
import { findPeak, peak } from './peak.sycl.ts';

export interface Options {
  readonly batches: number;
  readonly samplesPerBatch: number;
  /** Put the value range and the samples in the report, for checks outside the example. */
  readonly keepInputs?: boolean;
}

export interface Report {
  readonly adapter: string;
  readonly batches: number;
  readonly samplesPerBatch: number;
  /** The bins after the first launch and after the last. */
  readonly afterFirst: readonly number[];
  readonly final: readonly number[];
  readonly expected: readonly number[];
  readonly peak: { readonly bin: number; readonly count: number };
  /** Copies that break `hostAccess`: each must be refused, with this message. */
  readonly refused: readonly { readonly copy: string; readonly message: string | null }[];
  /** Host time of all the launches, submitted back to back. */
  readonly milliseconds: number;
  readonly ok: boolean;
  /** [lo, hi) split into `final.length` bins, and each batch's samples; when asked for. */
  readonly inputs?: {
    readonly lo: number;
    readonly hi: number;
    readonly batches: readonly (readonly number[])[];
  };
}

/** [lo, hi): a power-of-two width keeps every sample far from a bin edge in f32. */
export const LO = -2;
export const HI = 2;
const STEPS = 1024;

/**
 * Deterministic samples, a bell curve from sums of uniforms, on a grid of 1/STEPS of the range
 * (mid-step, so no bin edge is near), a few of them outside [LO, HI).
 */
function batch(index: number, size: number): { samples: Float32Array; steps: Int32Array } {
  const samples = new Float32Array(size);
  const steps = new Int32Array(size);
  let s = (index + 1) * 2654435761;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  for (let i = 0; i < size; i++) {
    const u = (next() + next() + next()) / 3;
    const step = Math.floor(u * (STEPS + 80)) - 40 + index * 16;
    steps[i] = step;
    samples[i] = LO + ((step + 0.5) / STEPS) * (HI - LO);
  }
  return { samples, steps };
}

function countOnCpu(histogram: number[], steps: Int32Array): void {
  for (const step of steps) {
    if (step >= 0 && step < STEPS) histogram[Math.floor((step * BINS) / STEPS)]! += 1;
  }
}

/** Runs `attempt`; the message of the SyclError it throws, or null when nothing was refused. */
function refusal(attempt: () => void): string | null {
  try {
    attempt();
    return null;
  } catch (error) {
    if (error instanceof SyclError) return error.message;
    throw error;
  }
}

export async function runHistogram(queue: Queue, options: Options): Promise<Report> {
  const { batches, samplesPerBatch } = options;
  queue.copy([{ lo: LO, hi: HI }], valueRange);
  queue.parallelFor([BINS], clearBins, {});

  const expected = Array.from({ length: BINS }, () => 0);
  const inputs = Array.from({ length: batches }, (_, b) => batch(b, samplesPerBatch));
  const buffers = inputs.map(({ samples }) => queue.buffer(samples, { access: 'read' }));
  const afterFirst = new Uint32Array(BINS);
  const final = new Uint32Array(BINS);
  await queue.wait();

  const start = performance.now();
  buffers.forEach((samples, b) => {
    queue.parallelFor([samplesPerBatch], accumulate, { samples });
    if (b === 0) queue.copy(bins, afterFirst);
  });
  queue.singleTask(findPeak, {});
  queue.copy(bins, final);
  const peakHost = [{ bin: 0, count: 0 }];
  queue.copy(peak, peakHost);
  await queue.wait();
  const milliseconds = performance.now() - start;

  countOnCpu(expected, inputs[0]!.steps);
  const expectedAfterFirst = [...expected];
  for (const input of inputs.slice(1)) countOnCpu(expected, input.steps);

  // hostAccess in action: both copies are type errors, and refused at run time too.
  const refused = [
    {
      copy: 'queue.copy(zeros, bins)',
      // @ts-expect-error the host may not write a 'read' device global
      message: refusal(() => queue.copy(new Uint32Array(BINS), bins)),
    },
    {
      copy: 'queue.copy(valueRange, host)',
      // @ts-expect-error the host may not read a 'write' device global
      message: refusal(() => queue.copy(valueRange, [{ lo: 0, hi: 0 }])),
    },
  ];

  const most = Math.max(...expected);
  const ok =
    [...afterFirst].every((count, i) => count === expectedAfterFirst[i]) &&
    [...final].every((count, i) => count === expected[i]) &&
    peakHost[0]!.count === most &&
    peakHost[0]!.bin === expected.indexOf(most) &&
    refused.every((r) => r.message !== null);
  return {
    adapter: queue.adapterDescription,
    batches,
    samplesPerBatch,
    afterFirst: [...afterFirst],
    final: [...final],
    expected,
    peak: peakHost[0]!,
    refused,
    milliseconds,
    ok,
    ...(options.keepInputs && {
      inputs: { lo: LO, hi: HI, batches: inputs.map(({ samples }) => [...samples]) },
    }),
  };
}

const BARS = ' ▁▂▃▄▅▆▇█';

/** The summary as text lines, for the console. */
export function describeReport(report: Report): string[] {
  const most = Math.max(1, ...report.final);
  const bars = (counts: readonly number[]) =>
    counts.map((count) => BARS[Math.ceil((count / most) * (BARS.length - 1))]).join('');
  const total = report.final.reduce((a, b) => a + b, 0);
  return [
    `adapter:   ${report.adapter}`,
    `launches:  ${report.batches} x ${report.samplesPerBatch} samples into ${BINS} bins over [${LO}, ${HI}), ${report.milliseconds.toFixed(2)} ms in all`,
    `${'after 1:'.padEnd(11)}|${bars(report.afterFirst)}|`,
    `${`after ${report.batches}:`.padEnd(11)}|${bars(report.final)}|  ${total} counted`,
    `peak:      bin ${report.peak.bin}, ${report.peak.count} samples (deviceImageScope global, from a second device image)`,
    ...report.refused.map((r) => `refused:   ${r.message ?? `${r.copy} was NOT refused`}`),
    report.ok
      ? 'check:     the bins after the first and the last launch, and the peak, match the CPU; both copies refused'
      : 'check:     FAILED, see the numbers above',
  ];
}
