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
  const t = kh.getSpecializationConstant(taps);
  const half = kh.getSpecializationConstant(h);
  const n = kh.getSpecializationConstant(k);
  const on = kh.getSpecializationConstant(flag);
  out[0] = t[1]! + f32(half) + f32(n) + (on ? 1 : 0);
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
