/** examples/histogram in the page: its own host code (runHistogram), its own summary. */
import { Queue } from '@syclts/runtime';
import { describeReport, runHistogram } from '../../examples/histogram/src/histogram.ts';
import type { Print } from '../.vitepress/theme/live.ts';

export async function run(print: Print) {
  const report = await runHistogram(await Queue.create(), {
    batches: 4,
    samplesPerBatch: 4096,
    keepInputs: true,
  });
  for (const line of describeReport(report)) print(line);
  return report;
}
