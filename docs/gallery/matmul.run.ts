/** examples/matmul in the page: its own host code (multiplyAll), 64 x 64 matrices. */
import { createQueues, describeReport, multiplyAll } from '../../examples/matmul/src/multiply.ts';
import type { Print } from '../.vitepress/theme/live.ts';

export async function run(print: Print) {
  const report = await multiplyAll(await createQueues(), 64, 2, true);
  for (const line of describeReport(report)) print(line);
  return report;
}
