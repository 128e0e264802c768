/** The tensor-core matrix multiply in the browser: the same report as in Node, as text. */
import { createQueue, describeReport, multiplyAll, type Report } from './multiply.ts';

declare global {
  interface Window {
    /** The run's report, for automated tests. */
    sycltsExample?: Promise<unknown>;
  }
}

const element = (id: string) => document.getElementById(id)!;

async function main(): Promise<Report> {
  const size = Number(new URLSearchParams(location.search).get('size') ?? 1024);
  const report = await multiplyAll(await createQueue(), size, 20);
  element('report').textContent = describeReport(report).join('\n');
  element('report').className = report.ok ? 'ok' : 'bad';
  return report;
}

window.sycltsExample = main().catch((error: unknown) => {
  element('report').textContent = String(error);
  return { error: String(error) };
});
