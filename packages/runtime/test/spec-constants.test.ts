import { f32 } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { build, errc, getKernelBundle, join, type Queue, SyclError } from '../src/index.js';
import { factor, fill } from './fixtures/fill.js';
import {
  coeffs,
  type MixValues,
  mix,
  mixDefaults,
  mixExpected,
  offset,
  params,
  unused,
} from './fixtures/mix.js';
import { freshQueue } from './support/gpu.js';

const N = 200;

async function runMix(q: Queue, setup: Parameters<Queue['submit']>[0] | null = null) {
  const out = q.buffer(new Float32Array(N).fill(Number.NaN), { access: 'write' });
  await q
    .submit((cgh) => {
      setup?.(cgh);
      cgh.parallelFor(N, mix, { out });
    })
    .wait();
  return Array.from(await out.read());
}

const custom: MixValues = {
  coeffs: [-1.25, 0.75, 0.5],
  params: { gain: -2, enabled: false, bias: [9, 17.5] },
  offset: 11,
};

function expectSyclError(run: () => unknown, code: string, ...parts: string[]): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SyclError);
  expect((caught as SyclError).errc).toBe(code);
  for (const part of parts) expect((caught as SyclError).message).toContain(part);
}

describe.each(['native', 'emulated'] as const)('specialization constants (%s)', (mode) => {
  test('defaults: scalar, array and struct constants, and one the build did not fold', async () => {
    const q = await freshQueue({ specConstants: mode });
    expect(await runMix(q)).toEqual(mixExpected(N, mixDefaults));
  });

  test('more value sets than a kernel keeps keys for, each launched twice apart, each its own', async () => {
    const q = await freshQueue({ specConstants: mode });
    // 20 combinations of two constants (over the 16 recent keys kept per kernel), each a set no
    // other combination shares, launched in two passes: every result is its own combination's.
    const sets = Array.from(
      { length: 20 },
      (_, k): MixValues => ({
        coeffs: [k % 5, 0.5, -0.25],
        params: mixDefaults.params,
        offset: Math.floor(k / 5) + 3,
      }),
    );
    const before = q.stats.pipelinesCreated;
    for (let pass = 0; pass < 2; pass++) {
      for (const set of sets) {
        const result = await runMix(q, (cgh) => {
          cgh.setSpecializationConstant(coeffs, set.coeffs as [number, number, number]);
          cgh.setSpecializationConstant(offset, set.offset);
        });
        expect(result).toEqual(mixExpected(N, set));
      }
    }
    // Natively one pipeline per combination, made once; emulated, the one emulated pipeline.
    const created = q.stats.pipelinesCreated - before;
    if (mode === 'native') expect(created).toBe(20);
    else expect(created).toBeLessThanOrEqual(1);
  });

  test('values that are not exactly f32 are known again by the f32 they check to', async () => {
    const q = await freshQueue({ specConstants: mode });
    // No value below is exactly an f32; a and its twin are different numbers that check to the
    // same f32 values (so to one device value set, and each to the set the other made); b checks
    // to other f32 values. Their f32 values are short binary fractions: the kernel's arithmetic
    // is exact, whatever the device contracts.
    const off = (x: number, by: number) => x + by * 1e-12;
    const a: MixValues = {
      coeffs: [off(0.5, 1), off(-0.25, 1), off(0.125, 1)],
      params: { gain: 2, enabled: false, bias: [off(1.5, 1), off(2.25, 1)] },
      offset: 5,
    };
    const twin: MixValues = {
      coeffs: [off(0.5, -1), off(-0.25, -2), off(0.125, 2)],
      params: { gain: 2, enabled: false, bias: [off(1.5, -3), off(2.25, 3)] },
      offset: 5,
    };
    const b: MixValues = {
      coeffs: [off(0.5, 1), off(-0.375, 1), off(0.125, 1)],
      params: { gain: 2, enabled: false, bias: [off(1.5, 1), off(2.75, 1)] },
      offset: 5,
    };
    const before = q.stats.pipelinesCreated;
    for (const set of [a, twin, b, a, b, twin]) {
      const result = await runMix(q, (cgh) => {
        cgh.setSpecializationConstant(coeffs, set.coeffs as [number, number, number]);
        cgh.setSpecializationConstant(
          params,
          set.params as MixValues['params'] & { bias: [number, number] },
        );
        cgh.setSpecializationConstant(offset, set.offset);
        expect(cgh.getSpecializationConstant(coeffs)).toEqual(set.coeffs.map(Math.fround));
      });
      expect(result).toEqual(mixExpected(N, set));
    }
    expect(mixExpected(N, a)).toEqual(mixExpected(N, twin));
    expect(mixExpected(N, a)).not.toEqual(mixExpected(N, b));
    const created = q.stats.pipelinesCreated - before;
    if (mode === 'native') expect(created).toBe(2);
    else expect(created).toBeLessThanOrEqual(1);
  });

  test('values set on the handler reach the kernel', async () => {
    const q = await freshQueue({ specConstants: mode });
    const result = await runMix(q, (cgh) => {
      cgh.setSpecializationConstant(coeffs, custom.coeffs as [number, number, number]);
      cgh.setSpecializationConstant(params, { gain: -2, enabled: false, bias: [9, 17.5] });
      cgh.setSpecializationConstant(offset, 11);
    });
    expect(result).toEqual(mixExpected(N, custom));
  });

  test('a bundle: set on input, build, run with useKernelBundle', async () => {
    const q = await freshQueue({ specConstants: mode });
    const input = getKernelBundle(q, { state: 'input', kernels: [mix] });
    input.setSpecializationConstant(
      params,
      custom.params as MixValues['params'] & { bias: [number, number] },
    );
    input.setSpecializationConstant(offset, 11);
    input.setSpecializationConstant(coeffs, [-1.25, 0.75, 0.5]);
    const executable = await build(input);
    const created = q.stats.pipelinesCreated;
    expect(created).toBe(1);
    const result = await runMix(q, (cgh) => cgh.useKernelBundle(executable));
    expect(result).toEqual(mixExpected(N, custom));
    expect(q.stats.pipelinesCreated).toBe(created);
    expect(executable.getSpecializationConstant(offset)).toBe(11);
  });
});

