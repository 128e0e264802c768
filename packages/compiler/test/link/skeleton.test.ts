import { expect, test } from 'vitest';
import { emitProgram, link } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';
import {
  accessorParam,
  assign,
  bin,
  deviceObject,
  exportAll,
  index,
  item,
  kernelDecl,
  letS,
  local,
  modules,
  param,
  resolveRelative,
  spec,
  specDecl,
  u32,
} from '../support/ir.js';

// The device object of:
//   export const factor = specializationId(u32, 7);
//   export const scale = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
//     const i = item.getId(0);
//     out[i] = kh.getSpecializationConstant(factor) * i;
//   });
const skeleton = exportAll(
  deviceObject('src/scale.sycl.ts', {
    specConstants: [specDecl('factor', u32, 7)],
    kernels: [
      kernelDecl(
        'scale',
        [accessorParam('out', u32, 'write')],
        [
          letS('i', item('globalId', 0)),
          assign(
            index(param('out', u32), local('i', u32), u32),
            bin('*', spec('factor', u32), local('i', u32)),
          ),
        ],
      ),
    ],
  }),
);

test('a single-module program with a scalar specialization constant runs natively with its default and a set value', async () => {
  const { images, programGlobals, diagnostics } = link({
    modules: modules(skeleton),
    resolveImport: resolveRelative,
  });
  expect(diagnostics).toEqual([]);
  const program = emitProgram({ images, programGlobals });
  const [image] = program.images;
  expect(image!.id).toBe('src/scale.sycl.ts');
  expect(image!.wgsl.native).toContain('@id(0) override sc_factor: u32 = 7u;');
  // Native only (the default): no emulated text, no emulation buffer.
  expect(image!.wgsl.emulated).toBeUndefined();
  expect(image!.emulation).toBeNull();
  expect(image!.specConstants['src/scale.sycl.ts#factor']!.leaves).toEqual([
    { id: 0, offset: 0, size: 4, scalar: 'u32', path: [] },
  ]);
  const kernel = image!.kernels['src/scale.sycl.ts#scale']!;
  expect(kernel.entryPoint).toBe('k_scale');
  expect(kernel.specConstants).toEqual(['src/scale.sycl.ts#factor']);

  const n = 100; // not a multiple of the workgroup size: the guard must hold
  const poison = () => ({ out: new Uint32Array(n + 28).fill(0xdeadbeef) });
  const byDefault = new Uint32Array(
    (
      await runKernel(image!, 'src/scale.sycl.ts#scale', {
        mode: 'native',
        range: [n],
        accessors: poison(),
      })
    ).accessors.out!,
  );
  expect([...byDefault.slice(0, n)]).toEqual(Array.from({ length: n }, (_, i) => 7 * i));
  expect([...byDefault.slice(n)]).toEqual(Array(28).fill(0xdeadbeef));
  const set = new Uint32Array(
    (
      await runKernel(image!, 'src/scale.sycl.ts#scale', {
        mode: 'native',
        range: [n],
        accessors: poison(),
        specConstants: { 'src/scale.sycl.ts#factor': 13 },
      })
    ).accessors.out!,
  );
  expect([...set.slice(0, n)]).toEqual(Array.from({ length: n }, (_, i) => 13 * i));
});
