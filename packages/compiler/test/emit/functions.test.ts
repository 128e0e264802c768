import { f32, u32 } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { emitProgram, link } from '../../src/index.js';
import type { FunctionDecl } from '../../src/ir/index.js';
import { runKernel } from '../support/gpu.js';
import {
  accessorParam,
  assign,
  bin,
  call,
  convert,
  deviceObject,
  functionDecl,
  index,
  item,
  kernelDecl,
  letS,
  lit,
  local,
  modules,
  param,
  ref,
  resolveRelative,
  ret,
  span,
  spec,
  specDecl,
} from '../support/ir.js';

// lib: `scaled` is raw WGSL that reads the constant `k`; `twice` (IR) calls it. Parameters named
// like WGSL built-ins must not shadow them.
const scaled: FunctionDecl = {
  name: 'scaled',
  params: [{ name: 'select', type: f32, span }],
  returnType: f32,
  body: {
    kind: 'wgsl',
    parts: [
      { kind: 'text', text: 'return ', span },
      { kind: 'ref', ref: ref('k'), span },
      { kind: 'text', text: ' * ', span },
      { kind: 'param', name: 'select', span },
      { kind: 'text', text: ' + 0.5;', span },
    ],
  },
  span,
};
const twice = functionDecl('twice', [{ name: 'min', type: f32 }], f32, [
  letS('once', call('scaled', [local('min', f32)], f32)),
  ret(bin('+', local('once', f32), call('scaled', [local('min', f32)], f32))),
]);
const lib = deviceObject('src/lib.sycl.ts', {
  specConstants: [specDecl('k', f32, 3)],
  functions: [twice, scaled],
  exports: [
    { kind: 'local', exported: 'twice', local: 'twice' },
    { kind: 'local', exported: 'k', local: 'k' },
  ],
});
const user = deviceObject('src/user.sycl.ts', {
  imports: [
    { specifier: './lib.sycl.ts', bindings: [{ local: 'twice', imported: 'twice' }], span },
  ],
  kernels: [
    kernelDecl(
      'apply',
      [accessorParam('out', f32, 'write')],
      [
        assign(
          index(param('out', f32), item('globalId'), f32),
          bin(
            '+',
            call('twice', [convert(f32, item('globalId'))], f32),
            convert(f32, spec(ref('k', './lib.sycl.ts'), f32)),
          ),
        ),
      ],
    ),
  ],
});

test('device functions, raw WGSL included, are copied into the using image, callees first, in both variants', async () => {
  const { images, programGlobals, diagnostics } = link(
    { modules: modules(lib, user), resolveImport: resolveRelative },
    { specConstants: 'both' },
  );
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  expect(image!.id).toBe('src/user.sycl.ts');
  const native = image!.wgsl.native!;
  expect(native.indexOf('fn fn_scaled(select_2: f32) -> f32 {')).toBeLessThan(
    native.indexOf('fn fn_twice(min_2: f32)'),
  );
  expect(native).toContain('  return sc_k * select_2 + 0.5;');
  expect(image!.wgsl.emulated).toContain('fn fn_scaled(select_2: f32, slot: u32) -> f32 {');
  expect(image!.wgsl.emulated).toContain('  return sc_buffer[slot].sc_k * select_2 + 0.5;');
  for (const [mode, k] of [
    ['native', 3],
    ['native', -1.25],
    ['emulated', 3],
    ['emulated', 7.5],
  ] as const) {
    const n = 6;
    const result = await runKernel(image!, 'src/user.sycl.ts#apply', {
      mode,
      range: [n],
      accessors: { out: new Float32Array(n).fill(Number.NaN) },
      specConstants: k === 3 ? {} : { 'src/lib.sycl.ts#k': k },
    });
    expect([...new Float32Array(result.accessors.out!)], `${mode} k=${k}`).toEqual(
      Array.from({ length: n }, (_, i) => 2 * (k * i + 0.5) + k),
    );
  }
});

test('recursion between device functions is diagnosed', () => {
  const ping = functionDecl('ping', [], u32, [ret(call('pong', [], u32))]);
  const pong = functionDecl('pong', [], u32, [ret(bin('+', call('ping', [], u32), lit(1)))]);
  const object = deviceObject('src/loop.sycl.ts', {
    functions: [ping, pong],
    kernels: [
      kernelDecl(
        'k',
        [accessorParam('out', u32, 'write')],
        [assign(index(param('out', u32), item('globalId'), u32), call('ping', [], u32))],
      ),
    ],
  });
  const { images, diagnostics } = link({
    modules: modules(object),
    resolveImport: resolveRelative,
  });
  expect(images).toEqual([]);
  expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
    [
      'SYCL2008',
      'device functions call each other recursively (src/loop.sycl.ts#ping -> src/loop.sycl.ts#pong -> src/loop.sycl.ts#ping); WGSL has no recursion',
    ],
  ]);
});
