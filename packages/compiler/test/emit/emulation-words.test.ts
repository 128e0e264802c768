/**
 * An emulated record whose layout breaks WGSL's uniform rules is declared as its 16-byte words in
 * a uniform; each constant is read from them at its offset, in its host form (bool as u32, then
 * converted), whatever its scalar type. The values are checked on the adapter in the runtime's
 * tests (test/compiled.test.ts, the design's layout); f16 only here, as text, since the software
 * adapter has no shader-f16.
 */
import { expect, test } from 'vitest';
import { build } from '../../src/index.js';

const source = `import { accessor, array, bool, f16, f32, i32, kernel, specializationId } from '@syclts/dsl';
export const taps = specializationId(array(f32, 3), [1, 2, 3]);
export const h = specializationId(f16, 1.5);
export const k = specializationId(i32, -3);
export const flag = specializationId(bool, true);
export const run = kernel({ range: 1, args: { out: accessor(f32, 'write') } }, (_, kh, { out }) => {
  // Used whole (copied), the array is rebuilt from its words; read only by index, it would not be.
  const t = kh.getSpecializationConstant(taps);
  const whole = t;
  const half = kh.getSpecializationConstant(h);
  const n = kh.getSpecializationConstant(k);
  const on = kh.getSpecializationConstant(flag);
  out[0] = whole[1]! + f32(half) + f32(n) + (on ? 1 : 0);
});
`;

test('a record of f32 taps (stride 4), an f16, an i32 and a bool is read from its words', () => {
  const { program, diagnostics } = build([{ module: 'src/w.sycl.ts', source }], {
    specConstants: 'emulated',
  });
  expect(diagnostics).toEqual([]);
  const image = program!.images[0]!;
  // taps @0 (12 bytes), h @12 (2 bytes), k @16, flag @20: the design's packing, kept.
  expect(Object.values(image.specConstants).map((c) => c.emulationOffset)).toEqual([0, 12, 16, 20]);
  expect(image.emulation).toMatchObject({ addressSpace: 'uniform', size: 32 });
  const wgsl = image.wgsl.emulated!;
  expect(wgsl).toContain('  w: array<vec4<u32>, 2>,');
  expect(wgsl).toContain('var<uniform> sc_buffer: array<SpecConstants, 64>;');
  expect(wgsl).toMatch(
    /fn (\w+)\(slot: u32\) -> array<f32, 3> \{\n {2}return array<f32, 3>\(bitcast<f32>\(sc_buffer\[slot\]\.w\[0\]\.x\), bitcast<f32>\(sc_buffer\[slot\]\.w\[0\]\.y\), bitcast<f32>\(sc_buffer\[slot\]\.w\[0\]\.z\)\);\n\}/,
  );
  expect(wgsl).toContain('bitcast<vec2<f16>>(sc_buffer[slot].w[0].w).x');
  expect(wgsl).toContain('bitcast<i32>(sc_buffer[slot].w[1].x)');
  expect(wgsl).toContain('(sc_buffer[slot].w[1].y != 0u)');
});

test('an array constant read by index is read element by element from the words, not rebuilt', () => {
  const indexed = `import { accessor, array, i32, kernel, specializationId, u32 } from '@syclts/dsl';
export const bias = specializationId(array(u32, 6), [7, 0, 0, 0, 0, 0]);
export const taps = specializationId(array(i32, 5), [1, 2, 3, 4, 5]);
export const run = kernel({ range: 1, args: { out: accessor(i32, 'write') } }, (_, kh, { out }) => {
  let sum = i32(kh.getSpecializationConstant(bias)[0]!);
  const t = kh.getSpecializationConstant(taps);
  for (let k = i32(0); k < 5; k++) {
    sum += t[k]! * t[u32(k)]!;
  }
  out[0] = sum + t[4]!;
});
`;
  const { program, diagnostics } = build([{ module: 'src/e.sycl.ts', source: indexed }], {
    specConstants: 'emulated',
  });
  expect(diagnostics).toEqual([]);
  const image = program!.images[0]!;
  expect(Object.values(image.specConstants).map((c) => c.emulationOffset)).toEqual([0, 24]);
  const wgsl = image.wgsl.emulated!;
  // Element i of taps is word 6 + i, the index clamped to the array as WGSL clamps one.
  expect(wgsl).toContain(
    'fn H_sc_taps_at(slot: u32, i: u32) -> i32 {\n  let w = 6u + min(i, 4u);\n  return bitcast<i32>(sc_buffer[slot].w[w >> 2u][w & 3u]);\n}',
  );
  expect(wgsl).toContain('sum += H_sc_taps_at(slot, u32(k)) * H_sc_taps_at(slot, u32(k));');
  expect(wgsl).toContain('a_run_out[0u] = sum + H_sc_taps_at(slot, 4u);');
  expect(wgsl).toContain('var sum: i32 = i32(H_sc_bias_at(slot, 0u));');
  expect(wgsl).not.toMatch(/let t\b|-> array<i32, 5>/);
});
