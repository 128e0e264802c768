/**
 * The edges of SYCL's specialization constant API: `nativeSpecializationConstant` on bundles
 * without constants, constants no build attached, queue destruction, device functions that read
 * constants through the kernel handler, shared argument specs and partial defaults.
 */
import { bindingOf, type Program, specializationId, u32 } from '@syclts/dsl';
import { beforeAll, describe, expect, test } from 'vitest';
import { errc, getKernelBundle, type Queue } from '../src/index.js';
import * as edges from './fixtures/compiled/edges.sycl.js';
import * as scaleModule from './fixtures/compiled/scale.sycl.js';
import { broken } from './fixtures/grid.js';
import { compileFixture } from './support/compile.js';
import { caught, rejected } from './support/errors.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

const { applyScaled, applyShape, calls, gain, plain, shape, weights } = edges;

beforeAll(() => {
  compileFixture('edges', edges);
  compileFixture('scale', scaleModule);
});

describe('nativeSpecializationConstant', () => {
  test('is false for a bundle without constants, on every policy', async () => {
    for (const policy of ['native', 'emulated', 'auto'] as const) {
      const q = await freshQueue({ specConstants: policy });
      const none = getKernelBundle(q, { state: 'input', kernels: [] });
      expect(none.containsSpecializationConstants()).toBe(false);
      expect(none.nativeSpecializationConstant()).toBe(false);
      const unused = getKernelBundle(q, { state: 'input', kernels: [plain] });
      // plain shares its image with kernels that use constants: the image has them.
      expect(unused.containsSpecializationConstants()).toBe(true);
      expect(unused.nativeSpecializationConstant()).toBe(policy !== 'emulated');
    }
  });
});

describe('a specializationId no build attached', () => {
  const loose = specializationId(u32, 41);

  test('is refused by handler and bundle set and get, naming it', async () => {
    const q = await freshQueue();
    const bundle = getKernelBundle(q, { state: 'input', kernels: [applyShape] });
    const errors = [
      caught(() => bundle.setSpecializationConstant(loose, 2)),
      caught(() => bundle.getSpecializationConstant(loose)),
      caught(() => q.submit((cgh) => cgh.setSpecializationConstant(loose, 2))),
      caught(() => q.submit((cgh) => cgh.getSpecializationConstant(loose))),
    ];
    for (const error of errors) {
      expect(error.errc).toBe(errc.invalid);
      expect(error.message).toContain(
        'specializationId(u32, default 41) was not compiled by syclts',
      );
    }
    expect(errors.map((e) => e.message.split(':')[0])).toEqual([
      'KernelBundle.setSpecializationConstant',
      'KernelBundle.getSpecializationConstant',
      'handler.setSpecializationConstant',
      'handler.getSpecializationConstant',
    ]);
    expect(bundle.hasSpecializationConstant(loose)).toBe(false);
  });

  test('attached by a second copy of @syclts/dsl, the error names the two copies', async () => {
    // A query makes the module loader evaluate the footer's registry a second time: the state of
    // an app that bundles one copy of @syclts/dsl and loads another from node_modules.
    const secondCopy = new URL('../../dsl/src/declarations/attach.ts?second-copy', import.meta.url)
      .href;
    const second = (await import(/* @vite-ignore */ secondCopy)) as typeof import('@syclts/dsl');
    const elsewhere = specializationId(u32, 5);
    second.attach(programOf(scaleModule.factor), [[elsewhere, 'src/other.sycl.ts#elsewhere']]);
    const q = await freshQueue();
    const error = caught(() => q.submit((cgh) => cgh.setSpecializationConstant(elsewhere, 2)));
    expect(error.errc).toBe(errc.invalid);
    expect(error.message).toMatch(
      /^handler\.setSpecializationConstant: this specializationId\(u32, default 5\) was attached by another copy of @syclts\/dsl \(file:.+\) than the one the runtime uses \(file:.+\): the app loads @syclts\/dsl twice/,
    );
  });

  test('an attached constant no kernel uses stays legal', async () => {
    const q = await freshQueue();
    const bundle = getKernelBundle(q, { state: 'input', kernels: [plain] });
    bundle.setSpecializationConstant(scaleModule.factor, 9);
    expect(bundle.getSpecializationConstant(scaleModule.factor)).toBe(9);
  });
});

describe('queue.destroy', () => {
  test('waits for the commands in flight, then refuses every use', async () => {
    const q = await freshQueue({ specConstants: 'emulated' });
    // A second queue on the device reads what q's launch wrote, after q is gone.
    const other = await freshQueue({ device: q.device });
    const n = 64;
    const offset = randomU32(1, 160)[0]! % 1000;
    const out = other.buffer(new Uint32Array(n).fill(POISON));
    const mine = q.buffer(new Uint32Array(n));
    const launched = q.submit((cgh) => {
      cgh.setSpecializationConstant(gain, 3);
      cgh.parallelFor(n, applyScaled, { out, offset, scale: 2 });
    });
    const destroyed = q.destroy();
    expect(q.destroy()).toBe(destroyed);
    const uses: [string, () => unknown][] = [
      ['queue.submit', () => q.submit(() => {})],
      ['queue.parallelFor', () => q.parallelFor(n, plain, { out })],
      ['queue.buffer', () => q.buffer(new Uint32Array(4))],
      ['queue.getKernelBundle', () => q.getKernelBundle({ state: 'input' })],
      ['buffer.write', () => mine.write(new Uint32Array(n))],
    ];
    for (const [api, use] of uses) {
      const error = caught(use);
      expect(error.errc).toBe(errc.invalid);
      expect(error.message).toBe(`${api}: the queue was destroyed (queue.destroy())`);
    }
    expect((await rejected(() => q.wait())).errc).toBe(errc.invalid);
    expect((await rejected(() => mine.read())).errc).toBe(errc.invalid);
    await launched.wait();
    await destroyed;
    // The launch submitted before destroy() ran with its own values.
    expect(Array.from(await out.read())).toEqual(
      Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 15 : 0) * 2 + offset),
    );
  });

  test('raises an error no one observed, as wait() does', async () => {
    const q = await freshQueue();
    const out = q.buffer(u32, 4);
    q.parallelFor(4, broken, { out });
    const error = await rejected(() => q.destroy());
    expect(error.errc).toBe(errc.build);
    expect(error.message).toMatch(
      /^queue\.destroy: an earlier command failed: src\/hand-written\.sycl\.ts:1:1: kernel src\/broken\.sycl\.ts#broken/,
    );
  });

  test('`using` and `await using` destroy the queue at the end of the scope', async () => {
    let kept: Queue;
    {
      await using q = await freshQueue();
      kept = q;
      const out = q.buffer(new Uint32Array(4).fill(POISON));
      q.parallelFor(4, plain, { out });
      expect(Array.from(await out.read())).toEqual([11, 11, 11, 11]);
    }
    expect(caught(() => kept.submit(() => {})).errc).toBe(errc.invalid);
    {
      using q = await freshQueue();
      kept = q;
    }
    expect(caught(() => kept.buffer(new Uint32Array(4))).errc).toBe(errc.invalid);
  });
});

