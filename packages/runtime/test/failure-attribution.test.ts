import { accessor, kernel, u32 } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { errc } from '../src/index.js';
import { compileSources } from './support/compile.js';
import { rejected } from './support/errors.js';
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
});
