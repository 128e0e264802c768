/** State in a device global: it keeps its value from launch to launch; the host reads it. */
import { Queue } from '@syclts/runtime';
import type { Print } from '../.vitepress/theme/live.ts';
import { count, tally } from './device-global-state.sycl.ts';

export async function run(print: Print) {
  const queue = await Queue.create();
  // Start from zero (the global starts at zero on each device, but a page may run this twice).
  await queue.copy([0, 0], tally).wait();

  const xs = queue.buffer(
    Float32Array.from({ length: 100 }, (_, i) => i),
    { access: 'read' },
  );
  const seen: number[][] = [];
  for (const threshold of [90, 50, 0]) {
    queue.parallelFor(100, count, { xs, threshold });
    const now = new Uint32Array(2);
    await queue.copy(tally, now).wait();
    seen.push(Array.from(now));
    print(
      `after threshold ${String(threshold).padEnd(2)}: ${now[0]} launches, ${now[1]} items over`,
    );
  }
  return seen;
}
