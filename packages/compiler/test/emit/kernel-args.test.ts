import { array, bool, f32, i32, struct, u32, vec } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { emitProgram, link } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';
import {
  accessorParam,
  assign,
  bin,
  convert,
  deviceObject,
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
  spec,
  specDecl,
  swizzle,
  valueParam,
} from '../support/ir.js';

const M = 'src/args.sycl.ts';
const x = local('x', f32);
const kernel = kernelDecl(
  'affine',
  [
    accessorParam('src', f32, 'read'),
    valueParam('n', u32),
    valueParam('scale', f32),
    valueParam('neg', bool),
    valueParam('offset', vec(f32, 2)),
    valueParam('pick', vec(i32, 4)),
    accessorParam('dst', f32, 'read_write'),
  ],
  [
    letS('x', bin('*', index(param('src', f32), item('globalId'), f32), param('scale', f32))),
    assign(
      index(param('dst', f32), item('globalId'), f32),
      bin(
        '+',
        bin(
          '+',
          select(param('neg', bool), bin('-', x, bin('*', x, convert(f32, param('n', u32)))), x),
          swizzle(param('offset', vec(f32, 2)), 'y', f32),
        ),
        convert(f32, swizzle(param('pick', vec(i32, 4)), 'z', i32)),
      ),
    ),
  ],
);

test('value arguments sit in the launch uniform from offset 32 with WGSL uniform layout, bool as u32', async () => {
  const { images, programGlobals, diagnostics } = link({
    modules: modules(deviceObject(M, { kernels: [kernel] })),
    resolveImport: resolveRelative,
  });
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  const info = image!.kernels[`${M}#affine`]!;
  const launch = info.bindings.find((b) => b.kind === 'launch')!;
  // n @32, scale @36, neg @40, offset (vec2, align 8) @48, pick (vec4, align 16) @64; size 80.
  expect(launch).toMatchObject({ binding: 0, size: 80 });
  expect(launch.kind === 'launch' && launch.fields.map((f) => [f.role, f.name, f.offset])).toEqual([
    ['globalRange', 'global_range', 0],
    ['slotMode', 'slot_mode', 12],
    ['groupOffset', 'group_offset', 16],
    ['arg', 'n', 32],
    ['arg', 'scale', 36],
    ['arg', 'neg', 40],
    ['arg', 'offset', 48],
    ['arg', 'pick', 64],
  ]);
  expect(
    info.bindings.map((b) => [b.kind, b.binding, b.kind === 'accessor' ? b.access : null]),
  ).toEqual([
    ['launch', 0, null],
    ['accessor', 1, 'read'],
    ['accessor', 2, 'read_write'],
  ]);
  expect(image!.wgsl.native).toContain('var<storage, read> a_affine_src: array<f32>;');
  // The read i32, u32 and bool arguments are folded in a second entry point; f32 and vectors not.
  expect(info.foldedArgs).toEqual({
    entryPoint: 'k_affine_folded',
    args: [
      { name: 'n', override: 'arg_affine_n' },
      { name: 'neg', override: 'arg_affine_neg' },
    ],
  });
  expect(image!.wgsl.native).toContain('override arg_affine_n: u32;');
  expect(image!.wgsl.native).toContain('override arg_affine_neg: u32;');
  expect(image!.wgsl.native).toContain('fn k_affine_folded(');
  expect(image!.wgsl.emulated ?? '').not.toContain('arg_affine_n');
  const n = 70;
  const src = Float32Array.from({ length: n }, (_, i) => ((i * 37) % 11) - 3.5);
  for (const neg of [false, true]) {
    const result = await runKernel(image!, `${M}#affine`, {
      mode: 'native',
      range: [n],
      accessors: { src, dst: new Float32Array(n + 2).fill(Number.NaN) },
      values: { n: 3, scale: 0.5, neg, offset: [100, 0.25], pick: [1, 2, -40, 4] },
    });
    const want = [...src].map((s) => {
      const v = Math.fround(s * 0.5);
      return Math.fround(Math.fround((neg ? v - v * 3 : v) + 0.25) - 40);
    });
    expect([...new Float32Array(result.accessors.dst!)].slice(0, n)).toEqual(want);
  }
});