describe('specialization constants through the API', () => {
  test('handler get returns the default before set and the value after', async () => {
    const q = await freshQueue();
    let before: unknown;
    let after: unknown;
    await runMix(q, (cgh) => {
      before = cgh.getSpecializationConstant(params);
      cgh.setSpecializationConstant(params, { gain: 4, enabled: false, bias: [1, 2] });
      after = cgh.getSpecializationConstant(params);
    });
    expect(before).toEqual(mixDefaults.params);
    expect(after).toEqual({ gain: 4, enabled: false, bias: [1, 2] });
  });

  test('f32 values read back as the device sees them', async () => {
    const q = await freshQueue();
    const bundle = getKernelBundle(q, { state: 'input', kernels: [mix] });
    bundle.setSpecializationConstant(coeffs, [0.1, 0.2, 0.3]);
    expect(bundle.getSpecializationConstant(coeffs)).toEqual([0.1, 0.2, 0.3].map(Math.fround));
  });

  test('values survive build and join; join takes the first bundle that set a constant', async () => {
    const q = await freshQueue({ specConstants: 'native' });
    const a = getKernelBundle(q, { state: 'input', kernels: [mix] });
    const b = getKernelBundle(q, { state: 'input', kernels: [fill] });
    a.setSpecializationConstant(offset, 11);
    a.setSpecializationConstant(coeffs, [-1.25, 0.75, 0.5]);
    a.setSpecializationConstant(params, { gain: -2, enabled: false, bias: [9, 17.5] });
    b.setSpecializationConstant(factor, 29);
    b.setSpecializationConstant(offset, 999);
    const joined = join([a, b]);
    expect(joined.state).toBe('input');
    expect(joined.getSpecializationConstant(offset)).toBe(11);
    expect(joined.getSpecializationConstant(factor)).toBe(29);
    const executable = await build(joined);
    expect(executable.hasKernel(mix) && executable.hasKernel(fill)).toBe(true);
    expect(await runMix(q, (cgh) => cgh.useKernelBundle(executable))).toEqual(
      mixExpected(N, custom),
    );
    const out = q.buffer(new Uint32Array(100).fill(0xdeadbeef));
    await q
      .submit((cgh) => {
        cgh.useKernelBundle(executable);
        cgh.parallelFor(100, fill, { out });
      })
      .wait();
    expect(Array.from(await out.read())).toEqual(Array.from({ length: 100 }, (_, i) => 29 * i));
    const rejoined = join([
      executable,
      await build(getKernelBundle(q, { state: 'input', kernels: [fill] })),
    ]);
    expect(rejoined.state).toBe('executable');
    expect(rejoined.getSpecializationConstant(factor)).toBe(29);
  });

  test('a constant no kernel uses: hasSpecializationConstant is false, get and set still work', async () => {
    const q = await freshQueue();
    const bundle = getKernelBundle(q, { state: 'input', kernels: [mix] });
    expect(bundle.hasSpecializationConstant(unused)).toBe(false);
    expect(bundle.hasSpecializationConstant(params)).toBe(true);
    expect(bundle.containsSpecializationConstants()).toBe(true);
    expect(bundle.getSpecializationConstant(unused)).toBe(2.5);
    bundle.setSpecializationConstant(unused, -7.5);
    expect(bundle.getSpecializationConstant(unused)).toBe(-7.5);
    let seen: unknown;
    const result = await runMix(q, (cgh) => {
      cgh.setSpecializationConstant(unused, 3.25);
      seen = cgh.getSpecializationConstant(unused);
    });
    expect(seen).toBe(3.25);
    expect(result).toEqual(mixExpected(N, mixDefaults));
  });

  test('nativeSpecializationConstant follows the queue policy', async () => {
    const native = await freshQueue({ specConstants: 'native' });
    const emulated = await freshQueue({ specConstants: 'emulated' });
    expect(
      getKernelBundle(native, { state: 'input', kernels: [mix] }).nativeSpecializationConstant(),
    ).toBe(true);
    expect(
      getKernelBundle(emulated, { state: 'input', kernels: [mix] }).nativeSpecializationConstant(),
    ).toBe(false);
  });
});

