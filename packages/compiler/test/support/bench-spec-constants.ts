/**
 * Kernel time of the emitted variants of an array<f32, 9> specialization constant: native
 * (overrides rebuilt in a var<private>), emulated (buffer), and the native WGSL with the
 * coefficients as a `const` literal array (baseline); a memory-bound 3x3 convolution and a
 * compute-bound chain of 256 fma. GPU timestamps (unquantized), median of 20, 4096 x 4096.
 * Not a test. On a machine with a GPU, from the repository root:
 *   npx esbuild packages/compiler/test/support/bench-spec-constants.ts --bundle --platform=node \
 *     --format=esm --external:webgpu --conditions=@syclts/source --outfile=test/out/bench.mjs
 *   node test/out/bench.mjs      (on a machine with a GPU)
 */
import { array, f32, i32, u32, usesLaunchSlots } from '@syclts/dsl';
import { create, globals } from 'webgpu';
import { emitProgram } from '../../src/emit/index.js';
import { link } from '../../src/link/index.js';
import {
  accessorParam,
  assign,
  bin,
  builtin,
  convert,
  deviceObject,
  forS,
  increment,
  index,
  item,
  kernelDecl,
  letS,
  lit,
  local,
  modules,
  param,
  resolveRelative,
  spec,
  specDecl,
} from './ir.js';
import { layoutEntries } from './layout-entries.js';

Object.assign(globalThis, globals);
// The Dawn instance must outlive every adapter and device made from it.
const keep: unknown[] = [];
const W = 4096;
const H = 4096;
const COEFFS = [1, 2, 1, 2, 4, 2, 1, 2, 1].map((c) => c / 16);
const bool = { kind: 'scalar', scalar: 'bool' } as const;

function program() {
  const y = local('y', i32);
  const x = local('x', i32);
  const dy = local('dy', i32);
  const dx = local('dx', i32);
  const acc = local('acc', f32);
  const clampI = (v: ReturnType<typeof bin>, hi: number) =>
    builtin('clamp', [v, lit(0, i32), lit(hi - 1, i32)], i32);
  const body = [
    letS('y', convert(i32, item('globalId', 0))),
    letS('x', convert(i32, item('globalId', 1))),
    letS('acc', lit(0, f32), true),
    forS(letS('dy', lit(-1, i32), true), bin('<=', dy, lit(1, i32), bool), increment(dy), [
      forS(letS('dx', lit(-1, i32), true), bin('<=', dx, lit(1, i32), bool), increment(dx), [
        assign(
          acc,
          bin(
            '*',
            index(
              spec('coeffs', array(f32, 9)),
              bin('+', bin('*', bin('+', dy, lit(1, i32)), lit(3, i32)), bin('+', dx, lit(1, i32))),
              f32,
            ),
            index(
              param('src', f32),
              convert(
                u32,
                bin(
                  '+',
                  bin('*', clampI(bin('+', y, dy), H), lit(W, i32)),
                  clampI(bin('+', x, dx), W),
                ),
              ),
              f32,
            ),
          ),
          '+=',
        ),
      ]),
    ]),
    assign(index(param('dst', f32), convert(u32, bin('+', bin('*', y, lit(W, i32)), x)), f32), acc),
  ];
  // poly: 256 dependent fma steps per pixel with coefficients picked by the loop counter.
  const r = local('r', u32);
  const poly = [
    letS('y', convert(i32, item('globalId', 0))),
    letS('x', convert(i32, item('globalId', 1))),
    letS(
      'acc',
      index(param('src', f32), convert(u32, bin('+', bin('*', y, lit(W, i32)), x)), f32),
      true,
    ),
    forS(letS('r', lit(0), true), bin('<', r, lit(256), bool), increment(r), [
      assign(
        acc,
        builtin(
          'fma',
          [
            acc,
            index(spec('coeffs', array(f32, 9)), bin('%', r, lit(9)), f32),
            index(spec('coeffs', array(f32, 9)), bin('%', bin('*', r, lit(7)), lit(9)), f32),
          ],
          f32,
        ),
      ),
    ]),
    assign(index(param('dst', f32), convert(u32, bin('+', bin('*', y, lit(W, i32)), x)), f32), acc),
  ];
  const object = deviceObject('src/conv.sycl.ts', {
    specConstants: [specDecl('coeffs', array(f32, 9), COEFFS)],
    kernels: [
      kernelDecl(
        'conv3x3',
        [accessorParam('src', f32, 'read'), accessorParam('dst', f32, 'write')],
        body,
        { range: { kind: 'basic', dimensions: 2 } },
      ),
      kernelDecl(
        'poly',
        [accessorParam('src', f32, 'read'), accessorParam('dst', f32, 'write')],
        poly,
        { range: { kind: 'basic', dimensions: 2 } },
      ),
    ],
  });
  const { images, programGlobals, diagnostics } = link(
    { modules: modules(object), resolveImport: resolveRelative },
    { specConstants: 'both' },
  );
  if (diagnostics.length) throw new Error(JSON.stringify(diagnostics));
  return emitProgram({ images, programGlobals }).images[0]!;
}

