import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Program } from '@syclts/dsl';
import { beforeAll, expect, test } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import { runKernel } from '../support/gpu.js';

const SCALE = `import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';
export const factor = specializationId(u32, 7);
export const scale = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
  const i = item.getId(0);
  out[i] = kh.getSpecializationConstant(factor) * i;
});
`;

const TILES = `import { accessor, f32, kernel, specializationId, u32, workgroupArray } from '@syclts/dsl';

export const blockSize = specializationId(u32, 8);

export const reverse = kernel(
  { ndRange: 1, workgroupSize: [blockSize], args: { out: accessor(f32, 'write') }, local: { tmp: workgroupArray(f32, blockSize, 2) } },
  (item, kh, { out }, { tmp }) => {
    const l = item.getLocalId(0);
    tmp[l] = f32(item.getGlobalId(0));
    item.barrier();
    out[item.getGlobalId(0)] = tmp[item.getLocalRange(0) - 1 - l];
  },
);
`;

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'syclts-cli-'));
  await mkdir(join(root, 'src', 'gpu'), { recursive: true });
  await writeFile(join(root, 'src', 'scale.sycl.ts'), SCALE);
  await writeFile(join(root, 'src', 'gpu', 'tiles.sycl.ts'), TILES);
});

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    cwd: root,
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
  });
  return { code, stdout, stderr };
}

const readProgram = async (dir: string) =>
  JSON.parse(await readFile(join(root, dir, 'program.json'), 'utf8')) as Program;

test('build writes WGSL, property sets and the program, which runs on the adapter', async () => {
  const run = await cli(
    'build',
    'src/scale.sycl.ts',
    'src/gpu/tiles.sycl.ts',
    '--out-dir',
    'out',
    '--spec-constants',
    'both',
    '--validate-ir',
  );
  expect(run).toEqual({ code: 0, stdout: 'syclts: 2 device images written to out\n', stderr: '' });
  expect((await readdir(join(root, 'out'))).sort()).toEqual([
    '0-src_gpu_tiles.sycl.ts.native.wgsl',
    '0-src_gpu_tiles.sycl.ts.properties.json',
    '1-src_scale.sycl.ts.emulated.wgsl',
    '1-src_scale.sycl.ts.native.wgsl',
    '1-src_scale.sycl.ts.properties.json',
    'program.json',
  ]);
  const native = await readFile(join(root, 'out', '1-src_scale.sycl.ts.native.wgsl'), 'utf8');
  expect(native).toContain('@id(0) override sc_factor: u32 = 7u;');
  const properties = JSON.parse(
    await readFile(join(root, 'out', '1-src_scale.sycl.ts.properties.json'), 'utf8'),
  );
  expect(properties['SYCL/specialization constants']).toEqual({
    'src/scale.sycl.ts#factor': [{ id: 0, offset: 0, size: 4 }],
  });
  expect(properties['SYCL/specialization constants default values']).toEqual({
    all: `07${'0'.repeat(30)}`,
    values: { 'src/scale.sycl.ts#factor': 7 },
  });
  expect(properties['SYCL/emulation']).toEqual({
    group: 0,
    binding: 2,
    addressSpace: 'uniform',
    size: 16,
    records: 64,
    offsets: { 'src/scale.sycl.ts#factor': 0 },
  });
  expect(Object.keys(properties)).toEqual([
    'SYCL/specialization constants',
    'SYCL/specialization constants default values',
    'SYCL/emulation',
    'SYCL/kernels',
  ]);

  const program = await readProgram('out');
  const [tiles, scale] = program.images;
  const scaled = await runKernel(scale!, 'src/scale.sycl.ts#scale', {
    mode: 'emulated',
    range: [9],
    accessors: { out: new Uint32Array(9).fill(0xdeadbeef) },
    specConstants: { 'src/scale.sycl.ts#factor': 5 },
  });
  expect([...new Uint32Array(scaled.accessors.out!)]).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40]);
  for (const w of [8, 4]) {
    const reversed = await runKernel(tiles!, 'src/gpu/tiles.sycl.ts#reverse', {
      mode: 'native',
      range: [16],
      accessors: { out: new Float32Array(16).fill(Number.NaN) },
      specConstants: w === 8 ? {} : { 'src/gpu/tiles.sycl.ts#blockSize': w },
    });
    const want = Array.from({ length: 16 }, (_, g) => g - (g % w) + (w - 1 - (g % w)));
    expect([...new Float32Array(reversed.accessors.out!)], `block size ${w}`).toEqual(want);
  }
});

