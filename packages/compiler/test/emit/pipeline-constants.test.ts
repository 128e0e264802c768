import { expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';

const M = 'src/taps.sycl.ts';
const source = `
import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';

export const taps = specializationId(u32, 3);
export const divisor = specializationId(u32, 2);

export const sum = kernel(
  { range: 1, args: { src: accessor(u32, 'read'), dst: accessor(u32, 'write') } },
  (item, kh, { src, dst }) => {
    const i = item.getId(0);
    const n = kh.getSpecializationConstant(taps);
    const pairs = n / 2;
    const stride = u32(4);
    let acc = u32(0);
    for (let k = u32(0); k < n; k++) {
      acc += src[i * stride + k]!;
    }
    for (let p = u32(0); p < pairs; p++) {
      const n = p + 1000;
      acc += n;
    }
    dst[i] = acc + i / kh.getSpecializationConstant(divisor);
  },
);
`;

function compile() {
  const { program, diagnostics } = build([{ module: M, source }], {
    specConstants: 'both',
    validateIr: true,
  });
  expect(diagnostics).toEqual([]);
  return program!.images[0]!;
}

test('integer locals fixed at pipeline creation are used as override-expressions, natively only', () => {
  const image = compile();
  const native = image.wgsl.native!;
  // Loop bounds read the overrides themselves (no function-scope let that Tint would guard):
  // the initializer replaces the local in the IR, so it prints with the usual parentheses.
  expect(native).toContain('; k < sc_taps; ');
  expect(native).toContain('; p < (sc_taps / 2u); ');
  expect(native).toContain('[(i * 4u) + k]');
  // The inner `n` shadows the outer one and is a run-time value.
  expect(native).toContain('acc += n;');
  // A division by a specialization constant stays as written.
  expect(native).toContain('(i / sc_divisor)');
  const emulated = image.wgsl.emulated!;
  expect(emulated).toContain('; k < n; ');
  expect(emulated).toContain('[(i * 4u) + k]');
});

test.each(['native', 'emulated'] as const)(
  'the kernel computes the same sums (%s)',
  async (mode) => {
    const image = compile();
    const items = 37;
    const src = randomU32(items * 4, 59).map((x) => x % 1000);
    for (const [tapsValue, divisorValue] of [
      [3, 2],
      [4, 3],
      [1, 5],
    ] as const) {
      const { accessors } = await runKernel(image, `${M}#sum`, {
        mode,
        range: [items],
        accessors: { src, dst: new Uint32Array(items).fill(0xdeadbeef) },
        specConstants: { [`${M}#taps`]: tapsValue, [`${M}#divisor`]: divisorValue },
      });
      const pairs = Math.floor(tapsValue / 2);
      const expected = Array.from({ length: items }, (_, i) => {
        let acc = 0;
        for (let k = 0; k < tapsValue; k++) acc += src[i * 4 + k]!;
        for (let p = 0; p < pairs; p++) acc += p + 1000;
        return acc + Math.floor(i / divisorValue);
      });
      expect(Array.from(new Uint32Array(accessors.dst!))).toEqual(expected);
    }
  },
);
