import { f32, u32 } from '@syclts/dsl';
import { expect, test } from 'vitest';
import type { DeviceObject } from '../../src/index.js';
import { emitProgram, link } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';
import {
  accessorParam,
  assign,
  barrier,
  bin,
  convert,
  deviceObject,
  index,
  item,
  kernelDecl,
  letS,
  lit,
  local,
  modules,
  param,
  resolveRelative,
  span,
  spec,
  specDecl,
  wgArray,
} from '../support/ir.js';

const M = 'src/tile.sycl.ts';
const bs = () => spec('bs', u32);
const W = () => item('localRange');
const l = local('l', u32);
const g = local('g', u32);

// Each work-group reverses its ids through workgroup memory sized 2 x bs, bs being the
// work-group size: out[g] = reversed id + 0.5 x local id + 1000 x work-group size.
const tile = kernelDecl(
  'tile',
  [accessorParam('out', f32, 'write')],
  [
    letS('g', item('globalId')),
    letS('l', item('localId')),
    assign(index(wgArray('tmp', f32), l, f32), convert(f32, g)),
    assign(
      index(wgArray('tmp', f32), bin('+', l, W()), f32),
      bin('*', convert(f32, l), lit(0.5, f32)),
    ),
    barrier(),
    assign(
      index(param('out', f32), g, f32),
      bin(
        '+',
        bin(
          '+',
          index(wgArray('tmp', f32), bin('-', bin('-', W(), lit(1)), l), f32),
          index(wgArray('tmp', f32), bin('+', W(), l), f32),
        ),
        bin('*', lit(1000, f32), convert(f32, W())),
      ),
    ),
  ],
  {
    range: { kind: 'nd', dimensions: 1, workgroupSize: [bs()] },
    workgroupArrays: [{ name: 'tmp', element: f32, length: bin('*', bs(), lit(2)), span }],
  },
);
// A kernel of the same module that reads bs as a plain value: it can be emulated.
const plain = kernelDecl(
  'plain',
  [accessorParam('out', u32, 'write')],
  [assign(index(param('out', u32), item('globalId'), u32), bin('*', bs(), item('globalId')))],
);
const object: DeviceObject = deviceObject(M, {
  specConstants: [specDecl('bs', u32, 8)],
  kernels: [tile, plain],
});

const expected = (n: number, w: number) =>
  Array.from({ length: n }, (_, gi) => {
    const li = gi % w;
    return gi - li + (w - 1 - li) + 0.5 * li + 1000 * w;
  });

test('a specialization constant sizes the work-group and its workgroup memory on the native path', async () => {
  const { images, programGlobals, diagnostics } = link({
    modules: modules(object),
    resolveImport: resolveRelative,
  });
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  const info = image!.kernels[`${M}#tile`]!;
  expect(info.workgroupSize).toEqual([
    { kind: 'specConstant', symbolicId: `${M}#bs`, leafId: 0 },
    { kind: 'literal', value: 1 },
    { kind: 'literal', value: 1 },
  ]);
  expect(info.workgroupMemory).toEqual({
    kind: 'specConstant',
    arrays: [
      {
        name: 'tmp',
        stride: 4,
        length: {
          kind: 'binary',
          operator: '*',
          left: { kind: 'specConstant', symbolicId: `${M}#bs`, leafId: 0 },
          right: { kind: 'literal', value: 2 },
        },
      },
    ],
  });
  expect(info.ndRange).toBe(true);
  expect(image!.wgsl.native).toContain('@compute @workgroup_size(sc_bs, 1u, 1u)');
  expect(image!.wgsl.native).toContain('override wg_tile_tmp_length: u32 = (sc_bs * 2u);');
  expect(image!.wgsl.native).toContain(
    'var<workgroup> wg_tile_tmp: array<f32, wg_tile_tmp_length>;',
  );
  for (const w of [8, 16, 4]) {
    const n = 48;
    const result = await runKernel(image!, `${M}#tile`, {
      mode: 'native',
      range: [n],
      accessors: { out: new Float32Array(n).fill(Number.NaN) },
      specConstants: w === 8 ? {} : { [`${M}#bs`]: w },
    });
    expect([...new Float32Array(result.accessors.out!)], `work-group size ${w}`).toEqual(
      expected(n, w),
    );
  }
});