test('errors go to stderr as file:line:col with a code frame, and the exit code is 1', async () => {
  const run = await cli(
    'build',
    'src/gpu/tiles.sycl.ts',
    '--out-dir',
    'bad',
    '--spec-constants',
    'emulated',
  );
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  const [first, second] = run.stderr.split(/\n(?=src\/)/);
  expect(first).toMatch(
    /^src\/gpu\/tiles\.sycl\.ts:6:33: error: specialization constant 'src\/gpu\/tiles\.sycl\.ts#blockSize' sizes the workgroup size \(dimension 0\) of kernel 'src\/gpu\/tiles\.sycl\.ts#reverse', which needs a pipeline constant; .* \[SYCL2002\]\n/,
  );
  expect(first).toContain('> 6 |   { ndRange: 1, workgroupSize: [blockSize],');
  expect(first).toMatch(/\n {4}\| {33}\^{9}\n/);
  expect(second).toMatch(
    /^src\/gpu\/tiles\.sycl\.ts:6:118: error: .*workgroup array 'tmp'.* \[SYCL2003\]/,
  );
  await expect(readdir(join(root, 'bad'))).rejects.toThrow();

  expect(await cli('build', 'src/missing.sycl.ts', '--out-dir', 'bad')).toMatchObject({
    code: 1,
    stderr:
      'src/missing.sycl.ts: error: cannot read src/missing.sycl.ts: ENOENT [SYCL3001]\n' +
      '  see: docs/errors.md#sycl3001-a-source-the-cli-cannot-read\n',
  });
  expect(
    await cli('build', 'src/scale.sycl.ts', '--out-dir', 'bad', '--root', 'src/gpu'),
  ).toMatchObject({
    code: 1,
    stderr:
      'src/scale.sycl.ts: error: outside the root src/gpu, which module paths (and so symbolic IDs) are relative to; pass --root [SYCL3003]\n' +
      '  see: docs/errors.md#sycl3003-a-source-outside-the-root\n',
  });
  const usage = await cli('build', 'src/scale.sycl.ts', '--out-dir', 'x', '--split', 'halves');
  expect(usage.code).toBe(1);
  expect(usage.stderr).toMatch(
    /^syclts: error: --split must be one of per-module, per-kernel, whole, not 'halves'\nusage:/,
  );
  expect((await cli('build', 'src/scale.sycl.ts')).stderr).toMatch(
    /^syclts: error: build needs --out-dir DIR/,
  );
  expect((await cli('frobnicate')).stderr).toMatch(/^syclts: error: unknown command 'frobnicate'/);
  expect((await cli('inspect', 'nowhere')).code).toBe(1);
});

test('inspect prints the images readably', async () => {
  expect(
    (
      await cli(
        'build',
        'src/scale.sycl.ts',
        'src/gpu/tiles.sycl.ts',
        '--out-dir',
        'seen',
        '--spec-constants',
        'both',
      )
    ).code,
  ).toBe(0);
  const { code, stdout } = await cli('inspect', 'seen');
  expect(code).toBe(0);
  expect(stdout).toBe(`program format 7, 2 device images

device image src/gpu/tiles.sycl.ts
  native WGSL: 0-src_gpu_tiles.sycl.ts.native.wgsl (30 lines)
  properties: 0-src_gpu_tiles.sycl.ts.properties.json
  specialization constants (1):
    @id 0       src/gpu/tiles.sycl.ts#blockSize: u32 = 8
  device globals (0):
  kernels (1):
    src/gpu/tiles.sycl.ts#reverse -> k_reverse
      nd-range 1D, workgroup size (src/gpu/tiles.sycl.ts#blockSize[@id 0], 1, 1), workgroup memory sized by specialization constants
      variants: native
      @binding(0) launch uniform, 32 bytes: global_range: vec3<u32> @0, group_offset: vec3<u32> @16
      @binding(1) accessor out: array<f32> (write)
      specialization constants: src/gpu/tiles.sycl.ts#blockSize

device image src/scale.sycl.ts
  native WGSL: 1-src_scale.sycl.ts.native.wgsl (30 lines)
  emulated WGSL: 1-src_scale.sycl.ts.emulated.wgsl (47 lines)
  properties: 1-src_scale.sycl.ts.properties.json
  specialization constants (1):
    @id 0       src/scale.sycl.ts#factor: u32 = 7, emulated @0
  emulation buffer: @group(0) @binding(2) uniform, 64 records of 16 bytes
  launch slots: @group(0) @binding(3), taken while override launch_slots_on is true
  device globals (0):
  kernels (1):
    src/scale.sycl.ts#scale -> k_scale
      range 1D, workgroup size (64, 1, 1), workgroup memory 0 bytes
      variants: native, emulated
      launch slots: emulated
      @binding(0) launch uniform, 32 bytes: global_range: vec3<u32> @0, slot_mode: u32 @12, group_offset: vec3<u32> @16
      @binding(1) accessor out: array<u32> (write)
      specialization constants: src/scale.sycl.ts#factor
`);
});

test('two builds with the files in different orders write byte-identical outputs', async () => {
  await cli(
    'build',
    'src/scale.sycl.ts',
    'src/gpu/tiles.sycl.ts',
    '--out-dir',
    'one',
    '--split',
    'whole',
    '--spec-constants',
    'both',
  );
  await cli(
    'build',
    'src/gpu/tiles.sycl.ts',
    'src/scale.sycl.ts',
    '--out-dir',
    'two',
    '--split',
    'whole',
    '--spec-constants',
    'both',
  );
  const files = (await readdir(join(root, 'one'))).sort();
  expect((await readdir(join(root, 'two'))).sort()).toEqual(files);
  for (const file of files) {
    expect(await readFile(join(root, 'two', file), 'utf8'), file).toBe(
      await readFile(join(root, 'one', file), 'utf8'),
    );
  }
});
