/**
 * `reinterpret(buffer, type)` (SYCL's `buffer::reinterpret`): one GPU buffer seen as another
 * element type, no copy; the views order their commands as one buffer and die together.
 */
import { accessor, f32, kernel, u32, vec4u } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { errc, reinterpret } from '../src/index.js';
import { compileSources } from './support/compile.js';
import { caught, rejected } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

const source = [
  "import { accessor, kernel, vec4u } from '@syclts/dsl';",
  "export const bump = kernel({ range: 1, args: { xs: accessor(vec4u, 'read_write') } }, (item, _kh, { xs }) => {",
  '  const i = item.getId(0);',
  '  const v = xs[i]!;',
  '  xs[i] = vec4u(v.x + 1, v.y + 2, v.z + 3, v.w + 4);',
  '});',
].join('\n');
const bump = kernel({ range: 1, args: { xs: accessor(vec4u, 'read_write') } }, () => {});
compileSources([{ module: 'src/bump.sycl.ts', source, exports: { bump } }]);

describe('reinterpret', () => {
  test('a kernel writes through a vec4u view; the u32 buffer reads what it wrote', async () => {
    const q = await freshQueue();
    const words = randomU32(4 * 37, 0x5eed);
    const buffer = q.buffer(words);
    const view = reinterpret(buffer, vec4u);
    expect(view.length).toBe(37);
    expect(view.element).toBe(vec4u);
    q.parallelFor(37, bump, { xs: view });
    const after = await buffer.read();
    expect(Array.from(after)).toEqual(Array.from(words, (w, i) => (w + (i % 4) + 1) >>> 0));
  });

  test('the bits of one element type are the bits of the other', async () => {
    const q = await freshQueue();
    const floats = Float32Array.from({ length: 9 }, () => Math.random() * 200 - 100);
    const bits = await reinterpret(q.buffer(floats), u32).read();
    expect(Array.from(bits)).toEqual(Array.from(new Uint32Array(floats.buffer)));
    const back = reinterpret(q.buffer(new Uint32Array(bits)), f32);
    expect(Array.from(await back.read())).toEqual(Array.from(floats));
  });

  test('a write through one view is ordered before a read through the other', async () => {
    const q = await freshQueue();
    const buffer = q.buffer(u32, new Uint32Array(8).fill(POISON));
    const view = reinterpret(buffer, vec4u);
    view.write([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect(Array.from(await buffer.read())).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test('destroying one view destroys the other', async () => {
    const q = await freshQueue();
    const buffer = q.buffer(new Uint32Array(4).fill(POISON));
    const view = reinterpret(buffer, f32);
    view.destroy();
    expect(buffer.destroyed).toBe(true);
    const error = await rejected(() => buffer.read());
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toMatch(/^buffer\.read: buffer \d+ was destroyed/);
  });

  test('bytes that are not a whole number of the new elements are refused', async () => {
    const q = await freshQueue();
    const buffer = q.buffer(new Uint32Array(6));
    const error = caught(() => reinterpret(buffer, vec4u));
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toMatch(
      /^reinterpret: buffer \d+ holds 24 bytes, not a whole number of vec4<u32> \(16 bytes each\)$/,
    );
  });
});
