import { i32, u32 } from '@syclts/dsl';
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
  modules,
  param,
  ref,
  resolveRelative,
  span,
  spec,
  specDecl,
} from '../support/ir.js';

const N = 10;
const sameNamed = Array.from({ length: N }, (_, m) =>
  deviceObject(`src/mod${m}.sycl.ts`, {
    specConstants: [specDecl('n', u32, 100 + 3 * m)],
    // Even modules export their `n`, odd ones keep it module-local.
    exports: m % 2 === 0 ? [{ kind: 'local', exported: 'n', local: 'n' }] : [],
    kernels: [
      kernelDecl(
        'read',
        [accessorParam('out', u32, 'write')],
        [
          assign(
            index(param('out', u32), item('globalId'), u32),
            bin('+', spec('n', u32), item('globalId')),
          ),
        ],
      ),
    ],
  }),
);

test('the same name in ten modules gives ten constants, each kernel reading its own', async () => {
  const { images, programGlobals, diagnostics } = link(
    { modules: modules(...sameNamed), resolveImport: resolveRelative },
    { split: 'whole', specConstants: 'both' },
  );
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  const ids = Array.from({ length: N }, (_, m) => `src/mod${m}.sycl.ts#n`);
  expect(Object.keys(image!.specConstants)).toEqual(ids);
  expect(Object.values(image!.specConstants).map((c) => c.leaves[0]!.id)).toEqual(
    ids.map((_, i) => i),
  );
  const overrides = [
    ...image!.wgsl.native!.matchAll(/@id\((\d+)\) override (\w+): u32 = (\d+)u;/g),
  ];
  expect(overrides).toHaveLength(N);
  expect(new Set(overrides.map((o) => o[2])).size).toBe(N);

  const set = Object.fromEntries(ids.map((id, m) => [id, 5000 + 17 * m]));
  for (const mode of ['native', 'emulated'] as const) {
    for (let m = 0; m < N; m++) {
      for (const values of [{}, set]) {
        const result = await runKernel(image!, `src/mod${m}.sycl.ts#read`, {
          mode,
          range: [5],
          accessors: { out: new Uint32Array(8).fill(0xdeadbeef) },
          specConstants: values,
        });
        const want = values === set ? 5000 + 17 * m : 100 + 3 * m;
        expect([...new Uint32Array(result.accessors.out!)], `${mode} mod${m}`).toEqual([
          ...Array.from({ length: 5 }, (_, i) => want + i),
          0xdeadbeef,
          0xdeadbeef,
          0xdeadbeef,
        ]);
      }
    }
  }
});

test('split per module, each image numbers its own `n` from 0', () => {
  const { images } = link({ modules: modules(...sameNamed), resolveImport: resolveRelative });
  expect(
    images.map((i) => [i.id, i.specConstants.map((c) => [c.symbolicId, c.info.leaves[0]!.id])]),
  ).toEqual(
    Array.from({ length: N }, (_, m) => [
      `src/mod${m}.sycl.ts`,
      [[`src/mod${m}.sycl.ts#n`, 0]],
    ]).sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)),
  );
});

test('one declaration reached through two import aliases, a renaming re-export and export * is one constant', async () => {
  const shared = deviceObject('src/common.sycl.ts', {
    specConstants: [specDecl('k', i32, 21)],
    exports: [{ kind: 'local', exported: 'k', local: 'k' }],
  });
  const hub = deviceObject('src/lib/hub.sycl.ts', {
    exports: [
      { kind: 'star', specifier: '../common.sycl.ts' },
      { kind: 'reexport', exported: 'kk', specifier: '../common.sycl.ts', imported: 'k' },
    ],
  });
  const k = (r: ReturnType<typeof ref>) => spec(r, i32);
  const user = deviceObject('src/user.sycl.ts', {
    imports: [
      {
        specifier: './common.sycl.ts',
        bindings: [
          { local: 'a', imported: 'k' },
          { local: 'b', imported: 'k' },
        ],
        span,
      },
      { specifier: './lib/hub.sycl.ts', bindings: [{ local: 'kk', imported: 'kk' }], span },
    ],
    kernels: [
      kernelDecl(
        'sum',
        [accessorParam('out', i32, 'write')],
        [
          assign(
            index(param('out', i32), item('globalId'), i32),
            bin(
              '+',
              bin('+', bin('+', k(ref('a')), k(ref('b'))), k(ref('kk'))),
              bin('+', k(ref('k', './lib/hub.sycl.ts')), convert(i32, item('globalId'))),
            ),
          ),
        ],
      ),
    ],
  });
  const { images, programGlobals, diagnostics } = link({
    modules: modules(user, hub, shared),
    resolveImport: resolveRelative,
  });
  expect(diagnostics).toEqual([]);
  const [image] = emitProgram({ images, programGlobals }, { validateIr: true }).images;
  expect(Object.keys(image!.specConstants)).toEqual(['src/common.sycl.ts#k']);
  expect(image!.wgsl.native!.match(/@id\(\d+\) override/g)).toHaveLength(1);
  for (const [values, each] of [
    [{}, 21],
    [{ 'src/common.sycl.ts#k': -6 }, -6],
  ] as const) {
    const result = await runKernel(image!, 'src/user.sycl.ts#sum', {
      mode: 'native',
      range: [4],
      accessors: { out: new Int32Array(4).fill(-1) },
      specConstants: values,
    });
    expect([...new Int32Array(result.accessors.out!)]).toEqual(
      [0, 1, 2, 3].map((i) => 4 * each + i),
    );
  }
});

test('references that name nothing are diagnosed, not thrown', () => {
  const user = deviceObject('src/user.sycl.ts', {
    kernels: [
      kernelDecl(
        'k',
        [accessorParam('out', u32, 'write')],
        [
          assign(
            index(param('out', u32), item('globalId'), u32),
            spec(ref('missing', './nowhere.sycl.ts'), u32),
          ),
          assign(index(param('out', u32), item('globalId'), u32), spec(ref('ghost'), u32)),
        ],
      ),
    ],
  });
  const { images, diagnostics } = link({ modules: modules(user), resolveImport: resolveRelative });
  expect(images).toEqual([]);
  expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
    [
      'SYCL2004',
      "'./nowhere.sycl.ts' (imported by src/user.sycl.ts) is not a known .sycl.ts module",
    ],
    ['SYCL2004', "'ghost' is not declared in src/user.sycl.ts"],
  ]);
});
