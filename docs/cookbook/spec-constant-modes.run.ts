/** The same launches under each policy: the results are the same, the work is not. */
import { Queue, type SpecConstantPolicy } from '@syclts/runtime';
import type { Print } from '../.vitepress/theme/live.ts';
import { multiples, stride } from './spec-constant-modes.sycl.ts';

export async function run(print: Print) {
  const strides = [2, 3, 2, 5, 2];
  const rows: Record<string, { outputs: number[][]; stats: Record<string, number> }> = {};
  for (const policy of ['native', 'emulated', 'auto'] satisfies SpecConstantPolicy[]) {
    const queue = await Queue.create({ specConstants: policy });
    const out = queue.buffer(new Uint32Array(8), { access: 'write' });
    const outputs: number[][] = [];
    for (const value of strides) {
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(stride, value);
        cgh.parallelFor([8], multiples, { out });
      });
      outputs.push(Array.from(await out.read()));
    }
    const { pipelinesCreated, nativeLaunches, emulatedLaunches } = queue.stats;
    rows[policy] = { outputs, stats: { pipelinesCreated, nativeLaunches, emulatedLaunches } };
    print(
      `${policy.padEnd(8)}: ${pipelinesCreated} pipeline(s) created, ${nativeLaunches} native and ` +
        `${emulatedLaunches} emulated launches; last: ${outputs.at(-1)!.join(' ')}`,
    );
  }
  return { strides, ...rows };
}
