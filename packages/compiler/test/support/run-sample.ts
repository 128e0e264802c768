/**
 * The sample program (three modules, five kernels, twelve constants) plus, where the adapter
 * has shader-f16, a module of f16 constants, on whatever adapter Dawn finds: every kernel in
 * both variants with defaults and set values. Not a test: for GPUs outside the test runner.
 *   npx esbuild packages/compiler/test/support/run-sample.ts --bundle --platform=node \
 *     --format=esm --external:webgpu --conditions=@syclts/source --outfile=test/out/run-sample.mjs
 *   node test/out/run-sample.mjs      (on a machine with a GPU)
 */
import { f16, f16Round, f32, struct, vec } from '@syclts/dsl';
import { create, globals } from 'webgpu';
import { emitProgram } from '../../src/emit/index.js';
import { link } from '../../src/link/index.js';
import {
  accessorParam,
  assign,
  bin,
  convert,
  deviceObject,
  index,
  item,
  kernelDecl,
  leafReads,
  letS,
  lit,
  local,
  modules,
  param,
  resolveRelative,
  spec,
  specDecl,
} from './ir.js';
import { launchKernel } from './launch.js';
import { constants, sampleKernels, sampleModules, symbolicIdOf } from './sample-program.js';
import { leafValues } from './values.js';

Object.assign(globalThis, globals);
// The Dawn instance must outlive every adapter and device made from it.
const keep: unknown[] = [];

const H = 'src/h.sycl.ts';
const hs = struct({ a: f16, b: f32 });
const hConsts = {
  hh: { type: f16, folded: 1.5, set: -0.3333 },
  hv: { type: vec(f16, 3), folded: [0.25, -2, 65504], set: [0.001, 2.71, -7] },
  hs: { type: hs, folded: { a: 0.1, b: 2.5 }, set: { a: -1024.5, b: -0.5 } },
} as const;

async function main() {
  const flags = process.argv.slice(2);
  const gpu = create(flags);
  keep.push(gpu);
  const adapter = (await gpu.requestAdapter({ powerPreference: 'high-performance' }))!;
  console.log('features', [...adapter.features].join(' '));
  console.log(
    'adapter',
    JSON.stringify({
      vendor: adapter.info.vendor,
      architecture: adapter.info.architecture,
      description: adapter.info.description,
    }),
  );
  const hasF16 = adapter.features.has('shader-f16');
  console.log('shader-f16', hasF16);
  const device = await adapter.requestDevice({ requiredFeatures: hasF16 ? ['shader-f16'] : [] });

  const reads = Object.keys(hConsts).flatMap((n) =>
    leafReads(spec(n, hConsts[n as keyof typeof hConsts].type)),
  );
  const u = { kind: 'scalar', scalar: 'u32' } as const;
  const gi = local('gi', u);
  const hModule = deviceObject(H, {
    specConstants: Object.entries(hConsts).map(([n, c]) => specDecl(n, c.type, c.folded as never)),
    kernels: [
      kernelDecl(
        'kh',
        [accessorParam('out', f32, 'write')],
        [
          letS('gi', item('globalId')),
          ...reads.map((r, j) =>
            assign(
              index(param('out', f32), bin('+', bin('*', gi, lit(reads.length)), lit(j)), f32),
              bin('+', r, bin('*', lit(100, f32), convert(f32, gi))),
            ),
          ),
        ],
      ),
    ],
  });
  const objects = [...sampleModules(), ...(hasF16 ? [hModule] : [])];
  const linked = link(
    { modules: modules(...objects), resolveImport: resolveRelative },
    { specConstants: 'both' },
  );
  if (linked.diagnostics.length) throw new Error(JSON.stringify(linked.diagnostics));
  const program = emitProgram(linked, { validateIr: true });
  const names = Object.keys(constants) as (keyof typeof constants)[];
  const hostDefaults = Object.fromEntries(
    names.map((n) => [symbolicIdOf(n), constants[n].hostDefault]),
  );
  const round16 = (x: number) => Math.fround(f16Round(x));
  const kernels = [
    ...sampleKernels.map((k) => ({
      id: `${k.module}#${k.name}`,
      expected: (set: boolean) =>
        k.expected((n) => (set ? constants[n].setValue : constants[n].hostDefault)),
    })),
    ...(hasF16
      ? [
          {
            id: `${H}#kh`,
            expected: (set: boolean) =>
              Object.values(hConsts).flatMap((c) =>
                leafValues(c.type, (set ? c.set : c.folded) as never).map((v, j) => {
                  const leafScalar = c.type.kind === 'struct' ? (j === 0 ? 'f16' : 'f32') : 'f16';
                  return leafScalar === 'f16' ? round16(v) : v;
                }),
              ),
          },
        ]
      : []),
  ];
  let passed = 0;
  let failed = 0;
  for (const k of kernels) {
    const image = program.images.find((im) => k.id in im.kernels)!;
    for (const mode of ['native', 'emulated'] as const) {
      for (const set of [false, true]) {
        const expected = k.expected(set);
        const items = 3;
        const specConstants = set
          ? Object.fromEntries(
              [
                ...names.map((n) => [symbolicIdOf(n), constants[n].setValue]),
                ...Object.entries(hConsts).map(([n, c]) => [`${H}#${n}`, c.set]),
              ].filter(([sid]) => (sid as string) in image.specConstants),
            )
          : {};
        const result = await launchKernel(device, image, k.id, {
          mode,
          range: [items],
          accessors: { out: new Float32Array(expected.length * items).fill(Number.NaN) },
          specConstants,
          hostDefaults,
        });
        const got = [...new Float32Array(result.accessors.out!)];
        const want = Array.from({ length: items }, (_, it) =>
          expected.map((x) => Math.fround(x + 100 * it)),
        ).flat();
        const ok = JSON.stringify(got) === JSON.stringify(want);
        if (ok) passed++;
        else {
          failed++;
          console.log(
            'MISMATCH',
            k.id,
            mode,
            set ? 'set' : 'default',
            JSON.stringify(got),
            JSON.stringify(want),
          );
        }
      }
    }
  }
  console.log(JSON.stringify({ kernels: kernels.length, passed, failed }));
  if (hasF16) {
    const image = program.images.find((im) => `${H}#kh` in im.kernels)!;
    console.log(
      image.wgsl
        .native!.split('\n')
        .filter((l) => l.includes('override') || l.includes('enable'))
        .join('\n'),
    );
  }
  device.destroy();
}
main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
