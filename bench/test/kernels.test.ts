/**
 * The benchmark kernels compute what they claim, in every variant the GPU suite times, on the
 * adapter at hand (SwiftShader without a GPU): random inputs, poisoned outputs, every entry
 * against a float64 reference.
 */
import { readFileSync } from 'node:fs';
import { build } from '@syclts/compiler';
import { attach, f32, vec4f, vec4u } from '@syclts/dsl';
import { ndRange, Queue } from '@syclts/runtime';
// What the footer of a module declaring reductions imports (these modules are compiled here).
import '@syclts/runtime/groups';
import { beforeAll, describe, expect, test } from 'vitest';
import { randomU32 } from '../../test-inputs.ts';
import * as collectivesModule from '../src/kernels/collectives.sycl.ts';
import * as convModule from '../src/kernels/conv.sycl.ts';
import * as convVec4Module from '../src/kernels/conv-vec4.sycl.ts';
import * as matmulModule from '../src/kernels/matmul.sycl.ts';
import * as matmulWideModule from '../src/kernels/matmul-wide.sycl.ts';

function compile(name: string, exports: Record<string, unknown>): void {
  const module = `src/kernels/${name}.sycl.ts`;
  const source = readFileSync(new URL(`../${module}`, import.meta.url), 'utf8');
  const { program, diagnostics } = build([{ module, source }], { specConstants: 'both' });
  if (!program) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  attach(
    program,
    Object.entries(exports).map(
      ([exportName, value]) => [value as object, `${module}#${exportName}`] as const,
    ),
  );
}

beforeAll(() => {
  compile('matmul', matmulModule);
  compile('matmul-wide', matmulWideModule);
  compile('conv', convModule);
  compile('conv-vec4', convVec4Module);
  compile('collectives', collectivesModule);
});

let draws = 0;
/** Values in [-1, 1), fresh every run (see test-inputs.ts for replaying one). */
const random = (n: number): Float32Array<ArrayBuffer> =>
  Float32Array.from(randomU32(n, ++draws), (x) => (x / 2 ** 32) * 2 - 1);

/** Largest error over all entries, relative to the sum of the magnitudes of each entry's terms. */
function maxError(out: Float32Array, ref: Float64Array, magnitude: Float64Array): number {
  let error = 0;
  for (let i = 0; i < out.length; i++)
    error = Math.max(error, Math.abs(out[i]! - ref[i]!) / magnitude[i]!);
  return error;
}

describe('matmul', () => {
  const n = 128;
  const a = random(n * n);
  const b = random(n * n);
  const ref = new Float64Array(n * n);
  const magnitude = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++)
      for (let j = 0; j < n; j++) {
        const t = a[i * n + k]! * b[k * n + j]!;
        ref[i * n + j] = ref[i * n + j]! + t;
        magnitude[i * n + j] = magnitude[i * n + j]! + Math.abs(t);
      }
  const { matmul, matmulArgs, size, tileK } = matmulModule;

  const buffers = (queue: Queue) => ({
    a: queue.buffer(vec4f, (n * n) / 4, { access: 'read' }),
    b: queue.buffer(vec4f, (n * n) / 4, { access: 'read' }),
    c: queue.buffer(vec4f, (n * n) / 4),
  });

  async function run(queue: Queue, launch: (args: ReturnType<typeof buffers>) => void) {
    const args = buffers(queue);
    queue.device.queue.writeBuffer(args.a.gpuBuffer, 0, a);
    queue.device.queue.writeBuffer(args.b.gpuBuffer, 0, b);
    queue.device.queue.writeBuffer(args.c.gpuBuffer, 0, new Float32Array(n * n).fill(Number.NaN));
    launch(args);
    await queue.wait();
    return args.c.gpuBuffer;
  }

  async function read(queue: Queue, buffer: GPUBuffer): Promise<Float32Array> {
    const staging = queue.device.createBuffer({
      size: buffer.size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = queue.device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
    queue.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    return new Float32Array(staging.getMappedRange().slice(0));
  }

  // Two pipelines only: a software adapter takes seconds to compile this kernel. The emulated
  // variant and the literal WGSL are checked by the GPU suite (`gpu-suite.mjs --small` here).
  test('native specialization constants (tileK 8)', async () => {
    const queue = await Queue.create({ specConstants: 'native' });
    const c = await run(queue, (args) =>
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(size, n);
        cgh.setSpecializationConstant(tileK, 8);
        cgh.parallelFor(ndRange([n / 8, n / 8], [16, 16]), matmul, args);
      }),
    );
    expect(maxError(await read(queue, c), ref, magnitude)).toBeLessThan(1e-5);
  });

  test('values as kernel arguments (tileK 16)', async () => {
    const queue = await Queue.create();
    const c = await run(queue, (args) =>
      queue.parallelFor(ndRange([n / 8, n / 8], [16, 16]), matmulArgs, { ...args, n, bk: 16 }),
    );
    expect(maxError(await read(queue, c), ref, magnitude)).toBeLessThan(1e-5);
  });

  // The sweep's fastest tiling (64 x 128 a workgroup, k steps of 16).
  test('the wide tiling: native specialization constants', async () => {
    const { matmulWide, wideSize } = matmulWideModule;
    const queue = await Queue.create({ specConstants: 'native' });
    const c = await run(queue, (args) =>
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(wideSize, n);
        cgh.parallelFor(ndRange([n / 4, n / 8], [16, 16]), matmulWide, args);
      }),
    );
    expect(maxError(await read(queue, c), ref, magnitude)).toBeLessThan(1e-5);
  });

  test('the wide tiling: values as kernel arguments', async () => {
    const queue = await Queue.create();
    const c = await run(queue, (args) =>
      queue.parallelFor(ndRange([n / 4, n / 8], [16, 16]), matmulWideModule.matmulWideArgs, {
        ...args,
        n,
      }),
    );
    expect(maxError(await read(queue, c), ref, magnitude)).toBeLessThan(1e-5);
  });
});

