/**
 * Pixels in and out, as a page with a canvas does it: `ImageData`'s bytes are refused with a hint
 * that works when followed, and what `read()` gives becomes `ImageData`'s bytes without a cast
 * (the `Uint8ClampedArray<ArrayBuffer>` below is checked by the test suite's type-check).
 */
import { describe, expect, test } from 'vitest';
import { errc } from '../src/index.js';
import { caught } from './support/errors.js';
import { freshQueue, randomU32 } from './support/gpu.js';

describe('RGBA8 pixels', () => {
  test("a Uint8ClampedArray is refused with a hint, and the hint's words round trip", async () => {
    const q = await freshQueue();
    const data = new Uint8ClampedArray(randomU32(16, 0x9a1).buffer);
    // The types refuse it too: this is what a caller without them gets.
    const error = caught(() => q.buffer(data as unknown as Uint32Array));
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toBe(
      'queue.buffer: a Uint8ClampedArray does not say its element type; pass a Float32Array, Uint32Array or Int32Array (bytes such as RGBA pixels as 32-bit words: new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4))',
    );
    const pixels = q.buffer(new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4));
    const bytes: Uint8ClampedArray<ArrayBuffer> = new Uint8ClampedArray(
      (await pixels.read()).buffer,
    );
    expect(Array.from(bytes)).toEqual(Array.from(data));
  });
});
