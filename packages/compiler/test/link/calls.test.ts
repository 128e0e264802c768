/**
 * Each module is compiled on its own, so a caller may have been lowered against an older text
 * of its callee's module (a bundler's cached device object). The link step, where both are
 * known, checks every call against the callee it links to.
 */
import { expect, test } from 'vitest';
import { compileModule, type DeviceObject, link } from '../../src/index.js';

const CALLER = `import { accessor, kernel, u32 } from '@syclts/dsl';
import { scale } from './lib.sycl.ts';
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  out[item.getId(0)] = scale(item.getId(0), 3);
});
`;
const LIB_BEFORE = `import { deviceFunction, u32 } from '@syclts/dsl';
export const scale = deviceFunction({ args: [u32, u32], returns: u32 }, (x, k) => x * k);
`;

function compile(module: string, source: string, lib: string): DeviceObject {
  const { object, diagnostics } = compileModule(source, {
    module,
    loadImport: () => ({ module: 'src/lib.sycl.ts', source: lib }),
  });
  expect(diagnostics).toEqual([]);
  return object!;
}

function linkAgainst(libNow: string) {
  const caller = compile('src/main.sycl.ts', CALLER, LIB_BEFORE);
  const lib = compile('src/lib.sycl.ts', libNow, libNow);
  return link({
    modules: new Map([
      ['src/main.sycl.ts', caller],
      ['src/lib.sycl.ts', lib],
    ]),
    resolveImport: (_from, specifier) => (specifier === './lib.sycl.ts' ? 'src/lib.sycl.ts' : null),
  });
}

test('a call matching its callee links', () => {
  expect(linkAgainst(LIB_BEFORE).diagnostics).toEqual([]);
});

test.each([
  [
    'a parameter changed type',
    'export const scale = deviceFunction({ args: [u32, f32], returns: u32 }, (x, k) => x * u32(k));',
    'argument 2 is u32, the parameter `k` is f32',
  ],
  [
    'a parameter added',
    'export const scale = deviceFunction({ args: [u32, u32, u32], returns: u32 }, (x, k, j) => x * k + j);',
    'it passes 2 arguments, the function takes 3',
  ],
  [
    'the result changed type',
    'export const scale = deviceFunction({ args: [u32, u32], returns: f32 }, (x, k) => f32(x * k));',
    'it expects u32, the function returns f32',
  ],
  [
    'the result removed',
    'export const scale = deviceFunction({ args: [u32, u32] }, (_x, _k) => {});',
    'it uses a u32 result, but the function returns nothing',
  ],
])('%s: SYCL2026 at the call, naming the declaration', (_what, declaration, problem) => {
  const lib = `import { deviceFunction, f32, u32 } from '@syclts/dsl';\n${declaration}\n`;
  const { images, diagnostics } = linkAgainst(lib);
  expect(images).toEqual([]);
  expect(diagnostics).toHaveLength(1);
  const d = diagnostics[0]!;
  expect(d).toMatchObject({
    code: 'SYCL2026',
    file: 'src/main.sycl.ts',
    span: { line: 4, column: 24 },
  });
  expect(d.message).toBe(`the call of \`scale\` does not match its declaration: ${problem}`);
  expect(d.related).toEqual([
    expect.objectContaining({
      file: 'src/lib.sycl.ts',
      span: expect.objectContaining({ line: 2 }),
    }),
  ]);
});
