/**
 * Texture arguments and built-ins: what the build refuses (SYCL1031), each at its place, and
 * that every accepted form gives WGSL that Dawn accepts, with the bindings the runtime lays out.
 */
import { describe, expect, test } from 'vitest';
import { build } from '../../src/build.js';
import { compileModule, integrationFooter } from '../../src/index.js';
import { gpu } from '../support/gpu.js';

const M = 'src/t.sycl.ts';

const ARGS = `{
    src: texture2d(f32), ints: texture2d(u32), arr: texture2dArray(f32), vol: texture3d(f32),
    cube: textureCube(f32), line: texture1d(i32), smp: sampler(), video: externalTexture(),
    dst: storageTexture2d('rgba8unorm', 'write'), ro: storageTexture2d('r32uint', 'read'),
    rw: storageTexture2d('r32float', 'read_write'), out: accessor(vec4f, 'write'),
    words: accessor(u32, 'write'),
  }`;

function kernelWith(body: string, args = ARGS): string {
  return `import {
  accessor, externalTexture, f32, i32, kernel, sampler, storageTexture2d, texture1d, texture2d,
  texture2dArray, texture3d, textureCube, u32, vec2f, vec2i, vec2u, vec3f, vec3u, vec4f, vec4u,
  textureDimensions, textureGather, textureLoad, textureNumLayers, textureNumLevels,
  textureSampleBaseClampToEdge, textureSampleGrad, textureSampleLevel, textureStore,
} from '@syclts/dsl';
export const k = kernel(
  { range: 2, args: ${args} },
  (item, kh, { src, ints, arr, vol, cube, line, smp, video, dst, ro, rw, out, words }) => {
    const i = item.getId(0);
    const c = vec2u(item.getId(1), i);
${body}
  });
`;
}

function diagnosticsOf(body: string, args?: string) {
  const source = kernelWith(body, args);
  const { diagnostics } = build([{ module: M, source }]);
  return diagnostics.map((d) => ({
    code: d.code,
    message: d.message,
    text: d.span ? source.slice(d.span.start, d.span.end) : null,
  }));
}

describe('texture built-ins the build refuses, at their place', () => {
  const cases: readonly [string, string, string?][] = [
    // [body, message (a part), the text the span covers]
    [
      'textureStore(ro, c, vec4u(1, 0, 0, 1));',
      "`textureStore` writes `ro`, a storage texture declared with access 'read'",
      'ro',
    ],
    [
      'out[i] = textureLoad(dst, c);',
      "`textureLoad` reads `dst`, a storage texture declared with access 'write'",
      'dst',
    ],
    [
      'out[i] = textureLoad(cube, vec3u(0, 0, 0), 0);',
      '`textureLoad` does not take `cube`, a cube texture',
      'cube',
    ],
    [
      'out[i] = textureLoad(src, vec2f(0, 0), 0);',
      '`textureLoad` takes coordinates as a vec2i or a vec2u; `vec2f(0, 0)` is vec2<f32>',
    ],
    ['out[i] = textureLoad(src, c);', '`textureLoad` does not take 2 argument(s) here'],
    [
      'out[i] = textureSampleLevel(src, src, vec2f(0, 0), 0);',
      "`textureSampleLevel` takes a sampler of the kernel's arguments, not `src`",
      'src',
    ],
    [
      'out[i] = textureSampleLevel(ints, smp, vec2f(0, 0), 0);',
      '`textureSampleLevel` takes a texture as one of f32 texels; `ints` is vec4<u32>',
      'ints',
    ],
    [
      'out[i] = textureLoad(out, c, 0);',
      "`textureLoad` takes a sampled texture or a storage texture or an external texture of the kernel's arguments, not `out`",
      'out',
    ],
    [
      'words[i] = textureNumLayers(ro);',
      '`textureNumLayers` does not take `ro`, a 2d texture',
      'ro',
    ],
    ['const t = src;', '`src` is a sampled texture argument, not a value', 'src'],
    [
      'out[i] = vec4f(f32(textureGather(4, src, smp, vec2f(0, 0)).x), 0, 0, 0);',
      "textureGather's component is a constant 0, 1, 2 or 3, not `4`",
      '4',
    ],
    ['const v = textureStore(dst, c, vec4f(0, 0, 0, 1));', 'textureStore gives no value'],
    [
      'src.write(c, vec4f(0, 0, 0, 1));',
      '`src`, a sampled texture argument, has no method `write`',
    ],
  ];
  test.each(cases)('%s', (body, message, text) => {
    const [d] = diagnosticsOf(body);
    expect(d?.code).toBe('SYCL1031');
    if (d?.code !== 'SYCL1031') return;
    expect(d.message).toContain(message);
    if (text !== undefined) expect(d.text).toBe(text);
  });

  test('the shapes a storage texture may have are the ones named', () => {
    const source = kernelWith('words[i] = textureNumLayers(ro);');
    const { diagnostics } = build([{ module: M, source }]);
    expect(diagnostics[0]?.hint).toBe('it takes 2d-array');
  });

  test("a texel of the wrong type is a type mismatch naming textureStore's argument", () => {
    const [d] = diagnosticsOf('textureStore(dst, c, vec4u(0, 0, 0, 1));');
    expect(d?.code).toBe('SYCL1012');
    expect(d?.message).toContain('argument 3 of textureStore');
    expect(d?.text).toBe('vec4u(0, 0, 0, 1)');
  });
});