test('arguments that break uniform layout or bool accessors are diagnosed', () => {
  const bad = kernelDecl(
    'bad',
    [valueParam('weights', array(f32, 3)), accessorParam('flags', bool, 'read')],
    [],
  );
  const { diagnostics } = link({
    modules: modules(deviceObject(M, { kernels: [bad] })),
    resolveImport: resolveRelative,
  });
  expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
    [
      'SYCL2006',
      `value argument 'weights' of kernel '${M}#bad' breaks the uniform layout rules (arrays and structs need 16-byte alignment and stride); pass it through an accessor`,
    ],
    ['SYCL2006', `accessor 'flags' of kernel '${M}#bad': bool is not host-shareable; use u32`],
  ]);
});

test('a struct argument holding bool is passed as u32 and read back as bool', async () => {
  const Rule = struct({ on: bool, gain: f32, pick: vec(bool, 2) });
  const rule = param('rule', Rule);
  const gate = kernelDecl(
    'gate',
    [valueParam('rule', Rule), accessorParam('out', f32, 'write')],
    [
      assign(
        index(param('out', f32), item('globalId'), f32),
        bin(
          '+',
          select(
            member(rule, 'on', bool),
            bin('*', convert(f32, item('globalId')), member(rule, 'gain', f32)),
            lit(-1, f32),
          ),
          select(
            swizzle(member(rule, 'pick', vec(bool, 2)), 'y', bool),
            lit(100, f32),
            lit(0, f32),
          ),
        ),
      ),
    ],
  );
  const { images, programGlobals, diagnostics } = link({
    modules: modules(deviceObject(M, { kernels: [gate] })),
    resolveImport: resolveRelative,
  });
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  const launch = image!.kernels[`${M}#gate`]!.bindings.find((b) => b.kind === 'launch')!;
  expect(launch.kind === 'launch' && launch.fields.at(-1)).toMatchObject({
    name: 'rule',
    offset: 32,
  });
  for (const value of [
    { on: true, gain: 2.5, pick: [false, true] },
    { on: false, gain: 9, pick: [true, false] },
  ]) {
    const result = await runKernel(image!, `${M}#gate`, {
      mode: 'native',
      range: [5],
      accessors: { out: new Float32Array(5).fill(Number.NaN) },
      values: { rule: value },
    });
    expect([...new Float32Array(result.accessors.out!)]).toEqual(
      [0, 1, 2, 3, 4].map((i) => (value.on ? i * value.gain : -1) + (value.pick[1] ? 100 : 0)),
    );
  }
});

