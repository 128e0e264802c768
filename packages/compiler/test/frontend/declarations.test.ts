/** IR-level checks of declarations, imports/exports and cross-module resolution. */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compileModule, type DeviceObject, ModuleLoader } from '../../src/index.js';
import { buildProgram } from './gpu.js';

const strip = (object: DeviceObject | null): unknown =>
  JSON.parse(JSON.stringify(object, (k, v) => (k === 'span' ? undefined : v)));

const u32 = { kind: 'scalar', scalar: 'u32' };
const f32 = { kind: 'scalar', scalar: 'f32' };

test('defaults fold from constant expressions; other defaults are left to the host', () => {
  const { object, diagnostics } = compileModule(
    `import { array, bool, f32, specializationId, struct, u32, vec2f } from '@syclts/dsl';
const BASE = 3;
const TABLE = [1, 2, BASE * 2];
function host() { return 4; }
export const a = specializationId(u32, BASE * 4 + 1);
export const b = specializationId(array(u32, 3), TABLE);
export const c = specializationId(f32, 1 / 8 + Math.PI * 0);
export const d = specializationId(struct({ on: bool, at: vec2f }), { at: [0.5, -TABLE[0]], on: !false });
export const e = specializationId(u32, host());
export const f = specializationId(vec2f);
`,
    { module: 'm.sycl.ts' },
  );
  expect(diagnostics).toEqual([]);
  expect(object!.specConstants.map((s) => [s.name, s.defaultValue])).toEqual([
    ['a', 13],
    ['b', [1, 2, 6]],
    ['c', 0.125],
    ['d', { on: true, at: [0.5, -1] }],
    ['e', null],
    ['f', [0, 0]],
  ]);
});

test('device global properties are recorded', () => {
  const { object } = compileModule(
    `import { deviceGlobal, u32, array } from '@syclts/dsl';
export const plain = deviceGlobal(u32);
export const all = deviceGlobal(array(u32, 4), { hostAccess: 'none', deviceImageScope: true, initMode: 'reprogram', implementInCsr: true });
`,
    { module: 'g.sycl.ts' },
  );
  expect(strip(object)).toMatchObject({
    deviceGlobals: [
      {
        name: 'plain',
        type: u32,
        hostAccess: 'read_write',
        deviceImageScope: false,
        initMode: null,
        implementInCsr: false,
      },
      {
        name: 'all',
        type: { kind: 'array', element: u32, length: 4 },
        hostAccess: 'none',
        deviceImageScope: true,
        initMode: 'reprogram',
        implementInCsr: true,
      },
    ],
  });
});

test('nd-range sizes: literals, specialization constants, products of factors', () => {
  const { object, diagnostics } = compileModule(
    `import { accessor, f32, i32, kernel, specializationId, u32, workgroupArray } from '@syclts/dsl';
export const bs = specializationId(u32, 8);
export const rows = specializationId(i32, 2);
export const k = kernel(
  { ndRange: 2, workgroupSize: [rows, 16], args: { out: accessor(f32, 'write') }, local: { tile: workgroupArray(f32, bs, 4, rows), fixed: workgroupArray(u32, 4, 16) } },
  (item, kh, { out }, { tile, fixed }) => {
    tile[item.getLocalLinearId()] = f32(fixed[0]);
  },
);
`,
    { module: 'nd.sycl.ts' },
  );
  expect(diagnostics).toEqual([]);
  const k = strip(object) as { kernels: { range: unknown; workgroupArrays: unknown }[] };
  const sc = (name: string, scalar: string) => ({
    op: 'specConstant',
    ref: { kind: 'local', name },
    type: { kind: 'scalar', scalar },
  });
  expect(k.kernels[0]!.range).toEqual({
    kind: 'nd',
    dimensions: 2,
    workgroupSize: [
      { op: 'construct', args: [sc('rows', 'i32')], type: u32 },
      { op: 'literal', value: 16, type: u32 },
    ],
  });
  expect(k.kernels[0]!.workgroupArrays).toEqual([
    {
      name: 'tile',
      element: f32,
      length: {
        op: 'binary',
        operator: '*',
        left: {
          op: 'binary',
          operator: '*',
          left: sc('bs', 'u32'),
          right: { op: 'literal', value: 4, type: u32 },
          type: u32,
        },
        right: { op: 'construct', args: [sc('rows', 'i32')], type: u32 },
        type: u32,
      },
    },
    { name: 'fixed', element: u32, length: { op: 'literal', value: 64, type: u32 } },
  ]);
});

