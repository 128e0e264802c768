/**
 * A storm of new value sets: LAUNCHES launches of a kernel with no emulated variant, each with a
 * value set never seen before, issued without waiting. The runtime compiles at most
 * MAX_COMPILES_IN_FLIGHT pipelines at a time and keeps at most the cache's size; every result is
 * checked, and the process ends by itself (exit code 0) when all is done.
 *
 *   node storm.mjs [launches]
 */
import { MAX_COMPILES_IN_FLIGHT, ndRange, Queue } from '@syclts/runtime';
import { factor, stamp } from './kernels/storm.sycl.ts';

const launches = Number(process.argv[2] ?? 10_000);
const GROUP = 64;
const queue = await Queue.create({ specConstants: 'native', pipelineCacheSize: 64 });
console.log(`adapter: ${queue.adapterDescription}`);
const out = queue.buffer(new Uint32Array(launches * GROUP).fill(0xdeadbeef));
const t0 = performance.now();
for (let slot = 0; slot < launches; slot++) {
  queue.submit((cgh) => {
    cgh.setSpecializationConstant(factor, 1000 + slot);
    cgh.parallelFor(ndRange(GROUP, GROUP), stamp, { out, slot });
  });
}
const issued = performance.now();
const data = await out.read();
const done = performance.now();
let wrong = 0;
for (let slot = 0; slot < launches; slot++) {
  for (let i = 0; i < GROUP; i++) {
    if (data[slot * GROUP + i] !== ((1000 + slot) * i + slot) >>> 0) wrong++;
  }
}
const { stats } = queue;
const rss = process.memoryUsage().rss / 2 ** 20;
console.log(
  JSON.stringify({
    launches,
    wrong,
    issueMs: issued - t0,
    totalMs: done - t0,
    msPerPipeline: (done - t0) / stats.pipelinesCreated,
    pipelinesCreated: stats.pipelinesCreated,
    evictions: stats.pipelineCacheEvictions,
    compilesInFlight: MAX_COMPILES_IN_FLIGHT,
    rssMiB: Math.round(rss),
  }),
);
if (wrong > 0) process.exitCode = 1;