describe('texture declarations the build refuses', () => {
  const cases: readonly [string, string, string][] = [
    [
      "{ t: storageTexture2d('rgba8unorm', 'read_write') }",
      'SYCL1031',
      "a 'read_write' storage texture of format 'rgba8unorm'",
    ],
    [
      "{ t: storageTexture2d('rgb8unorm', 'write') }",
      'SYCL1031',
      "'rgb8unorm' is not a storage texture format",
    ],
    [
      "{ t: storageTexture2d('r32uint', 'both') }",
      'SYCL1031',
      "a storage texture's access is 'read', 'write' or 'read_write'",
    ],
    [
      '{ t: texture2d(vec4f) }',
      'SYCL1031',
      "a sampled texture's texels are read as f32, i32 or u32",
    ],
    ['{ t: sampler(f32) }', 'SYCL1031', 'sampler() takes no arguments'],
  ];
  test.each(cases)('%s', (args, code, message) => {
    const source = `import { kernel, sampler, storageTexture2d, texture2d, vec4f, f32 } from '@syclts/dsl';
export const k = kernel({ range: 1, args: ${args} }, () => {});
`;
    const { diagnostics } = build([{ module: M, source }]);
    expect(diagnostics[0]?.code).toBe(code);
    expect(diagnostics[0]?.message).toContain(message);
  });
});

describe('accepted texture code', () => {
  test('every built-in and method on every kind: Dawn accepts the WGSL, with its bindings', async () => {
    const source = kernelWith(`
    const s = textureDimensions(src);
    const l = textureNumLevels(src) + textureNumLayers(arr) + textureDimensions(line) + textureDimensions(vol).z;
    const v = add(add(src.read(c), textureLoad(arr, c, 1, 0)), textureLoad(vol, vec3u(c, 0), 0));
    const n = add(textureSampleLevel(src, smp, vec2f(0.5, 0.5), 0), textureSampleLevel(cube, smp, vec3f(1, 0, 0), 0));
    const g = textureSampleGrad(arr, smp, vec2f(0.5, 0.5), 2, vec2f(0, 0), vec2f(0, 0));
    const e = add(textureSampleBaseClampToEdge(video, smp, vec2f(0.5, 0.5)), textureLoad(video, vec2i(1, 1)));
    const q = textureGather(1, ints, smp, vec2f(0.5, 0.5));
    dst.write(c, add(add(v, n), add(g, e)));
    rw.write(c, vec4f(rw.read(c).x + f32(ro.read(c).x), 0, 0, 1));
    textureStore(dst, vec2i(0, 0), vec4f(f32(s.x + l + q.x + u32(textureLoad(line, 0, 0).x)), 0, 0, 1));
    out[i] = vec4f(0, 0, 0, 0);
    words[i] = 0;
`).replace('  textureDimensions,', '  add, textureDimensions,');
    const { program, diagnostics } = build([{ module: M, source }], { specConstants: 'both' });
    expect(diagnostics).toEqual([]);
    const image = program!.images[0]!;
    const info = Object.values(image.kernels)[0]!;
    const textures = info.bindings.flatMap((b) => (b.kind === 'texture' ? [b] : []));
    expect(textures.map((b) => [b.arg, b.filtered])).toEqual([
      ['src', true],
      ['ints', false],
      ['arr', true],
      ['vol', false],
      ['cube', true],
      ['line', false],
      // The sampler also gathers from a u32 texture: it may not filter.
      ['smp', false],
      ['video', true],
      ['dst', false],
      ['ro', false],
      ['rw', false],
    ]);
    const { device } = await gpu();
    for (const code of [image.wgsl.native!, image.wgsl.emulated!]) {
      expect(code).toContain('texture_storage_2d<r32float, read_write>');
      const module = device.createShaderModule({ code });
      const { messages } = await module.getCompilationInfo();
      expect(messages.filter((m) => m.type === 'error')).toEqual([]);
    }
  });

  test('the footer of a module with texture arguments loads their run-time code', () => {
    const source = kernelWith('words[i] = textureDimensions(src).x;');
    const { object } = compileModule(source, { module: M });
    const footer = integrationFooter(object!, { source, programModule: 'virtual:syclts/program' });
    expect(footer).toContain("import '@syclts/runtime/textures';");
  });
});
