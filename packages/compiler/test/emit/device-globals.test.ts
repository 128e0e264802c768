import { array, atomic, bool, type GlobalStorage, struct, u32, vec } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { emitProgram, link, propertySets } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';
import {
  accessorParam,
  assign,
  atomicAdd,
  atomicLoad,
  bin,
  construct,
  deviceObject,
  exprS,
  global,
  globalDecl,
  index,
  item,
  kernelDecl,
  letS,
  lit,
  local,
  member,
  modules,
  param,
  resolveRelative,
  select,
  swizzle,
  valueParam,
} from '../support/ir.js';

const M = 'src/count.sycl.ts';
const counted = deviceObject(M, {
  deviceGlobals: [
    globalDecl('hits', atomic(u32)),
    globalDecl('total', atomic(u32)),
    globalDecl('bins', array(atomic(u32), 4)),
  ],
  kernels: [
    kernelDecl(
      'count',
      [],
      [
        exprS(atomicAdd(global('hits', atomic(u32)), lit(1))),
        exprS(atomicAdd(global('total', atomic(u32)), item('globalId'))),
        exprS(
          atomicAdd(
            index(
              global('bins', array(atomic(u32), 4)),
              bin('%', item('globalId'), lit(4)),
              atomic(u32),
            ),
            lit(1),
          ),
        ),
      ],
    ),
    kernelDecl(
      'peek',
      [accessorParam('out', u32, 'write')],
      [
        assign(index(param('out', u32), lit(0), u32), atomicLoad(global('hits', atomic(u32)))),
        assign(index(param('out', u32), lit(1), u32), atomicLoad(global('total', atomic(u32)))),
        assign(
          index(param('out', u32), lit(2), u32),
          atomicLoad(index(global('bins', array(atomic(u32), 4)), lit(3), atomic(u32))),
        ),
      ],
    ),
  ],
});

test('device globals are zero-initialised storage shared by the kernels of an image, atomics included', async () => {
  const { images, programGlobals, diagnostics } = link({
    modules: modules(counted),
    resolveImport: resolveRelative,
  });
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  const wgsl = image!.wgsl.native!;
  // One buffer, one binding: members in symbolic-ID order, each at a multiple of 16.
  expect(wgsl).toContain(
    [
      'struct ProgramGlobals {',
      '  @size(16) dg_bins: array<atomic<u32>, 4>,',
      '  @size(16) dg_hits: atomic<u32>,',
      '  dg_total: atomic<u32>,',
      '}',
      '@group(0) @binding(0) var<storage, read_write> program_globals: ProgramGlobals;',
    ].join('\n'),
  );
  expect(wgsl).toContain('atomicLoad(&program_globals.dg_total)');
  expect(image!.deviceGlobals[`${M}#bins`]).toMatchObject({
    size: 16,
    offset: 0,
    deviceImageScope: false,
    hostAccess: 'read_write',
  });
  expect(
    Object.fromEntries(Object.entries(image!.deviceGlobals).map(([id, g]) => [id, g.offset])),
  ).toEqual({ [`${M}#hits`]: 16, [`${M}#total`]: 32, [`${M}#bins`]: 0 });
  const peek = image!.kernels[`${M}#peek`]!;
  expect(peek.deviceGlobals).toEqual([`${M}#hits`, `${M}#total`, `${M}#bins`]);
  expect(peek.bindings.filter((b) => b.kind === 'deviceGlobals')).toEqual([
    { kind: 'deviceGlobals', group: 0, binding: 0, storage: 'program' },
  ]);

  const globals = new Map<GlobalStorage, GPUBuffer>();
  const n = 150;
  await runKernel(image!, `${M}#count`, { mode: 'native', range: [n], globals });
  await runKernel(image!, `${M}#count`, { mode: 'native', range: [n], globals });
  const result = await runKernel(image!, `${M}#peek`, {
    mode: 'native',
    range: [1],
    accessors: { out: new Uint32Array(4).fill(0xdeadbeef) },
    globals,
  });
  const sum = (n * (n - 1)) / 2;
  expect([...new Uint32Array(result.accessors.out!)]).toEqual([
    2 * n,
    2 * sum,
    2 * Math.floor(n / 4),
    0xdeadbeef,
  ]);
  expect([...new Uint32Array(result.globals[`${M}#bins`]!)]).toEqual(
    [38, 38, 37, 37].map((x) => 2 * x),
  );
});

