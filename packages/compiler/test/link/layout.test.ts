import { array, bool, f16, f32, i32, mat, struct, u32, vec } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { emitProgram, link } from '../../src/index.js';
import {
  accessorParam,
  assign,
  deviceObject,
  index,
  item,
  kernelDecl,
  letS,
  modules,
  param,
  resolveRelative,
  spec,
  specDecl,
} from '../support/ir.js';

const Nested = struct({ a: f32, b: f32 });
const A = struct({ x: i32, n: Nested });

/** One kernel that reads the given constants in the given order. */
function program(
  constants: { name: string; type: Parameters<typeof specDecl>[1] }[],
  mode: 'native' | 'emulated' | 'both' = 'both',
) {
  const object = deviceObject('src/m.sycl.ts', {
    specConstants: constants.map((c) => specDecl(c.name, c.type, null)),
    kernels: [
      kernelDecl(
        'k',
        [accessorParam('out', u32, 'write')],
        [
          ...constants.map((c) => letS(`v_${c.name}`, spec(c.name, c.type))),
          assign(index(param('out', u32), item('globalId'), u32), item('globalId')),
        ],
      ),
    ],
  });
  const { images, diagnostics } = link(
    { modules: modules(object), resolveImport: resolveRelative },
    { specConstants: mode },
  );
  expect(diagnostics).toEqual([]);
  return images[0]!;
}

test('the design example: id_int gets {0}, id_A gets {1, 2, 3} at offsets 0, 4, 8', () => {
  const image = program([
    { name: 'id_int', type: i32 },
    { name: 'id_A', type: A },
    { name: 'id_Nested', type: Nested },
  ]);
  const [int, a, nested] = image.specConstants;
  expect(int!.symbolicId).toBe('src/m.sycl.ts#id_int');
  expect(int!.info.leaves.map(({ id, offset, size }) => ({ id, offset, size }))).toEqual([
    { id: 0, offset: 0, size: 4 },
  ]);
  expect(a!.symbolicId).toBe('src/m.sycl.ts#id_A');
  expect(a!.info.leaves.map(({ id, offset, size }) => ({ id, offset, size }))).toEqual([
    { id: 1, offset: 0, size: 4 },
    { id: 2, offset: 4, size: 4 },
    { id: 3, offset: 8, size: 4 },
  ]);
  expect(a!.info.leaves.map((l) => l.path)).toEqual([['x'], ['n', 'a'], ['n', 'b']]);
  expect(nested!.info.leaves.map((l) => l.id)).toEqual([4, 5]);
  // As in the DPC++ design: sizeof(int) = 4, sizeof(A) = 12, so the offsets are 0, 4, 16.
  expect(image.specConstants.map((c) => c.info.emulationOffset)).toEqual([0, 4, 16]);
  // A nested struct at offset 4 breaks the uniform rules: the records are held as words, uniform.
  expect(image.emulation).toMatchObject({ addressSpace: 'uniform', size: 32, inWords: true });
});

test('numeric IDs follow first use, not declaration order', () => {
  const image = program([
    { name: 'zeta', type: u32 },
    { name: 'alpha', type: u32 },
  ]);
  expect(image.specConstants.map((c) => [c.symbolicId, c.info.leaves[0]!.id])).toEqual([
    ['src/m.sycl.ts#zeta', 0],
    ['src/m.sycl.ts#alpha', 1],
  ]);
});

test('an emulation buffer of scalars, bool, vec3, an array, a matrix and nested structs follows WGSL layout', () => {
  const S = struct({ flag: bool, v: vec(f32, 2), inner: struct({ k: i32, w: vec(f32, 3) }) });
  const image = program([
    { name: 'c0', type: f32 },
    { name: 'c1', type: bool },
    { name: 'c2', type: vec(f32, 3) },
    { name: 'c3', type: u32 },
    { name: 'c4', type: array(f32, 3) },
    { name: 'c5', type: mat(3, 3) },
    { name: 'c6', type: S },
    { name: 'c7', type: f32 },
  ]);
  const byName = Object.fromEntries(
    image.specConstants.map((c) => [c.symbolicId.split('#')[1]!, c.info]),
  );
  // Hand layout: f32 @0; bool as u32 @4; vec3 aligned to 16 @16 (12 bytes); u32 packs after it
  // @28; array<f32, 3> @32 (stride 4, 12 bytes); mat3x3 aligned to 16 @48 (3 columns of 16);
  // the struct (align 16: its inner struct holds a vec3) @96, 48 bytes; f32 @144; size 160.
  expect(Object.values(byName).map((c) => c.emulationOffset)).toEqual([
    0, 4, 16, 28, 32, 48, 96, 144,
  ]);
  // array<f32, 3> (stride 4) breaks the uniform rules: the records are held as words, uniform.
  expect(image.emulation).toMatchObject({ size: 160, addressSpace: 'uniform', inWords: true });
  expect(byName.c1!.leaves).toEqual([{ id: 1, offset: 0, size: 4, scalar: 'bool', path: [] }]);
  expect(byName.c2!.leaves.map((l) => [l.id, l.offset])).toEqual([
    [2, 0],
    [3, 4],
    [4, 8],
  ]);
  expect(byName.c4!.leaves.map((l) => [l.id, l.offset])).toEqual([
    [6, 0],
    [7, 4],
    [8, 8],
  ]);
  // Column-major, columns 16 bytes apart; paths index the flat column-major host value.
  expect(byName.c5!.leaves.map((l) => [l.id, l.offset, l.path[0]])).toEqual([
    [9, 0, 0],
    [10, 4, 1],
    [11, 8, 2],
    [12, 16, 3],
    [13, 20, 4],
    [14, 24, 5],
    [15, 32, 6],
    [16, 36, 7],
    [17, 40, 8],
  ]);
  // flag @0, v @8 (align 8), inner @16 (align 16): k @16, w @32.
  expect(byName.c6!.leaves.map((l) => [l.id, l.offset, l.size, l.path.join('.')])).toEqual([
    [18, 0, 4, 'flag'],
    [19, 8, 4, 'v.0'],
    [20, 12, 4, 'v.1'],
    [21, 16, 4, 'inner.k'],
    [22, 32, 4, 'inner.w.0'],
    [23, 36, 4, 'inner.w.1'],
    [24, 40, 4, 'inner.w.2'],
  ]);
  expect(byName.c7!.leaves[0]!.id).toBe(25);
});