test('emulated specialization constants cannot size a work-group or workgroup memory', () => {
  const { images, diagnostics } = link(
    { modules: modules(object), resolveImport: resolveRelative },
    { specConstants: 'emulated' },
  );
  expect(images).toEqual([]);
  expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
    [
      'SYCL2002',
      `specialization constant '${M}#bs' sizes the workgroup size (dimension 0) of kernel '${M}#tile', which needs a pipeline constant; emulated specialization constants live in a buffer: build with specConstants 'both' (this kernel then ships native only) or 'native'`,
    ],
    [
      'SYCL2003',
      `specialization constant '${M}#bs' sizes the length of workgroup array 'tmp' of kernel '${M}#tile', which needs a pipeline constant; emulated specialization constants live in a buffer: build with specConstants 'both' (this kernel then ships native only) or 'native'`,
    ],
  ]);
});

test("in 'both' mode such a kernel ships native only, and its neighbours both ways", async () => {
  const { images, programGlobals, diagnostics } = link(
    { modules: modules(object), resolveImport: resolveRelative },
    { specConstants: 'both' },
  );
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  expect(image!.kernels[`${M}#tile`]!.variants).toEqual(['native']);
  expect(image!.kernels[`${M}#plain`]!.variants).toEqual(['native', 'emulated']);
  expect(image!.wgsl.emulated).not.toContain('k_tile');
  // No specialization constant is an override there (the launch-slot and group-offset switches
  // are the only ones).
  expect(image!.wgsl.emulated!.match(/override \w+/g)).toEqual([
    'override launch_slots_on',
    'override group_offsets_on',
  ]);
  const result = await runKernel(image!, `${M}#plain`, {
    mode: 'emulated',
    range: [5],
    accessors: { out: new Uint32Array(5).fill(0xdeadbeef) },
    specConstants: { [`${M}#bs`]: 11 },
  });
  expect([...new Uint32Array(result.accessors.out!)]).toEqual([0, 11, 22, 33, 44]);
  const tiled = await runKernel(image!, `${M}#tile`, {
    mode: 'native',
    range: [16],
    accessors: { out: new Float32Array(16).fill(Number.NaN) },
  });
  expect([...new Float32Array(tiled.accessors.out!)]).toEqual(expected(16, 8));
});

test('SYCL dimension d maps to WGSL component D-1-d; the linear id is row-major', async () => {
  const cols = local('cols', u32);
  const grid = kernelDecl(
    'grid',
    [accessorParam('out', u32, 'write'), accessorParam('linear', u32, 'write')],
    [
      letS('cols', item('globalRange', 1)),
      assign(
        index(
          param('out', u32),
          bin('+', bin('*', item('globalId', 0), cols), item('globalId', 1)),
          u32,
        ),
        bin('+', bin('*', item('globalId', 0), lit(100)), item('globalId', 1)),
      ),
      assign(
        index(param('linear', u32), item('globalLinearId'), u32),
        bin('+', bin('*', item('globalId', 0), lit(100)), item('globalId', 1)),
      ),
    ],
    { range: { kind: 'basic', dimensions: 2 } },
  );
  const { images, programGlobals } = link({
    modules: modules(deviceObject('src/grid.sycl.ts', { kernels: [grid] })),
    resolveImport: resolveRelative,
  });
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  expect(image!.kernels['src/grid.sycl.ts#grid']!.workgroupSize).toEqual([
    { kind: 'literal', value: 8 },
    { kind: 'literal', value: 8 },
    { kind: 'literal', value: 1 },
  ]);
  const [rows, columns] = [3, 13];
  const result = await runKernel(image!, 'src/grid.sycl.ts#grid', {
    mode: 'native',
    range: [rows, columns],
    accessors: {
      out: new Uint32Array(rows * columns).fill(0xdeadbeef),
      linear: new Uint32Array(rows * columns).fill(0xdeadbeef),
    },
  });
  const want = Array.from(
    { length: rows * columns },
    (_, n) => Math.floor(n / columns) * 100 + (n % columns),
  );
  expect([...new Uint32Array(result.accessors.out!)]).toEqual(want);
  expect([...new Uint32Array(result.accessors.linear!)]).toEqual(want);
});