describe('conv3x3', () => {
  const [w, h] = [256, 8];
  const image = random(w * h);
  const weights = Array.from(random(9)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ref = new Float64Array(w * h);
  const magnitude = new Float64Array(w * h);
  const clampTo = (v: number, hi: number) => Math.min(Math.max(v, 0), hi - 1);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let dy = 0; dy < 3; dy++)
        for (let dx = 0; dx < 3; dx++) {
          const t =
            weights[dy * 3 + dx]! * image[clampTo(y + dy - 1, h) * w + clampTo(x + dx - 1, w)]!;
          ref[y * w + x] = ref[y * w + x]! + t;
          magnitude[y * w + x] = magnitude[y * w + x]! + Math.abs(t);
        }
  const { coeffs, conv3x3, conv3x3Args, height, width } = convModule;
  const range = ndRange([h, w], [4, 64]);

  test.each(['native', 'emulated', 'arguments'] as const)('%s', async (mode) => {
    const queue = await Queue.create({
      specConstants: mode === 'emulated' ? 'emulated' : 'native',
    });
    const src = queue.buffer(image, { access: 'read' });
    const dst = queue.buffer(f32, w * h, { access: 'write' });
    queue.device.queue.writeBuffer(dst.gpuBuffer, 0, new Float32Array(w * h).fill(Number.NaN));
    if (mode === 'arguments') {
      queue.parallelFor(range, conv3x3Args, { src, dst, weights, width: w, height: h });
    } else {
      queue.submit((cgh) => {
        cgh.setSpecializationConstant(coeffs, weights);
        cgh.setSpecializationConstant(width, w);
        cgh.setSpecializationConstant(height, h);
        cgh.parallelFor(range, conv3x3, { src, dst });
      });
    }
    const out = (await dst.read()) as Float32Array;
    expect(maxError(out, ref, magnitude)).toBeLessThan(1e-5);
  });

  // Four pixels an item: the first and last of each row take the edge's neighbour from the
  // item's own vec4.
  test.each(['native', 'emulated', 'arguments'] as const)(
    'four pixels an item, %s',
    async (mode) => {
      const { conv3x3Vec4, conv3x3Vec4Args, vec4Coeffs, vec4Height, vec4Width } = convVec4Module;
      const queue = await Queue.create({
        specConstants: mode === 'emulated' ? 'emulated' : 'native',
      });
      const src = queue.buffer(vec4f, (w * h) / 4, { access: 'read' });
      const dst = queue.buffer(vec4f, (w * h) / 4, { access: 'write' });
      queue.device.queue.writeBuffer(src.gpuBuffer, 0, image);
      queue.device.queue.writeBuffer(dst.gpuBuffer, 0, new Float32Array(w * h).fill(Number.NaN));
      const quads = ndRange([h, w / 4], [4, 64]);
      if (mode === 'arguments') {
        queue.parallelFor(quads, conv3x3Vec4Args, { src, dst, weights, width: w, height: h });
      } else {
        queue.submit((cgh) => {
          cgh.setSpecializationConstant(vec4Coeffs, weights);
          cgh.setSpecializationConstant(vec4Width, w);
          cgh.setSpecializationConstant(vec4Height, h);
          cgh.parallelFor(quads, conv3x3Vec4, { src, dst });
        });
      }
      const out = Float32Array.from((await dst.read()).flat());
      expect(maxError(out, ref, magnitude)).toBeLessThan(1e-5);
    },
  );
});