test('a deviceImageScope global used from two device images is an error naming it and the kernels', () => {
  const owner = deviceObject('src/owner.sycl.ts', {
    deviceGlobals: [globalDecl('own', atomic(u32), true)],
    exports: [{ kind: 'local', exported: 'own', local: 'own' }],
    kernels: [kernelDecl('first', [], [exprS(atomicAdd(global('own', atomic(u32)), lit(1)))])],
  });
  const other = deviceObject('src/other.sycl.ts', {
    kernels: [
      kernelDecl(
        'second',
        [],
        [
          exprS(
            atomicAdd(
              global({ kind: 'import', specifier: './owner.sycl.ts', name: 'own' }, atomic(u32)),
              lit(2),
            ),
          ),
        ],
      ),
    ],
  });
  const input = { modules: modules(owner, other), resolveImport: resolveRelative };
  const { images, diagnostics } = link(input);
  expect(images).toEqual([]);
  expect(diagnostics).toHaveLength(1);
  expect(diagnostics[0]).toMatchObject({
    code: 'SYCL2001',
    file: 'src/owner.sycl.ts',
    message:
      "device_global 'src/owner.sycl.ts#own' with property deviceImageScope is used in more than one device image ('src/other.sycl.ts', 'src/owner.sycl.ts') by kernels 'src/other.sycl.ts#second', 'src/owner.sycl.ts#first'",
  });
  expect(diagnostics[0]!.related!.map((r) => r.message)).toEqual([
    "kernel 'src/other.sycl.ts#second' uses it in device image 'src/other.sycl.ts'",
    "kernel 'src/owner.sycl.ts#first' uses it in device image 'src/owner.sycl.ts'",
  ]);
  // One image for the whole program holds it once: no error.
  const whole = link(input, { split: 'whole' });
  expect(whole.diagnostics).toEqual([]);
  expect(
    whole.images[0]!.deviceGlobals.map((g) => [g.symbolicId, g.info.deviceImageScope]),
  ).toEqual([['src/owner.sycl.ts#own', true]]);
});

test('the device globals property set carries size, offset, properties, initial value and layout', () => {
  const { images, programGlobals } = link({
    modules: modules(counted),
    resolveImport: resolveRelative,
  });
  const sets = propertySets(
    emitProgram({ images, programGlobals }, { validateIr: true }).images[0]!,
  );
  expect(sets['SYCL/device globals']?.[`${M}#bins`]).toEqual({
    type: array(atomic(u32), 4),
    size: 16,
    offset: 0,
    deviceImageScope: false,
    hostAccess: 'read_write',
    initMode: null,
    implementInCsr: false,
    initialValue: null,
    // An array is one entry per scalar of its element, repeated: never one per element.
    layout: [{ offset: 0, size: 4, scalar: 'u32', path: ['*'], repeat: [{ count: 4, stride: 4 }] }],
  });
});

test('bool in device globals is stored as u32 0/1 and read back as bool', async () => {
  const State = struct({ on: bool, count: u32, mask: vec(bool, 2) });
  const B = 'src/flags.sycl.ts';
  const object = deviceObject(B, {
    deviceGlobals: [globalDecl('ready', bool), globalDecl('state', State)],
    kernels: [
      kernelDecl(
        'set',
        [valueParam('on', bool)],
        [
          assign(global('ready', bool), param('on', bool)),
          assign(
            global('state', State),
            construct(State, [
              bin('!=', param('on', bool), lit(true), bool),
              lit(7),
              construct(vec(bool, 2), [param('on', bool), lit(false)]),
            ]),
          ),
          assign(
            swizzle(member(global('state', State), 'mask', vec(bool, 2)), 'y', bool),
            lit(true),
          ),
        ],
      ),
      kernelDecl(
        'get',
        [accessorParam('out', u32, 'write')],
        [
          assign(
            index(param('out', u32), lit(0), u32),
            select(global('ready', bool), lit(10), lit(20)),
          ),
          letS('s', global('state', State)),
          assign(
            index(param('out', u32), lit(1), u32),
            select(member(local('s', State), 'on', bool), lit(30), lit(40)),
          ),
          assign(
            index(param('out', u32), lit(2), u32),
            member(global('state', State), 'count', u32),
          ),
          assign(
            index(param('out', u32), lit(3), u32),
            select(
              swizzle(member(global('state', State), 'mask', vec(bool, 2)), 'x', bool),
              lit(50),
              lit(60),
            ),
          ),
        ],
      ),
    ],
  });
  const { images, programGlobals, diagnostics } = link({
    modules: modules(object),
    resolveImport: resolveRelative,
  });
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  expect(image!.wgsl.native).toMatch(/ dg_ready: u32,\n/);
  expect(image!.deviceGlobals[`${B}#state`]!.size).toBe(16);
  for (const on of [true, false]) {
    const globals = new Map<GlobalStorage, GPUBuffer>();
    const set = await runKernel(image!, `${B}#set`, {
      mode: 'native',
      range: [1],
      values: { on },
      globals,
    });
    expect([...new Uint32Array(set.globals[`${B}#ready`]!)]).toEqual([Number(on)]);
    // state: on @0, count @4, mask @8 (vec2, align 8): x, y.
    expect([...new Uint32Array(set.globals[`${B}#state`]!)]).toEqual([
      Number(!on),
      7,
      Number(on),
      1,
    ]);
    const got = await runKernel(image!, `${B}#get`, {
      mode: 'native',
      range: [1],
      accessors: { out: new Uint32Array(4).fill(0xdeadbeef) },
      globals,
    });
    expect([...new Uint32Array(got.accessors.out!)]).toEqual([
      on ? 10 : 20,
      on ? 40 : 30,
      7,
      on ? 50 : 60,
    ]);
  }
});
