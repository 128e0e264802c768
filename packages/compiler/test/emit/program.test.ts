import type { DeviceImage, JsonValue } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { emitProgram, link } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';
import { modules, resolveRelative } from '../support/ir.js';
import {
  constants,
  sampleKernels,
  sampleModules,
  symbolicIdOf,
} from '../support/sample-program.js';

const { images, programGlobals, diagnostics } = link(
  { modules: modules(...sampleModules()), resolveImport: resolveRelative },
  { specConstants: 'both' },
);
const program = emitProgram({ images, programGlobals });
const names = Object.keys(constants) as (keyof typeof constants)[];
const ITEMS = 3;

test('the program links into one image per module, with every constant numbered once', () => {
  expect(diagnostics).toEqual([]);
  expect(program.images.map((i) => i.id)).toEqual([
    'src/a.sycl.ts',
    'src/b.sycl.ts',
    'src/c.sycl.ts',
  ]);
  const declared = program.images.flatMap((i) => Object.keys(i.specConstants));
  // `dir` lands in a and c, `bu` in a (through b's weigh) and b: every constant is somewhere.
  expect(new Set(declared)).toEqual(new Set(names.map(symbolicIdOf)));
  for (const image of program.images) {
    const ids = Object.values(image.specConstants).flatMap((c) => c.leaves.map((l) => l.id));
    expect(ids).toEqual(ids.map((_, n) => n));
  }
});

const imageOf = (kernelId: string): DeviceImage =>
  program.images.find((i) => kernelId in i.kernels)!;

describe.each(['native', 'emulated'] as const)('%s specialization constants', (mode) => {
  test.each(sampleKernels.map((k) => [`${k.module}#${k.name}`, k] as const))(
    '%s reads defaults and set values',
    async (id, kernel) => {
      const image = imageOf(id);
      const hostDefaults = Object.fromEntries(
        names.map((n) => [symbolicIdOf(n), constants[n].hostDefault]),
      );
      for (const values of ['default', 'set'] as const) {
        const value = (n: keyof typeof constants): JsonValue =>
          values === 'set' ? constants[n].setValue : constants[n].hostDefault;
        const expected = kernel.expected(value);
        const width = expected.length;
        const out = new Float32Array(width * ITEMS + 4).fill(Number.NaN);
        const specConstants =
          values === 'set'
            ? Object.fromEntries(names.map((n) => [symbolicIdOf(n), constants[n].setValue]))
            : {};
        const result = await runKernel(image, id, {
          mode,
          range: [ITEMS],
          accessors: { out },
          specConstants: Object.fromEntries(
            Object.entries(specConstants).filter(([sid]) => sid in image.specConstants),
          ),
          hostDefaults,
        });
        const got = [...new Float32Array(result.accessors.out!)];
        const want = Array.from({ length: ITEMS }, (_, i) =>
          expected.map((x) => Math.fround(x + 100 * i)),
        ).flat();
        expect(got.slice(0, width * ITEMS), `${values} values`).toEqual(want);
        expect(got.slice(width * ITEMS).every(Number.isNaN)).toBe(true);
      }
    },
  );
});

test('an f16 value that appears only as a literal still enables f16 in both variants', async () => {
  const { build } = await import('../../src/build.js');
  const source = `import { accessor, f16, kernel, u32 } from '@syclts/dsl';
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  out[item.getId(0)] = u32(f16(-65504)) + u32(f16(0.5));
});`;
  const built = build([{ module: 'src/h.sycl.ts', source }], { specConstants: 'both' });
  expect(built.diagnostics).toEqual([]);
  const wgsl = built.program!.images[0]!.wgsl;
  // SwiftShader offers no shader-f16: the WGSL is what can be checked here (the runtime's f16
  // tests run f16 kernels where an adapter offers it).
  for (const text of [wgsl.native!, wgsl.emulated!]) {
    expect(text).toMatch(/^enable f16;$/m);
    expect(text).toContain('-65504.0h');
  }
});

test('f16 named only in a raw WGSL body enables f16; named only in its comments, it does not', async () => {
  const { build } = await import('../../src/build.js');
  const module = (
    body: string,
  ) => `import { accessor, deviceFunction, f32, kernel, wgsl } from '@syclts/dsl';
const half = deviceFunction({ args: [f32], returns: f32 }, (x) => wgsl\`${body}\`);
export const k = kernel({ range: 1, args: { out: accessor(f32, 'write') } }, (item, _kh, { out }) => {
  out[item.getId(0)] = half(f32(item.getId(0)));
});`;
  const enables = (body: string) => {
    const built = build([{ module: 'src/r.sycl.ts', source: module(body) }], {
      specConstants: 'both',
    });
    expect(built.diagnostics).toEqual([]);
    const { native, emulated } = built.program!.images[0]!.wgsl;
    return [native!, emulated!].map((text) => /^enable f16;$/m.test(text));
  };
  for (const body of [
    `return f32(f16(\${x}));`,
    `return f32(vec2h(\${x}, 1.0).y);`,
    `let m = mat2x2h(); return \${x} + f32(m[0].x);`,
    `return \${x} * f32(0.5h);`,
    `return \${x} * f32(0x1p-2h);`,
  ]) {
    expect(enables(body), body).toEqual([true, true]);
  }
  expect(enables(`// no f16 here, nor 2.0h\nreturn \${x} * 0.5; /* vec2h */`)).toEqual([
    false,
    false,
  ]);
});