test('a kernel takes a launch slot only where its per-launch values change and the slot fits the default limits', () => {
  const body = [assign(index(param('out', f32), item('globalId'), f32), param('g', f32))];
  const args = [valueParam('g', f32), accessorParam('out', f32, 'write')];
  const tmp = (length: number) => ({
    workgroupArrays: [{ name: 'tmp', element: f32, length: lit(length, u32), span: body[0]!.span }],
  });
  const kernels = [
    kernelDecl('small', args, body),
    kernelDecl('fits', args, body, tmp(4092)),
    // 16,384 bytes: the slot's 16 would pass the default maxComputeWorkgroupStorageSize.
    kernelDecl('full', args, body, tmp(4096)),
    // 7 accessors: with the slot buffer and an emulation buffer, 9 storage bindings.
    kernelDecl(
      'wide',
      [...args, ...[1, 2, 3, 4, 5, 6].map((i) => accessorParam(`in${i}`, f32, 'read'))],
      body,
    ),
    kernelDecl('argless', [accessorParam('out', f32, 'write')], []),
    // A native pipeline per value set: taking a slot would make each slower to create.
    kernelDecl('tuned', args, [
      assign(
        index(param('out', f32), item('globalId'), f32),
        bin('*', param('g', f32), spec('k', f32)),
      ),
    ]),
  ];
  const { images, programGlobals, diagnostics } = link(
    {
      modules: modules(deviceObject(M, { specConstants: [specDecl('k', f32, 2)], kernels })),
      resolveImport: resolveRelative,
    },
    { specConstants: 'both' },
  );
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  const slots = (name: string) => {
    const info = image!.kernels[`${M}#${name}`]!;
    const launch = info.bindings.find((b) => b.kind === 'launch');
    return [info.launchSlots, launch?.kind === 'launch' ? launch.records : undefined];
  };
  expect(slots('small')).toEqual([['native', 'emulated'], 64]);
  expect(slots('fits')).toEqual([['native', 'emulated'], 64]);
  expect(slots('full')).toEqual([[], null]);
  expect(slots('wide')).toEqual([[], null]);
  expect(slots('argless')).toEqual([[], null]);
  expect(slots('tuned')).toEqual([['emulated'], 64]);
  const entry = (name: string) => image!.wgsl.native!.split(`fn k_${name}(`)[1]!.split('\n}\n')[0]!;
  expect(entry('small')).toContain('if (launch_slots_on && launch_small[0].slot_mode != 0u) {');
  expect(image!.wgsl.native).toContain('override launch_slots_on: bool = true;');
  expect(image!.launchSlots?.override).toBe('launch_slots_on');
  expect(entry('small')).toContain('slot = workgroupUniformLoad(&launch_slot);');
  expect(entry('small')).toContain('launch_small[slot].g');
  expect(entry('full')).not.toContain('launch_slot');
  expect(entry('full')).toContain('launch_full.g');
  expect(entry('tuned')).toContain('let slot = 0u;');
  expect(entry('tuned')).not.toContain('launch_slot');
  expect(entry('tuned')).toContain('launch_tuned[slot].g');
});

test("a value argument and a local named 'slot' keep their own values beside the launch slot", async () => {
  const named = kernelDecl(
    'named',
    [valueParam('slot', u32), accessorParam('out', u32, 'write')],
    [
      letS('slot', bin('+', param('slot', u32), item('globalId'))),
      assign(index(param('out', u32), item('globalId'), u32), local('slot', u32)),
    ],
  );
  const { images, programGlobals, diagnostics } = link({
    modules: modules(deviceObject(M, { kernels: [named] })),
    resolveImport: resolveRelative,
  });
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  expect(image!.kernels[`${M}#named`]!.launchSlots).toEqual(['native']);
  expect(image!.wgsl.native).toContain('let slot_2: u32 = launch_named[slot].slot_2 + gid.x;');
  const result = await runKernel(image!, `${M}#named`, {
    mode: 'native',
    range: [40],
    accessors: { out: new Uint32Array(41).fill(0xdeadbeef) },
    values: { slot: 1000 },
  });
  const got = [...new Uint32Array(result.accessors.out!)];
  expect(got.slice(0, 40)).toEqual(Array.from({ length: 40 }, (_, i) => 1000 + i));
  expect(got[40]).toBe(0xdeadbeef);
});

test('a chunk of records stays within 64 KiB: large emulation records come fewer to a binding', () => {
  const recordsFor = (length: number) => {
    const reads = kernelDecl(
      'reads',
      [accessorParam('out', f32, 'write')],
      [
        assign(
          index(param('out', f32), item('globalId'), f32),
          index(spec('big', array(f32, length)), lit(0, u32), f32),
        ),
      ],
    );
    const { images, programGlobals, diagnostics } = link(
      {
        modules: modules(
          deviceObject(M, {
            specConstants: [specDecl('big', array(f32, length), new Array(length).fill(1))],
            kernels: [reads],
          }),
        ),
        resolveImport: resolveRelative,
      },
      { specConstants: 'emulated' },
    );
    expect(diagnostics).toEqual([]);
    const [image] = emitProgram({ images, programGlobals }).images;
    return [image!.emulation!.addressSpace, image!.emulation!.size, image!.emulation!.records];
  };
  // Nine f32 (stride 4) are held as words in a uniform; 8192 are too many to rebuild per read.
  expect(recordsFor(9)).toEqual(['uniform', 48, 64]);
  expect(recordsFor(8192)).toEqual(['storage', 32768, 2]);
  expect(recordsFor(40000)).toEqual(['storage', 160000, 1]);
});