async function main() {
  const gpu = create(['disable-dawn-features=timestamp_quantization']);
  keep.push(gpu);
  const adapter = (await gpu.requestAdapter({ powerPreference: 'high-performance' }))!;
  const device = await adapter.requestDevice({ requiredFeatures: ['timestamp-query'] });
  const image = program();
  for (const kernelId of ['src/conv.sycl.ts#conv3x3', 'src/conv.sycl.ts#poly']) {
    const kernel = image.kernels[kernelId]!;
    console.log(kernelId);
    const native = image.wgsl.native!;
    const literal = native.replace(
      /var<private> sc_coeffs: array<f32, 9> = [^;]*;/,
      `const sc_coeffs = array<f32, 9>(${COEFFS.map((c) => `${c}f`).join(', ')});`,
    );
    if (literal === native) throw new Error('baseline substitution failed');
    const variants = [
      { name: 'const literals (baseline)', code: literal, emulated: false },
      { name: 'native: overrides + var<private>', code: native, emulated: false },
      {
        name: `emulated: ${image.emulation!.addressSpace} buffer`,
        code: image.wgsl.emulated!,
        emulated: true,
      },
    ];
    const n = W * H;
    const src = device.createBuffer({
      size: n * 4,
      usage: GPUBufferUsage.STORAGE,
      mappedAtCreation: true,
    });
    const s = new Float32Array(src.getMappedRange());
    for (let i = 0; i < n; i++) s[i] = ((i * 2654435761) % 1000) / 1000;
    src.unmap();
    const dst = device.createBuffer({
      size: n * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    const launchBinding = kernel.bindings.find((b) => b.kind === 'launch')!;
    const launch = device.createBuffer({
      size: launchBinding.kind === 'launch' ? launchBinding.size : 32,
      usage: GPUBufferUsage.UNIFORM,
      mappedAtCreation: true,
    });
    new Uint32Array(launch.getMappedRange()).set([W, H, 1, 0, 0, 0, 0, 0]);
    launch.unmap();
    // Record 0 of the emulation buffer's records; the slot buffer zeroed (slot_mode 0: slot 0).
    const emu = device.createBuffer({
      size: image.emulation!.size * image.emulation!.records,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.STORAGE,
      mappedAtCreation: true,
    });
    new Float32Array(emu.getMappedRange()).set(COEFFS);
    emu.unmap();
    console.log('emulation buffer', image.emulation!.addressSpace, image.emulation!.size);
    const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
    const resolve = device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    const read = device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const slots = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    for (const v of variants) {
      const mode = v.emulated ? 'emulated' : 'native';
      const entries = layoutEntries(image, kernel, mode);
      const resources: GPUBindGroupEntry[] = kernel.bindings.map((b) => ({
        binding: b.binding,
        resource: {
          buffer:
            b.kind === 'launch' ? launch : b.kind === 'accessor' && b.arg === 'src' ? src : dst,
        },
      }));
      if (v.emulated)
        resources.push({ binding: image.emulation!.binding, resource: { buffer: emu } });
      if (usesLaunchSlots(kernel, mode)) {
        resources.push({ binding: image.launchSlots!.binding, resource: { buffer: slots } });
      }
      const layout = device.createBindGroupLayout({ entries });
      const t0 = performance.now();
      const pipeline = await device.createComputePipelineAsync({
        layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: {
          module: device.createShaderModule({ code: v.code }),
          entryPoint: kernel.entryPoint,
        },
      });
      const created = performance.now() - t0;
      const bindGroup = device.createBindGroup({ layout, entries: resources });
      const times: number[] = [];
      for (let r = 0; r < 23; r++) {
        const encoder = device.createCommandEncoder();
        const pass = encoder.beginComputePass({
          timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
        });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.dispatchWorkgroups(W / 8, H / 8, 1);
        pass.end();
        encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
        encoder.copyBufferToBuffer(resolve, 0, read, 0, 16);
        device.queue.submit([encoder.finish()]);
        await read.mapAsync(GPUMapMode.READ);
        const [a, b] = new BigUint64Array(read.getMappedRange());
        read.unmap();
        if (r >= 3) times.push(Number(b! - a!) / 1000);
      }
      times.sort((p, q) => p - q);
      console.log(
        JSON.stringify({
          variant: v.name,
          medianMicros: times[times.length >> 1],
          minMicros: times[0],
          pipelineMs: Number(created.toFixed(2)),
        }),
      );
    }
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