test('imports resolve through a loader, across re-exports, to import references', () => {
  const files: Record<string, string> = {
    'src/types.sycl.ts': `import { struct, f32, u32, specializationId } from '@syclts/dsl';
export const Params = struct({ gain: f32, n: u32 });
export const gain = specializationId(f32, 2);
`,
    'src/lib.sycl.ts': `import { deviceFunction, f32 } from '@syclts/dsl';
export { Params as Settings, gain } from './types.sycl.ts';
export const twice = deviceFunction({ args: [f32], returns: f32 }, (x) => x * 2);
`,
    'src/all.sycl.ts': `export * from './lib.sycl.ts';
`,
  };
  const loadImport = (from: string, specifier: string) => {
    const path = `src/${specifier.slice(2)}`;
    expect(from.startsWith('src/')).toBe(true);
    return files[path] ? { module: path, source: files[path] } : null;
  };
  const { object, diagnostics } = compileModule(
    `import { accessor, kernel } from '@syclts/dsl';
import { Settings, gain as g, twice } from './all.sycl.ts';
export const k = kernel({ range: 1, args: { p: accessor(Settings, 'read'), out: accessor(Settings, 'write') } }, (item, kh, { p, out }) => {
  const v = p[0]!;
  out[0] = { gain: twice(v.gain) * kh.getSpecializationConstant(g), n: v.n };
});
`,
    { module: 'src/main.sycl.ts', loadImport },
  );
  expect(diagnostics).toEqual([]);
  const json = JSON.stringify(strip(object));
  expect(json).toContain('"callee":{"kind":"import","specifier":"./all.sycl.ts","name":"twice"}');
  expect(json).toContain('"ref":{"kind":"import","specifier":"./all.sycl.ts","name":"gain"}');
  expect(object!.kernels[0]!.params[0]).toMatchObject({
    element: {
      kind: 'struct',
      fields: [
        { name: 'gain', type: f32 },
        { name: 'n', type: u32 },
      ],
    },
  });
  expect(strip(object)).toMatchObject({
    imports: [
      { specifier: '@syclts/dsl' },
      {
        specifier: './all.sycl.ts',
        bindings: [
          { local: 'Settings', imported: 'Settings' },
          { local: 'g', imported: 'gain' },
          { local: 'twice', imported: 'twice' },
        ],
      },
    ],
  });
  const lib = compileModule(files['src/lib.sycl.ts']!, { module: 'src/lib.sycl.ts', loadImport });
  expect(lib.object!.exports).toEqual([
    { kind: 'reexport', exported: 'Settings', specifier: './types.sycl.ts', imported: 'Params' },
    { kind: 'reexport', exported: 'gain', specifier: './types.sycl.ts', imported: 'gain' },
    { kind: 'local', exported: 'twice', local: 'twice' },
  ]);
  const all = compileModule(files['src/all.sycl.ts']!, { module: 'src/all.sycl.ts' });
  expect(all.object!.exports).toEqual([{ kind: 'star', specifier: './lib.sycl.ts' }]);
});

test('raw WGSL bodies keep text, parameters and references in order', () => {
  const { object, diagnostics } = compileModule(
    `import { deviceFunction, deviceGlobal, f32, specializationId, u32, wgsl } from '@syclts/dsl';
export const s = specializationId(f32, 1);
const g = deviceGlobal(u32);
export const f = deviceFunction({ args: [f32, u32] }, (x, n) => wgsl\`\${g} = \${n} + u32(\${x} * \${s});\`);
`,
    { module: 'w.sycl.ts' },
  );
  expect(diagnostics).toEqual([]);
  expect(strip(object)).toMatchObject({
    functions: [
      {
        name: 'f',
        params: [
          { name: 'x', type: f32 },
          { name: 'n', type: u32 },
        ],
        returnType: null,
        body: {
          kind: 'wgsl',
          parts: [
            { kind: 'ref', ref: { kind: 'local', name: 'g' } },
            { kind: 'text', text: ' = ' },
            { kind: 'param', name: 'n' },
            { kind: 'text', text: ' + u32(' },
            { kind: 'param', name: 'x' },
            { kind: 'text', text: ' * ' },
            { kind: 'ref', ref: { kind: 'local', name: 's' } },
            { kind: 'text', text: ');' },
          ],
        },
      },
    ],
  });
});

