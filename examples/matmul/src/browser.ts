/** The matrix multiply in the browser: the same measurements as in Node, as a table. */
import { createQueues, multiplyAll, type Report } from './multiply.ts';

declare global {
  interface Window {
    /** The run's report, for automated tests. */
    sycltsExample?: Promise<unknown>;
  }
}

const element = (id: string) => document.getElementById(id)!;

async function main(): Promise<Report> {
  const search = new URLSearchParams(location.search);
  const size = Number(search.get('size') ?? 64);
  // `?matrices` keeps the inputs and products in the report, for checks outside the page.
  const report = await multiplyAll(await createQueues(), size, 3, search.has('matrices'));
  element('adapter').textContent = report.adapter;
  element('limits').textContent =
    `${report.limits.invocations} invocations per workgroup, ${report.limits.workgroupStorage} bytes of workgroup memory`;
  element('sizes').textContent =
    `${report.n} x ${report.n}, ${report.repeat} timed runs per kernel`;
  for (const row of report.rows) {
    const tr = document.createElement('tr');
    for (const cell of [
      row.kernel,
      row.mode,
      String(row.block),
      String(row.pipelinesCreated),
      row.msPerRun.toFixed(2),
      row.gflops.toFixed(2),
      row.maxError.toExponential(1),
    ]) {
      tr.append(Object.assign(document.createElement('td'), { textContent: cell }));
    }
    element('rows').append(tr);
  }
  const check = element('check');
  check.textContent = report.ok
    ? `every result matches the CPU reference (tolerance ${report.tolerance.toExponential(1)})`
    : `FAILED: a result differs from the CPU reference by more than ${report.tolerance.toExponential(1)}`;
  check.className = report.ok ? 'ok' : 'bad';
  return report;
}

window.sycltsExample = main().catch((error: unknown) => {
  element('check').textContent = String(error);
  return { error: String(error) };
});
