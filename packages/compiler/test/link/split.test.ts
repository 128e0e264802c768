import { expect, test } from 'vitest';
import { emitProgram, link } from '../../src/index.js';
import { modules, resolveRelative } from '../support/ir.js';
import { sampleModules } from '../support/sample-program.js';

const input = () => ({ modules: modules(...sampleModules()), resolveImport: resolveRelative });

test('per-kernel split: one image per kernel, device functions copied into each image that reaches them', () => {
  const { images, programGlobals, diagnostics } = link(input(), { split: 'per-kernel' });
  expect(diagnostics).toEqual([]);
  expect(images.map((i) => i.id)).toEqual([
    'src/a.sycl.ts#ka',
    'src/a.sycl.ts#kb',
    'src/b.sycl.ts#kc',
    'src/c.sycl.ts#kd',
    'src/c.sycl.ts#ke',
  ]);
  const kb = images.find((i) => i.id === 'src/a.sycl.ts#kb')!;
  expect(kb.functions.map((f) => f.symbolicId)).toEqual(['src/b.sycl.ts#weigh']);
  // kb reads m, then bu through weigh: IDs in order of first use.
  expect(kb.specConstants.map((c) => [c.symbolicId, c.info.leaves.map((l) => l.id)])).toEqual([
    ['src/a.sycl.ts#m', [0, 1, 2, 3, 4, 5, 6, 7, 8]],
    ['src/b.sycl.ts#bu', [9]],
  ]);
  expect(images.find((i) => i.id === 'src/b.sycl.ts#kc')!.functions).toEqual([]);
  const [wgsl] = emitProgram({ images: [kb], programGlobals }).images.map((i) => i.wgsl.native!);
  expect(wgsl).toContain('fn fn_weigh(x: f32) -> f32 {');
  expect(wgsl).toContain('return f32(sc_bu) * x;');
});

test('whole-program split: one image, each constant once, IDs dense over the program', () => {
  const { images } = link(input(), { split: 'whole' });
  expect(images.map((i) => i.id)).toEqual(['program']);
  const [image] = images;
  expect(image!.kernels.map((k) => k.symbolicId)).toEqual([
    'src/a.sycl.ts#ka',
    'src/a.sycl.ts#kb',
    'src/b.sycl.ts#kc',
    'src/c.sycl.ts#kd',
    'src/c.sycl.ts#ke',
  ]);
  const ids = image!.specConstants.flatMap((c) => c.info.leaves.map((l) => l.id));
  expect(ids).toEqual(ids.map((_, i) => i));
  expect(new Set(image!.specConstants.map((c) => c.symbolicId)).size).toBe(12);
});

test('two builds with the modules given in different orders are byte-identical', () => {
  const build = (order: number[], split: 'per-module' | 'per-kernel' | 'whole') => {
    const objects = sampleModules();
    const linked = link(
      { modules: modules(...order.map((i) => objects[i]!)), resolveImport: resolveRelative },
      { split, specConstants: 'both' },
    );
    return JSON.stringify(emitProgram(linked));
  };
  for (const split of ['per-module', 'per-kernel', 'whole'] as const) {
    const first = build([0, 1, 2], split);
    expect(build([2, 0, 1], split)).toBe(first);
    expect(build([1, 2, 0], split)).toBe(first);
  }
});