test('nd-range item queries in 2D follow SYCL: groups, local ids and linear ids row-major', async () => {
  const q = (query: Parameters<typeof item>[0], d = 0) => item(query, d);
  const code = bin(
    '+',
    bin('+', bin('*', q('groupId', 0), lit(1000)), bin('*', q('groupId', 1), lit(100))),
    bin('+', bin('*', q('localId', 0), lit(10)), q('localId', 1)),
  );
  const shape = bin(
    '+',
    bin('+', bin('*', q('groupRange', 0), lit(10000)), bin('*', q('groupRange', 1), lit(1000))),
    bin(
      '+',
      bin('*', q('localRange', 0), lit(100)),
      bin('+', bin('*', q('localRange', 1), lit(10)), lit(0)),
    ),
  );
  const kernel = kernelDecl(
    'groups',
    [
      accessorParam('ids', u32, 'write'),
      accessorParam('shape', u32, 'write'),
      accessorParam('local', u32, 'write'),
    ],
    [
      assign(index(param('ids', u32), q('globalLinearId'), u32), code),
      assign(index(param('shape', u32), q('globalLinearId'), u32), shape),
      assign(index(param('local', u32), q('globalLinearId'), u32), q('localLinearId')),
    ],
    { range: { kind: 'nd', dimensions: 2, workgroupSize: [lit(2), lit(4)] } },
  );
  const { images, programGlobals } = link({
    modules: modules(deviceObject('src/nd.sycl.ts', { kernels: [kernel] })),
    resolveImport: resolveRelative,
  });
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  const info = image!.kernels['src/nd.sycl.ts#groups']!;
  expect(info.workgroupSize.map((d) => (d.kind === 'literal' ? d.value : null))).toEqual([4, 2, 1]);
  expect(image!.wgsl.native).toContain('@compute @workgroup_size(4u, 2u, 1u)');
  const [r0, r1, w0, w1] = [4, 8, 2, 4];
  const n = r0 * r1;
  const poison = () => new Uint32Array(n).fill(0xdeadbeef);
  const result = await runKernel(image!, 'src/nd.sycl.ts#groups', {
    mode: 'native',
    range: [r0, r1],
    accessors: { ids: poison(), shape: poison(), local: poison() },
  });
  const ids: number[] = [];
  const locals: number[] = [];
  for (let g0 = 0; g0 < r0; g0++) {
    for (let g1 = 0; g1 < r1; g1++) {
      const [l0, l1] = [g0 % w0, g1 % w1];
      ids.push(Math.floor(g0 / w0) * 1000 + Math.floor(g1 / w1) * 100 + l0 * 10 + l1);
      locals.push(l0 * w1 + l1);
    }
  }
  expect([...new Uint32Array(result.accessors.ids!)]).toEqual(ids);
  expect([...new Uint32Array(result.accessors.shape!)]).toEqual(
    Array(n).fill((r0 / w0) * 10000 + (r1 / w1) * 1000 + w0 * 100 + w1 * 10),
  );
  expect([...new Uint32Array(result.accessors.local!)]).toEqual(locals);
});

test("in 'both' mode an image whose kernels all need pipeline constants ships no emulated variant", () => {
  const only = deviceObject(M, { specConstants: [specDecl('bs', u32, 8)], kernels: [tile] });
  const { images, programGlobals } = link(
    { modules: modules(only), resolveImport: resolveRelative },
    { specConstants: 'both' },
  );
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  expect(Object.keys(image!.wgsl)).toEqual(['native']);
  expect(image!.emulation).toBeNull();
});
