import { accessor, kernel, u32 } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { errc } from '../src/index.js';
import { compileSources } from './support/compile.js';
import { caught, rejected } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

/** Two kernels whose symbolic IDs are a prefix of one another: `#k` (line 2) and `#kb` (line 4). */
const source = [
  "import { accessor, kernel, u32 } from '@syclts/dsl';",
  "export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), v: u32 } },",
  '  (item, _kh, { out, v }) => { out[item.getId(0)] = v + item.getId(0); });',
  "export const kb = kernel({ range: 1, args: { out: accessor(u32, 'write'), v: u32 } },",
  '  (item, _kh, { out, v }) => { out[item.getId(0)] = v ^ item.getId(0); });',
].join('\n');
const args = { out: accessor(u32, 'write'), v: u32 };
const k = kernel({ range: 1, args }, () => {});
const kb = kernel({ range: 1, args }, () => {});
compileSources([{ module: 'src/pair.sycl.ts', source, exports: { k, kb } }]);

describe('a failure is reported at its own kernel', () => {
  test('a kernel whose name extends another is located at its own declaration', async () => {
    const q = await freshQueue();
    const [v] = randomU32(1, 301);
    const out = q.buffer(new Uint32Array(8).fill(POISON));
    // `#k` first, so that a lookup by substring finds it for `#kb`.
    await q.parallelFor(8, k, { out, v: v! }).wait();
    await q.parallelFor(8, kb, { out, v: v! }).wait();
    expect(Array.from(await out.read())).toEqual(
      Array.from({ length: 8 }, (_, i) => (v! ^ i) >>> 0),
    );
    // Destroyed behind the runtime's back: only WebGPU's submit can tell.
    out.gpuBuffer.destroy();
    const error = await rejected(() => q.parallelFor(8, kb, { out, v: v! }).wait());
    expect(error.errc).toBe(errc.runtime);
    expect(error.message).toMatch(/^src\/pair\.sycl\.ts:4:14: src\/pair\.sycl\.ts#kb: /);
  });

  test("a failed launch fails its own wait, named after it; an independent launch's wait does not throw it", async () => {
    const q = await freshQueue();
    const [v, w] = randomU32(2, 302);
    const gone = q.buffer(new Uint32Array(8).fill(POISON), { label: 'gone' });
    const kept = q.buffer(new Uint32Array(8).fill(POISON));
    const other = q.buffer(new Uint32Array(8).fill(POISON));
    await q.parallelFor(8, k, { out: gone, v: v! }).wait();
    gone.gpuBuffer.destroy();
    const good = q.parallelFor(8, kb, { out: kept, v: w! });
    // A command of its own submits the batch so far: the failing launch is in the next one.
    other.write(randomU32(8, 303));
    const bad = q.parallelFor(8, k, { out: gone, v: v! });
    await good.wait();
    const error = await rejected(() => bad.wait());
    expect(error.errc).toBe(errc.runtime);
    expect(error.message).toMatch(
      /^src\/pair\.sycl\.ts:2:14: src\/pair\.sycl\.ts#k: WebGPU validation error: .*"gone".*destroyed/s,
    );
    expect(Array.from(await kept.read())).toEqual(
      Array.from({ length: 8 }, (_, i) => (w! ^ i) >>> 0),
    );
    // Observed once: nothing is raised again, and the queue goes on.
    await q.parallelFor(8, kb, { out: kept, v: v! }).wait();
    expect(Array.from(await kept.read())).toEqual(
      Array.from({ length: 8 }, (_, i) => (v! ^ i) >>> 0),
    );
  });

  test('a launch submitted with a failed one did not run: its wait says so, naming both', async () => {
    const q = await freshQueue();
    const [v] = randomU32(1, 304);
    const gone = q.buffer(new Uint32Array(8).fill(POISON), { label: 'gone' });
    const kept = q.buffer(new Uint32Array(8).fill(POISON), { label: 'kept' });
    await q.parallelFor(8, k, { out: gone, v: v! }).wait();
    gone.gpuBuffer.destroy();
    // One batch: WebGPU refuses the whole submission, so the second launch does not run either.
    const bad = q.parallelFor(8, k, { out: gone, v: v! });
    const skipped = q.parallelFor(8, k, { out: kept, v: v! });
    const refused = await rejected(() => skipped.wait());
    expect(refused.errc).toBe(errc.runtime);
    expect(refused.message).toMatch(
      /^src\/pair\.sycl\.ts:2:14: src\/pair\.sycl\.ts#k: not run: WebGPU refused the submission it shared with src\/pair\.sycl\.ts#k: .*"gone".*destroyed/s,
    );
    const error = await rejected(() => bad.wait());
    expect(error.message).toMatch(
      /^src\/pair\.sycl\.ts:2:14: src\/pair\.sycl\.ts#k: WebGPU validation error: /,
    );
    const stale = await rejected(() => kept.read());
    expect(stale.message).toBe(
      `kept.read(): it reads what a failed command wrote: ${refused.message}`,
    );
  });
  test("a refused batch's error is raised once, the culprit's: the launches not run are not raised apart", async () => {
    const q = await freshQueue();
    const [v, w] = randomU32(2, 305);
    const gone = q.buffer(new Uint32Array(8).fill(POISON), { label: 'gone' });
    const kept = q.buffer(new Uint32Array(8).fill(POISON), { label: 'kept' });
    const other = q.buffer(new Uint32Array(8).fill(POISON), { label: 'other' });
    // Both pipelines ready: no launch waits, so the batch is submitted as the model says.
    await q.parallelFor(8, k, { out: gone, v: v! }).wait();
    await q.parallelFor(8, kb, { out: kept, v: v! }).wait();
    gone.gpuBuffer.destroy();
    // The launch not run first in the batch: the error raised must still be the culprit's.
    const skipped = q.parallelFor(8, kb, { out: kept, v: v! });
    const bad = q.parallelFor(8, k, { out: gone, v: v! });
    // A command of its own submits the batch, and Dawn refuses it at once.
    other.write(randomU32(8, 306));
    const raised = caught(() => q.parallelFor(8, kb, { out: other, v: w! }));
    expect(raised.errc).toBe(errc.runtime);
    expect(raised.message).toMatch(
      /^queue\.parallelFor: an earlier command failed: src\/pair\.sycl\.ts:2:14: src\/pair\.sycl\.ts#k: WebGPU validation error: /,
    );
    // Raised once: the next submit runs.
    await q.parallelFor(8, kb, { out: other, v: w! }).wait();
    expect(Array.from(await other.read())).toEqual(
      Array.from({ length: 8 }, (_, i) => (w! ^ i) >>> 0),
    );
    expect((await rejected(() => skipped.wait())).message).toContain(': not run: ');
    expect((await rejected(() => bad.wait())).message).toContain('#k: WebGPU validation error: ');
    await q.wait();
  });
});
