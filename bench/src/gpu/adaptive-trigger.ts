/**
 * What starting adaptive specialization costs a launch: the matrix multiply with plain kernel
 * arguments, host time from the call to completion (each launch waited for) of the launch whose
 * values have just become stable (it starts the background compile), against ordinary argument
 * launches of the same values on a queue without adaptive specialization. Each sample is a value
 * set of its own (matrix sizes n, n - 128, ... with k steps of 8, values no other row launches),
 * so that each finds no pipeline in the device's cache, timed after 300 ms of its launches; after
 * each trigger, launches go on until the folded pipeline takes over (one compile at a time per
 * kernel).
 */
import { vec4f } from '@syclts/dsl';
import { ndRange, type Queue } from '@syclts/runtime';
import { STABLE_LAUNCHES } from '@syclts/runtime/adaptive';
import { matmulArgs } from '../kernels/matmul.sycl.ts';
import { median } from './device.js';

export interface TriggerCost {
  /** Sizes sampled. */
  readonly sizes: readonly number[];
  /** Per size: the triggering launch's time, µs. */
  readonly triggerUs: readonly number[];
  /** Per size: the median of the ordinary argument launches' times, µs. */
  readonly ordinaryUs: readonly number[];
  /** Per size: launches after the trigger until the folded pipeline ran one, and milliseconds. */
  readonly takeover: readonly { launches: number; ms: number }[];
}

const BK = 8;

export async function adaptiveTrigger(
  plain: Queue,
  adaptive: Queue,
  n: number,
  samples: number,
  ordinaryLaunches: number,
): Promise<TriggerCost> {
  const a = plain.buffer(vec4f, (n * n) / 4, { access: 'read' });
  const b = plain.buffer(vec4f, (n * n) / 4, { access: 'read' });
  const c = plain.buffer(vec4f, (n * n) / 4, { access: 'write' });
  for (const buffer of [a, b]) {
    plain.device.queue.writeBuffer(
      buffer.gpuBuffer,
      0,
      Float32Array.from({ length: n * n }, () => Math.random() * 2 - 1),
    );
  }
  const launch = (q: Queue, s: number) =>
    q.parallelFor(ndRange([s / 8, s / 8], [16, 16]), matmulArgs, { a, b, c, n: s, bk: BK });
  const timed = async (q: Queue, s: number) => {
    const start = performance.now();
    launch(q, s);
    await q.wait();
    return (performance.now() - start) * 1e3;
  };
  const sizes = Array.from({ length: samples }, (_, j) => n - 128 * j).filter((s) => s >= 128);
  const triggerUs: number[] = [];
  const ordinaryUs: number[] = [];
  const takeover: { launches: number; ms: number }[] = [];
  const { stats } = adaptive;
  for (const s of sizes) {
    // 300 ms of launches first: the takeover's waits leave the GPU idle, and an idle GPU's clock
    // needs that long to climb back, or the launches timed next run at a fraction of it.
    const warm = performance.now();
    while (performance.now() - warm < 300) await timed(plain, s);
    const ordinary: number[] = [];
    for (let i = 0; i < ordinaryLaunches; i++) ordinary.push(await timed(plain, s));
    for (let i = 1; i < STABLE_LAUNCHES; i++) await timed(adaptive, s);
    const started = stats.specializationsStarted ?? 0;
    triggerUs.push(await timed(adaptive, s));
    if (stats.specializationsStarted !== started + 1) {
      throw new Error(`adaptive trigger, size ${s}: launch ${STABLE_LAUNCHES} started no compile`);
    }
    ordinaryUs.push(median(ordinary));
    const used = stats.specializedLaunches ?? 0;
    const start = performance.now();
    let launches = 0;
    while ((stats.specializedLaunches ?? 0) === used) {
      if (++launches > 10_000) throw new Error(`adaptive trigger, size ${s}: no takeover`);
      await timed(adaptive, s);
      // Waits that grow (to 50 ms): a software adapter's compile needs the cores the launches take.
      await new Promise((resolve) => setTimeout(resolve, Math.min(2 ** launches, 50)));
    }
    takeover.push({ launches, ms: performance.now() - start });
  }
  for (const buffer of [a, b, c]) buffer.gpuBuffer.destroy();
  return { sizes, triggerUs, ordinaryUs, takeover };
}