describe.each(['native', 'emulated'] as const)('device code (%s)', (mode) => {
  test('device functions read constants through the handler, defaults filled with zeros', async () => {
    const q = await freshQueue({ specConstants: mode });
    const n = 37;
    const out = q.buffer(new Uint32Array(n).fill(POISON));
    q.copy([1000], calls);
    await q.parallelFor(n, applyShape, { out }).wait();
    // weights = [5, 0, 0, 0, 0], gain = 2, shape = { width: 0, height: 3, depth: 0 }.
    expect(Array.from(await out.read())).toEqual(
      Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 10 : 0) + 3000),
    );
    const counted = [POISON];
    await q.copy(calls, counted).wait();
    expect(counted).toEqual([1000 + n]);
  });

  test('set values reach device functions, composite and scalar alike', async () => {
    const q = await freshQueue({ specConstants: mode });
    const n = 23;
    const w = Array.from(randomU32(5, 170), (x) => x % 100);
    const g = 1 + (randomU32(1, 171)[0]! % 9);
    const h = 1 + (randomU32(1, 172)[0]! % 50);
    const out = q.buffer(new Uint32Array(n).fill(POISON));
    await q
      .submit((cgh) => {
        cgh.setSpecializationConstant(weights, w as [number, number, number, number, number]);
        cgh.setSpecializationConstant(gain, g);
        cgh.setSpecializationConstant(shape, { width: 1, height: h, depth: 2 });
        cgh.parallelFor(n, applyShape, { out });
      })
      .wait();
    expect(Array.from(await out.read())).toEqual(
      Array.from({ length: n }, (_, i) => w[i % 5]! * g + h * 1000),
    );
  });

  test('an array set, changed in place and set again, reaches the kernel with its new values', async () => {
    const q = await freshQueue({ specConstants: mode });
    const n = 10;
    const w = Array.from(randomU32(5, 174), (x) => 1 + (x % 100)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const run = async () => {
      const out = q.buffer(new Uint32Array(n).fill(POISON));
      await q
        .submit((cgh) => {
          cgh.setSpecializationConstant(weights, w);
          cgh.setSpecializationConstant(gain, 1);
          cgh.setSpecializationConstant(shape, { width: 0, height: 0, depth: 0 });
          cgh.parallelFor(n, applyShape, { out });
        })
        .wait();
      return Array.from(await out.read());
    };
    const expected = () => Array.from({ length: n }, (_, i) => w[i % 5]!);
    expect(await run()).toEqual(expected());
    w[2] += 1000;
    w[4] = 0;
    expect(await run()).toEqual(expected());
    // -0 is not the canonical u32 0 it equals: it is checked and stored as 0.
    const bundle = getKernelBundle(q, { state: 'input', kernels: [applyShape] });
    bundle.setSpecializationConstant(gain, -0);
    expect(Object.is(bundle.getSpecializationConstant(gain), 0)).toBe(true);
  });

  test('two kernels share one argument spec declared as a const, one extending it by spreads', async () => {
    const q = await freshQueue({ specConstants: mode });
    const n = 20;
    const [offset, scale] = Array.from(randomU32(2, 173), (x) => 1 + (x % 500));
    const out = q.buffer(new Uint32Array(n).fill(POISON));
    await q.parallelFor(n, applyScaled, { out, offset: offset!, scale: scale! }).wait();
    expect(Array.from(await out.read())).toEqual(
      Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 10 : 0) * scale! + offset!),
    );
    await q.parallelFor(n, plain, { out }).wait();
    expect(Array.from(await out.read())).toEqual(new Array(n).fill(11));
  });
});

test('partial defaults are whole on the host too', async () => {
  expect(weights.defaultValue).toEqual([5, 0, 0, 0, 0]);
  expect(shape.defaultValue).toEqual({ width: 0, height: 3, depth: 0 });
  const q = await freshQueue();
  const bundle = getKernelBundle(q, { state: 'input', kernels: [applyShape] });
  expect(bundle.getSpecializationConstant(weights)).toEqual([5, 0, 0, 0, 0]);
  expect(bundle.getSpecializationConstant(shape)).toEqual({ width: 0, height: 3, depth: 0 });
});

function programOf(declaration: object): Program {
  const binding = bindingOf(declaration);
  if (!binding) throw new Error('the fixture was not attached');
  return binding.program;
}