describe('specialization constant errors leave state unchanged', () => {
  const wrong: [string, unknown, string][] = [
    ['a missing struct field', { gain: 1, enabled: true }, 'bias'],
    ['an extra struct field', { gain: 1, enabled: true, bias: [1, 2], scale: 3 }, 'scale'],
    ['a bool given as a number', { gain: 1, enabled: 1, bias: [1, 2] }, 'enabled'],
    ['a non-integer i32', { gain: 1.5, enabled: true, bias: [1, 2] }, '1.5'],
    ['an i32 out of range', { gain: 2 ** 31, enabled: true, bias: [1, 2] }, '2147483648'],
    ['a vector of the wrong length', { gain: 1, enabled: true, bias: [1, 2, 3] }, 'bias'],
    ['an f32 out of range', { gain: 1, enabled: true, bias: [1e39, 2] }, '1e+39'],
    ['a NaN', { gain: 1, enabled: true, bias: [Number.NaN, 2] }, 'NaN'],
    ['not an object', 42, '42'],
  ];

  test.each(wrong)('handler: %s', async (_, value, shown) => {
    const q = await freshQueue();
    const set = { gain: 8, enabled: false, bias: [3, 4] };
    let after: unknown;
    await runMix(q, (cgh) => {
      cgh.setSpecializationConstant(params, set as never);
      expectSyclError(
        () => cgh.setSpecializationConstant(params, value as never),
        errc.invalid,
        'handler.setSpecializationConstant',
        'src/mix.sycl.ts#params',
        shown,
      );
      after = cgh.getSpecializationConstant(params);
    });
    expect(after).toEqual(set);
  });

  test.each([
    ['a negative u32', -1],
    ['a fractional u32', 2.5],
    ['a u32 above 2^32-1', 2 ** 32],
    ['a string', '3'],
  ])('bundle: %s', async (_, value) => {
    const q = await freshQueue();
    const bundle = getKernelBundle(q, { state: 'input', kernels: [mix] });
    bundle.setSpecializationConstant(offset, 17);
    expectSyclError(
      () => bundle.setSpecializationConstant(offset, value as never),
      errc.invalid,
      'KernelBundle.setSpecializationConstant',
      'src/mix.sycl.ts#offset',
      JSON.stringify(value),
    );
    expect(bundle.getSpecializationConstant(offset)).toBe(17);
  });

  test('values are typed from the declaration', async () => {
    const q = await freshQueue();
    const bundle = getKernelBundle(q, { state: 'input', kernels: [mix] });
    const missingField = () =>
      // @ts-expect-error: a struct value needs every field
      bundle.setSpecializationConstant(params, { gain: 1, enabled: true });
    const wrongLength = () =>
      // @ts-expect-error: array(f32, 3) takes three numbers
      bundle.setSpecializationConstant(coeffs, [1, 2]);
    const wrongScalar = () =>
      // @ts-expect-error: a u32 takes a number
      bundle.setSpecializationConstant(offset, true);
    for (const set of [missingField, wrongLength, wrongScalar]) {
      expectSyclError(set, errc.invalid, 'KernelBundle.setSpecializationConstant');
    }
    expect(bundle.getSpecializationConstant(offset)).toBe(5);
  });

  test('setting on an executable bundle', async () => {
    const q = await freshQueue();
    const input = getKernelBundle(q, { state: 'input', kernels: [mix] });
    input.setSpecializationConstant(offset, 21);
    const executable = await build(input);
    const setOnExecutable = () =>
      // @ts-expect-error: an executable bundle takes no values
      executable.setSpecializationConstant(offset, 1);
    expectSyclError(setOnExecutable, errc.invalid, 'executable');
    expect(executable.getSpecializationConstant(offset)).toBe(21);
    const direct = getKernelBundle(q, { state: 'executable', kernels: [mix] });
    const setOnDirect = () =>
      // @ts-expect-error: likewise when the bundle was requested executable
      direct.setSpecializationConstant(offset, 1);
    expectSyclError(setOnDirect, errc.invalid);
  });

  test('a bundle without a kernel list holds every attached image', async () => {
    const q = await freshQueue();
    const all = getKernelBundle(q, { state: 'input' });
    expect(all.hasKernel(mix) && all.hasKernel(fill)).toBe(true);
    const some = getKernelBundle(q, { state: 'input', kernels: [fill] });
    expect(some.hasKernel(mix)).toBe(false);
  });

  test('handler rules around useKernelBundle', async () => {
    const q = await freshQueue();
    const input = getKernelBundle(q, { state: 'input', kernels: [mix] });
    input.setSpecializationConstant(offset, 13);
    const executable = await build(input);
    const expected = mixExpected(N, { ...mixDefaults, offset: 13 });
    // Each error is thrown inside a command group that still runs correctly afterwards.
    expect(
      await runMix(q, (cgh) => {
        cgh.useKernelBundle(executable);
        expectSyclError(
          () => cgh.setSpecializationConstant(offset, 1),
          errc.invalid,
          'handler.setSpecializationConstant',
        );
        expectSyclError(
          () => cgh.getSpecializationConstant(offset),
          errc.invalid,
          'handler.getSpecializationConstant',
        );
      }),
    ).toEqual(expected);
    expect(
      await runMix(q, (cgh) => {
        cgh.setSpecializationConstant(offset, 13);
        expectSyclError(
          () => cgh.useKernelBundle(executable),
          errc.invalid,
          'handler.useKernelBundle',
        );
      }),
    ).toEqual(expected);
    expect(() => q.submit((cgh) => cgh.useKernelBundle(input as never))).toThrow(
      expect.objectContaining({ errc: errc.invalid }),
    );
    const other = await freshQueue();
    const foreign = await build(getKernelBundle(other, { state: 'input', kernels: [mix] }));
    expect(() => q.submit((cgh) => cgh.useKernelBundle(foreign))).toThrow(
      expect.objectContaining({ errc: errc.invalid }),
    );
  });

  test('a kernel outside the bundle used by the command group', async () => {
    const q = await freshQueue();
    const executable = await build(getKernelBundle(q, { state: 'input', kernels: [mix] }));
    const out = q.buffer(new Uint32Array(4));
    expect(() =>
      q.submit((cgh) => {
        cgh.useKernelBundle(executable);
        cgh.parallelFor(4, fill, { out });
      }),
    ).toThrow(expect.objectContaining({ errc: errc.kernelNotSupported }));
  });

  test('an unattached declaration has no device image, and set/get refuse it', async () => {
    const q = await freshQueue();
    const bundle = getKernelBundle(q, { state: 'input', kernels: [mix] });
    const { specializationId } = await import('@syclts/dsl');
    const loose = specializationId(f32, 1.5);
    expect(bundle.hasSpecializationConstant(loose)).toBe(false);
    expect(() => bundle.setSpecializationConstant(loose, 2)).toThrow(
      expect.objectContaining({ errc: errc.invalid }),
    );
  });
});