test('abstract literals take their type from context, and default to i32 and f32', () => {
  const { object, diagnostics } = compileModule(
    `import { accessor, f32, kernel, u32 } from '@syclts/dsl';
const HALF = 0.5;
export const k = kernel({ range: 1, args: { o: accessor(f32, 'write'), n: u32 } }, (item, kh, { o, n }) => {
  let i = 0;
  let x = 1.0;
  const m = n * 3 + 7 / 2;
  o[i] = x * HALF + f32(m);
});
`,
    { module: 'lit.sycl.ts' },
  );
  expect(diagnostics).toEqual([]);
  const body = (
    strip(object) as { kernels: { body: { name?: string; type?: unknown; init?: unknown }[] }[] }
  ).kernels[0]!.body;
  expect(body[0]).toMatchObject({
    name: 'i',
    type: { scalar: 'i32' },
    init: { op: 'literal', value: 0 },
  });
  expect(body[1]).toMatchObject({
    name: 'x',
    type: { scalar: 'f32' },
    init: { op: 'literal', value: 1 },
  });
  // 7 / 2 is folded as WGSL abstract integers (3) and takes u32 from n * 3.
  expect(body[2]).toMatchObject({
    name: 'm',
    type: u32,
    init: { op: 'binary', operator: '+', right: { op: 'literal', value: 3, type: u32 } },
  });
});

test('f16 device code compiles and links to WGSL that enables f16', () => {
  // SwiftShader offers no shader-f16, so this stops at the WGSL; the runtime's f16 tests run f16
  // kernels where an adapter offers it.
  const source = readFileSync(new URL('../corpus/device/half.sycl.ts', import.meta.url), 'utf8');
  const program = buildProgram({ 'device/half.sycl.ts': source });
  const wgsl = program.images[0]!.wgsl.native!;
  expect(wgsl).toMatch(/^enable f16;/m);
  expect(wgsl).toContain('array<f16>');
  expect(wgsl).toContain('vec4<f16>');
});

test('f16 defaults follow the ABI bound: what rounds to a finite f16 fits, from 65520 on it does not', () => {
  const source = (v: number) =>
    `import { f16, specializationId } from '@syclts/dsl';\nexport const h = specializationId(f16, ${v});\n`;
  const fits = compileModule(source(65519), { module: 'src/h.sycl.ts' });
  expect(fits.diagnostics).toEqual([]);
  expect(fits.object?.specConstants[0]?.defaultValue).toBe(65519);
  const over = compileModule(source(65520), { module: 'src/h.sycl.ts' });
  expect(over.diagnostics.map((d) => d.message)).toEqual([
    'the default of `h` 65520 does not fit f16: out of range',
  ]);
});

test('export * follows the link step rule: default is never forwarded, and stars must agree', () => {
  const files: Record<string, string> = {
    'src/a.sycl.ts': `import { f32, u32 } from '@syclts/dsl';
export const T = f32;
export const Same = u32;
export default f32;
`,
    'src/b.sycl.ts': `import { i32, u32 } from '@syclts/dsl';
export const T = i32;
export const Same = u32;
`,
    'src/both.sycl.ts': `export * from './a.sycl.ts';
export * from './b.sycl.ts';
`,
  };
  const loader = new ModuleLoader();
  const loadImport = (_from: string, specifier: string) => {
    const path = `src/${specifier.slice(2)}`;
    return files[path] ? { module: path, source: files[path] } : null;
  };
  const compile = (names: string) =>
    compileModule(
      `import { accessor, kernel } from '@syclts/dsl';
import { ${names} } from './both.sycl.ts';
export const k = kernel({ range: 1, args: { out: accessor(X, 'write') } }, (item, kh, { out }) => {
  out[0] = 1;
});
`,
      { module: 'src/main.sycl.ts', loadImport, loader },
    );
  // Both stars give the same type: no ambiguity.
  expect(compile('Same as X').diagnostics).toEqual([]);
  const messages = (names: string) => compile(names).diagnostics.map((d) => d.message);
  expect(messages('T as X')).toEqual([
    "cannot resolve the type `X`: module 'src/both.sycl.ts' exports `T` through several 'export *' with different meanings",
  ]);
  expect(messages('default as X')).toEqual([
    "cannot resolve the type `X`: module 'src/both.sycl.ts' exports no `default`",
  ]);
  // The loader keeps one parse per module and source text, with its import specifiers.
  const parsed = loader.parse('src/both.sycl.ts', files['src/both.sycl.ts']!);
  expect(parsed.specifiers).toEqual(['./a.sycl.ts', './b.sycl.ts']);
  expect(loader.parse('src/both.sycl.ts', files['src/both.sycl.ts']!)).toBe(parsed);
});
