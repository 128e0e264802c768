import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';
import { describe, expect, test, vi } from 'vitest';
import { errc, ndRange, SyclError } from '../src/index.js';
import { factor, fill } from './fixtures/fill.js';
import { broken, mismatched } from './fixtures/grid.js';
import { compileSources } from './support/compile.js';
import { freshQueue, POISON } from './support/gpu.js';

async function rejection(promise: Promise<unknown>): Promise<SyclError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SyclError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('WebGPU errors become SyclErrors naming the kernel', () => {
  test('a shader that does not compile: errc.build on wait()', async () => {
    const q = await freshQueue();
    const out = q.buffer(u32, 4);
    const error = await rejection(q.parallelFor(4, broken, { out }).wait());
    expect(error.errc).toBe(errc.build);
    expect(error.message).toContain('src/broken.sycl.ts#broken');
    // Observed once, not raised again; the queue keeps working.
    await q.parallelFor(4, fill, { out }).wait();
    expect(Array.from(await out.read())).toEqual([0, 7, 14, 21]);
  });

  test('a shader needing a larger binding than its accessor: errc.build, each launch on its own wait()', async () => {
    const q = await freshQueue();
    const small = q.buffer(new Uint32Array(4).fill(POISON));
    // The layout's minimum binding sizes make pipeline creation check the shader's needs.
    for (let i = 0; i < 3; i++) {
      const error = await rejection(q.parallelFor(4, mismatched, { out: small }).wait());
      expect(error.errc).toBe(errc.build);
      expect(error.message).toContain(
        'src/hand-written.sycl.ts:1:1: kernel src/grid.sycl.ts#mismatched: creating its native pipeline failed',
      );
    }
    // What the failed launches should have written is not there: the read says why.
    const stale = await rejection(small.read());
    expect(stale.errc).toBe(errc.build);
    expect(stale.message).toMatch(
      /^buffer \d+\.read\(\): it reads what a failed command wrote: src\/hand-written\.sycl\.ts:1:1: kernel src\/grid\.sycl\.ts#mismatched: /,
    );
  });

  test('a raw WGSL body WebGPU refuses: errc.build at its place in the .sycl.ts source', async () => {
    const q = await freshQueue();
    // The build checks device code, and the runtime the sizes constants set (a workgroup array
    // past the device is kernel_not_supported before the pipeline, limits.test.ts); a raw WGSL
    // body is checked for its shape only, so a type error in it reaches WebGPU, whose refusal is
    // located in the body and names the kernel whose pipeline it was.
    const source = [
      "import { accessor, deviceFunction, kernel, specializationId, u32, wgsl } from '@syclts/dsl';",
      'export const factor = specializationId(u32, 1);',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: device code, a raw WGSL body
      'const seven = deviceFunction({ args: [], returns: u32 }, () => wgsl`let x: u32 = 1.5f; return x + ${factor};`);',
      "export const uses = kernel({ ndRange: 1, workgroupSize: [64], args: { out: accessor(u32, 'write') } },",
      '  (item, _kh, { out }) => { out[item.getGlobalId(0)] = seven(); });',
    ].join('\n');
    const factor = specializationId(u32, 1);
    const uses = kernel(
      { ndRange: 1, workgroupSize: [64], args: { out: accessor(u32, 'write') } },
      () => {},
    );
    compileSources([{ module: 'src/raw.sycl.ts', source, exports: { factor, uses } }]);
    const out = q.buffer(u32, 64);
    const error = await rejection(q.parallelFor(ndRange([64], [64]), uses, { out }).wait());
    expect(error.errc).toBe(errc.build);
    const lines = error.message.split('\n');
    expect(lines[0]).toBe(
      "src/raw.sycl.ts:3:73: error: cannot initialize 'let' of type 'u32' with value of type 'f32'",
    );
    expect(lines[1]).toBe(`  3 | ${source.split('\n')[2]}`);
    expect(lines.at(-1)).toMatch(
      /^kernel src\/raw\.sycl\.ts#uses: creating its \w+ pipeline failed$/,
    );
    const stale = await rejection(out.read());
    expect(stale.message).toBe(
      `buffer ${out.id}.read(): it reads what a failed command wrote: ${error.message}`,
    );
  });

  test('a validation error of a batched launch names the kernel and its declaration', async () => {
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(8).fill(POISON));
    await q.parallelFor(8, fill, { out }).wait();
    // Destroyed behind the runtime's back: only WebGPU's submit can tell.
    out.gpuBuffer.destroy();
    const error = await rejection(q.parallelFor(8, fill, { out }).wait());
    expect(error.errc).toBe(errc.runtime);
    expect(error.message).toMatch(
      /^src\/fill\.sycl\.ts:5:14: src\/fill\.sycl\.ts#fill: WebGPU validation error: .*destroyed/,
    );
  });

  test('an error nobody waited for is raised by the next submit, once', async () => {
    const q = await freshQueue();
    const out = q.buffer(u32, 4);
    const event = q.parallelFor(4, broken, { out });
    await vi.waitFor(() => expect(event.status).toBe('failed'), { timeout: 10_000 });
    let raised: unknown;
    try {
      q.parallelFor(4, fill, { out });
    } catch (error) {
      raised = error;
    }
    expect(raised).toBeInstanceOf(SyclError);
    expect((raised as SyclError).errc).toBe(errc.build);
    expect((raised as SyclError).message).toContain('queue.parallelFor');
    expect((raised as SyclError).message).toContain('src/broken.sycl.ts#broken');
    await q.parallelFor(4, fill, { out }).wait();
    expect(Array.from(await out.read())).toEqual([0, 7, 14, 21]);
  });

  test('queue.wait() raises errors no one observed', async () => {
    const q = await freshQueue();
    const out = q.buffer(u32, 4);
    q.parallelFor(4, broken, { out });
    const error = await rejection(q.wait());
    expect(error.errc).toBe(errc.build);
    await q.wait();
  });

  test('a WebGPU error outside any command is raised by the next submit', async () => {
    const q = await freshQueue();
    const out = q.buffer(u32, 4);
    // Listeners run in the order they were added: the queue's, added when it was created, first.
    const reported = new Promise<void>((resolve) =>
      q.device.addEventListener('uncapturederror', () => resolve(), { once: true }),
    );
    q.device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.STORAGE });
    await reported;
    expect(() => q.parallelFor(4, fill, { out })).toThrow(
      expect.objectContaining({
        errc: errc.runtime,
        message: expect.stringContaining('outside a command'),
      }),
    );
  });

  test('device loss fails a launch still waiting for its pipeline, and reads', async () => {
    const q = await freshQueue({ specConstants: 'native' });
    const out = q.buffer(u32, 4);
    const event = q.submit((cgh) => {
      cgh.setSpecializationConstant(factor, 12345);
      cgh.parallelFor(4, fill, { out });
    });
    q.device.destroy();
    await q.device.lost;
    const error = await rejection(event.wait());
    expect(error.errc).toBe(errc.runtime);
    expect(error.message).toContain('src/fill.sycl.ts#fill');
    expect(error.message).toContain('lost');
    expect((await rejection(out.read())).errc).toBe(errc.runtime);
  });

  test('device loss fails later submits', async () => {
    const q = await freshQueue();
    const out = q.buffer(u32, 4);
    await q.parallelFor(4, fill, { out }).wait();
    q.device.destroy();
    await q.device.lost;
    let raised: unknown;
    try {
      q.parallelFor(4, fill, { out });
    } catch (error) {
      raised = error;
    }
    expect(raised).toBeInstanceOf(SyclError);
    expect((raised as SyclError).errc).toBe(errc.runtime);
    expect((raised as SyclError).message).toContain('lost');
  });
});
