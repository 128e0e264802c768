/** The histogram in the browser: the bins as a bar chart, after the first launch and the last. */
import { Queue } from '@syclts/runtime';
import { BINS } from './histogram.sycl.ts';
import { HI, LO, type Report, runHistogram } from './histogram.ts';

declare global {
  interface Window {
    /** The run's report, for automated tests. */
    sycltsExample?: Promise<unknown>;
  }
}

const element = (id: string) => document.getElementById(id)!;

function draw(report: Report): void {
  const canvas = element('chart') as HTMLCanvasElement;
  const context = canvas.getContext('2d')!;
  const { width, height } = canvas;
  const most = Math.max(1, ...report.final);
  const bar = width / BINS;
  for (const [counts, color] of [
    [report.final, '#1d4ed8'],
    [report.afterFirst, '#93c5fd'],
  ] as const) {
    context.fillStyle = color;
    counts.forEach((count, i) => {
      const h = (count / most) * (height - 20);
      context.fillRect(i * bar + 2, height - h, bar - 4, h);
    });
  }
}

async function main(): Promise<Report> {
  // `?inputs` keeps the samples in the report, for checks outside the page.
  const report = await runHistogram(await Queue.create(), {
    batches: 4,
    samplesPerBatch: 4096,
    keepInputs: new URLSearchParams(location.search).has('inputs'),
  });
  draw(report);
  element('adapter').textContent = report.adapter;
  element('launches').textContent =
    `${report.batches} x ${report.samplesPerBatch} samples into ${BINS} bins over [${LO}, ${HI}), ${report.milliseconds.toFixed(2)} ms`;
  element('peak').textContent = `bin ${report.peak.bin}: ${report.peak.count} samples`;
  element('refused').innerHTML = '';
  for (const r of report.refused) {
    element('refused').append(
      Object.assign(document.createElement('div'), {
        textContent: r.message ?? `${r.copy} was NOT refused`,
      }),
    );
  }
  const check = element('check');
  check.textContent = report.ok
    ? 'bins after the first and the last launch and the peak match the CPU; both copies refused'
    : 'FAILED: the device and the CPU disagree';
  check.className = report.ok ? 'ok' : 'bad';
  return report;
}

window.sycltsExample = main().catch((error: unknown) => {
  element('check').textContent = String(error);
  return { error: String(error) };
});