test('the emulation buffer is a uniform when its layout already meets the uniform rules', () => {
  const image = program([
    { name: 'u', type: u32 },
    { name: 'v', type: vec(f32, 4) },
    { name: 'table', type: array(vec(f32, 4), 2) },
    { name: 's', type: struct({ a: vec(f32, 3), b: f32 }) },
  ]);
  expect(image.specConstants.map((c) => c.info.emulationOffset)).toEqual([0, 16, 32, 64]);
  expect(image.emulation).toMatchObject({ addressSpace: 'uniform', size: 80, inWords: false });
});

test('an emulation buffer over 64 KiB is read-only storage', () => {
  const image = program([{ name: 'big', type: array(vec(f32, 4), 4097) }]);
  expect(image.emulation).toMatchObject({ addressSpace: 'storage', size: 4097 * 16 });
});

test('native composites beyond 8192 bytes of private memory: an error natively, emulated only with both', () => {
  const object = deviceObject('src/big.sycl.ts', {
    specConstants: [
      specDecl('table', array(vec(f32, 4), 600), null),
      specDecl('small', array(u32, 4), null),
    ],
    kernels: [
      kernelDecl(
        'big',
        [accessorParam('out', u32, 'write')],
        [letS('t', spec('table', array(vec(f32, 4), 600)))],
      ),
      kernelDecl(
        'fine',
        [accessorParam('out', u32, 'write')],
        [letS('s', spec('small', array(u32, 4)))],
      ),
    ],
  });
  const input = { modules: modules(object), resolveImport: resolveRelative };
  const native = link(input);
  expect(native.diagnostics.map((d) => [d.code, d.message])).toEqual([
    [
      'SYCL2009',
      "the composite specialization constants of kernel 'src/big.sycl.ts#big' take 9600 bytes of private memory in the native variant, WGSL allows 8192; build with specConstants 'emulated' or 'both'",
    ],
  ]);
  const both = link(input, { specConstants: 'both' });
  expect(both.diagnostics).toEqual([]);
  expect(both.images[0]!.kernels.map((k) => [k.symbolicId, k.info.variants])).toEqual([
    ['src/big.sycl.ts#big', ['emulated']],
    ['src/big.sycl.ts#fine', ['native', 'emulated']],
  ]);
});

test('f16 constants: 2-byte leaves, f16 layout, `enable f16` and h literals', () => {
  const S = struct({ a: f16, b: f32 });
  const image = program([
    { name: 'h', type: f16 },
    { name: 'hv', type: vec(f16, 3) },
    { name: 's', type: S },
  ]);
  // h @0 (2 bytes); vec3<f16> aligns to 8 @8 (6 bytes); the struct aligns to 4 @16: a @0, b @4.
  expect(image.specConstants.map((c) => c.info.emulationOffset)).toEqual([0, 8, 16]);
  expect(
    image.specConstants.flatMap((c) =>
      c.info.leaves.map((l) => [l.id, l.offset, l.size, l.scalar]),
    ),
  ).toEqual([
    [0, 0, 2, 'f16'],
    [1, 0, 2, 'f16'],
    [2, 2, 2, 'f16'],
    [3, 4, 2, 'f16'],
    [4, 0, 2, 'f16'],
    [5, 4, 4, 'f32'],
  ]);
  expect(image.emulation).toMatchObject({ size: 32, addressSpace: 'uniform', inWords: false });
  const folded = link(
    {
      modules: modules(
        deviceObject('src/h.sycl.ts', {
          specConstants: [specDecl('h', f16, 1.5), specDecl('hv', vec(f16, 3), [0.25, -2, 65504])],
          kernels: [
            kernelDecl(
              'k',
              [accessorParam('out', f16, 'write')],
              [
                assign(index(param('out', f16), item('globalId'), f16), spec('h', f16)),
                letS('v', spec('hv', vec(f16, 3))),
              ],
            ),
          ],
        }),
      ),
      resolveImport: resolveRelative,
    },
    { specConstants: 'both' },
  );
  const { native, emulated } = emitProgram(folded).images[0]!.wgsl;
  for (const text of [native!, emulated!]) expect(text.split('\n')[1]).toBe('enable f16;');
  expect(native).toContain('@id(0) override sc_h: f16 = 1.5h;');
  expect(native).toContain('@id(3) override sc_hv_2: f16 = 65504.0h;');
  expect(native).toContain('var<storage, read_write> a_k_out: array<f16>;');
  expect(emulated).toContain('  @size(8) sc_hv: vec3<f16>, // src/h.sycl.ts#hv @ 8');
});