// The tensor-core kernels need f16 subgroup matrices (tensor-cores.mjs checks their results on
// a GPU that has them; examples/tensor-cores does on any device with shader-f16); here, that each
// builds into both lowerings: the matrix built-ins, and plain WGSL for devices without them; that
// the example's register loops are unrolled (each register indexed by a constant: under Dawn's
// bounds checks a loop there ran 2.9x slower) and its workgroup memory sized by its constants;
// and that the regions kernel's loads read a region at a constant offset (its point).
test.each([
  ['../examples/tensor-cores/src/matmul.sycl.ts', 'matmulF16'],
  ['src/kernels/tensor-regions.sycl.ts', 'tensorMatmulRegions'],
])('%s builds into the subgroup-matrix built-ins and a plain lowering', (module, kernel) => {
  const source = readFileSync(new URL(`../${module}`, import.meta.url), 'utf8');
  const { program, diagnostics } = build([{ module, source }], { specConstants: 'native' });
  expect(diagnostics).toEqual([]);
  const image = program!.images[0]!;
  const wgsl = image.wgsl.native!;
  expect(wgsl).toContain('subgroupMatrixMultiplyAccumulate(a3, b3, c33)');
  expect(image.workgroupLowering?.wgsl.native).not.toContain('subgroupMatrix');
  expect(image.kernels[`${module}#${kernel}`]!.jointMatrices?.products).toHaveLength(1);
  if (kernel === 'matmulF16') {
    expect(wgsl).not.toMatch(/for \(var r\b/);
    expect(wgsl).toMatch(/var<workgroup> \w+: array<f16, wg_\w+_length>;/);
    expect(image.kernels[`${module}#${kernel}`]!.workgroupSize[0]).toMatchObject({
      kind: 'specConstant',
    });
  }
  if (kernel === 'tensorMatmulRegions') {
    // Each load: a region picked by the sub-group, an offset from literals and the unrolled k.
    const loads = wgsl.match(/subgroupMatrixLoad<[^>]+>, row_major>\([^;]*;/g)!;
    expect(loads).toHaveLength(16);
    for (const load of loads) expect(load).toMatch(/\(&wg_\w+\[w[rc]\], [\dku+*() ]+, \d+u\);$/);
  }
});

// The reductions the GPU suite times beside the sum: a minimum by SYCL's function object and by
// a device function, an argmin of a struct, a 16-bin histogram as a span reduction.
describe('reductions with combiners and spans', () => {
  const groups = 7;
  const n = 256 * groups * 3 + 77;
  let q: Queue;
  beforeAll(async () => {
    q = await Queue.create();
  });
  const range = ndRange([256 * groups], [256]);
  /** A read-only buffer of n `element`s (vec4f or vec4u) holding `data` (4n values). */
  const input = <E extends typeof vec4f | typeof vec4u>(
    element: E,
    data: Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>,
  ) => {
    const buffer = q.buffer(element, n, { access: 'read' });
    q.device.queue.writeBuffer(buffer.gpuBuffer, 0, data);
    return buffer;
  };

  test.each([
    ['minReduction', collectivesModule.minReduction],
    ['minCombiner', collectivesModule.minCombiner],
  ] as const)('%s: the smallest value', async (_name, kernel) => {
    const xs = random(4 * n);
    const low = q.buffer(Float32Array.of(Number.NaN));
    await q
      .parallelFor(range, kernel, {
        xs: input(vec4f, xs),
        n,
        low: { buffer: low, initializeToIdentity: true },
      })
      .wait();
    expect((await low.read())[0]).toBe(Math.min(...xs));
  });

  test('argminReduction: the first smallest value and its index', async () => {
    // Few distinct values: the smallest occurs many times, the first one wins.
    const xs = Float32Array.from(randomU32(4 * n, ++draws), (x) => x % 50);
    const best = q.buffer(collectivesModule.Best, [{ value: -1, index: 0 }]);
    await q
      .parallelFor(range, collectivesModule.argminReduction, {
        xs: input(vec4f, xs),
        n,
        best: { buffer: best, initializeToIdentity: true },
      })
      .wait();
    const low = Math.min(...xs);
    expect((await best.read())[0]).toEqual({ value: low, index: xs.indexOf(low) });
  });

  test('histogramSpan: 16 bins of the low 4 bits', async () => {
    const words = new Uint32Array(randomU32(4 * n, ++draws));
    const bins = q.buffer(new Uint32Array(16).fill(0xdeadbeef));
    await q
      .parallelFor(range, collectivesModule.histogramSpan, {
        xs: input(vec4u, words),
        n,
        bins: { buffer: bins, initializeToIdentity: true },
      })
      .wait();
    const want = new Array<number>(16).fill(0);
    for (const w of words) want[w & 15]!++;
    expect([...(await bins.read())]).toEqual(want);
  });
});
