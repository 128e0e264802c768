/**
 * A specialization constant changed every frame: under `emulated` the value is written into a
 * buffer the one pipeline reads; under `native` each new value is a new pipeline.
 */
import { Queue } from '@syclts/runtime';
import type { Print } from '../.vitepress/theme/live.ts';
import { phase, wave } from './per-frame.sycl.ts';

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

async function animate(queue: Queue, frames: number, n: number) {
  const out = queue.buffer(new Float32Array(n), { access: 'write' });
  const rows: number[][] = [];
  for (let frame = 0; frame < frames; frame++) {
    await nextFrame();
    queue.submit((cgh) => {
      cgh.setSpecializationConstant(phase, frame / 4);
      cgh.parallelFor([n], wave, { out });
    });
    rows.push(Array.from(await out.read()));
  }
  const { pipelinesCreated, nativeLaunches, emulatedLaunches } = queue.stats;
  return { rows, pipelinesCreated, nativeLaunches, emulatedLaunches };
}

export async function run(print: Print) {
  const frames = 12;
  const n = 64;
  const results: Record<string, Awaited<ReturnType<typeof animate>>> = {};
  for (const specConstants of ['emulated', 'native'] as const) {
    const result = await animate(await Queue.create({ specConstants }), frames, n);
    results[specConstants] = result;
    print(
      `${specConstants.padEnd(8)}: ${frames} frames, ${result.pipelinesCreated} pipeline(s) created, ` +
        `${result.nativeLaunches} native and ${result.emulatedLaunches} emulated launches`,
    );
  }
  const last = results.emulated!.rows.at(-1)!;
  print(
    `last frame:  ${last
      .slice(0, 6)
      .map((v) => v.toFixed(3))
      .join(' ')} …`,
  );
  return { frames, n, ...results };
}
