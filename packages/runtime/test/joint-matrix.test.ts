/**
 * Joint matrices on the adapter: one build runs the subgroup-matrix built-ins where the device
 * offers them and every shape, and plain WGSL elsewhere (SwiftShader, which CI has, offers no
 * subgroup matrices: there the plain lowering runs). Products are checked exactly against the
 * CPU on small integers drawn fresh, into poisoned outputs whose padding must stay poisoned.
 */
import {
  accessor,
  type DeviceImage,
  errc,
  f16,
  f16Bits,
  f32,
  i32,
  kernel,
  SyclError,
  u32,
} from '@syclts/dsl';
import { beforeAll, describe, expect, test } from 'vitest';
import { rememberAdapter } from '../src/device/adapters.js';
import { collectiveLowering } from '../src/device/collectives.js';
import { ndRange, type Queue } from '../src/index.js';
import '../src/groups.js';
import * as jointMatmulModule from './fixtures/compiled/joint-matmul.sycl.js';
import { compileFixture, compileSources } from './support/compile.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

type Element = 'f32' | 'i32' | 'u32' | 'f16';
type Layout = 'rowMajor' | 'colMajor';

/** One product's kernel: per sub-group, D = (2 C) × ... see `expected`. */
interface Case {
  readonly name: string;
  readonly element: Element;
  readonly result: Element;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly layouts: { a: Layout; b: Layout; c: Layout; d: Layout };
}

const CASES: readonly Case[] = [
  {
    name: 'i32_8x8x8',
    element: 'i32',
    result: 'i32',
    m: 8,
    n: 8,
    k: 8,
    layouts: { a: 'rowMajor', b: 'rowMajor', c: 'rowMajor', d: 'rowMajor' },
  },
  {
    name: 'f32_16x8x16',
    element: 'f32',
    result: 'f32',
    m: 16,
    n: 8,
    k: 16,
    layouts: { a: 'rowMajor', b: 'colMajor', c: 'colMajor', d: 'rowMajor' },
  },
  {
    name: 'u32_4x12x8',
    element: 'u32',
    result: 'u32',
    m: 4,
    n: 12,
    k: 8,
    layouts: { a: 'colMajor', b: 'rowMajor', c: 'rowMajor', d: 'colMajor' },
  },
  {
    name: 'f32_16x16x16',
    element: 'f32',
    result: 'f32',
    m: 16,
    n: 16,
    k: 16,
    layouts: { a: 'colMajor', b: 'colMajor', c: 'rowMajor', d: 'colMajor' },
  },
];

/** Elements between a matrix's rows (or columns): stores must leave them alone. */
const PAD = 3;
const GROUP = 64;
const WORKGROUPS = 3;
/** Sub-groups of 32 in the plain lowering, and on NVIDIA; each multiplies its own matrices. */
const SUBGROUPS = (GROUP / 32) * WORKGROUPS;

const stride = (rows: number, columns: number, layout: Layout) =>
  (layout === 'rowMajor' ? columns : rows) + PAD;
const span = (rows: number, columns: number, layout: Layout) =>
  (layout === 'rowMajor' ? rows : columns) * stride(rows, columns, layout);

function kernelSource(c: Case): string {
  const { m, n, k, layouts: l } = c;
  const sa = span(m, k, l.a);
  const sb = span(k, n, l.b);
  const sc = span(m, n, l.c);
  const sd = span(m, n, l.d);
  return [
    `export const ${c.name} = kernel({ ndRange: 1, workgroupSize: [${GROUP}], args: { a: accessor(${c.element}, 'read'), b: accessor(${c.element}, 'read'), c: accessor(${c.result}, 'read'), d: accessor(${c.result}, 'write'), e: accessor(${c.result}, 'write') } }, (item, _kh, { a, b, c, d, e }) => {`,
    '  const sg = item.getSubGroup();',
    '  const s = item.getGroup().getGroupLinearId() * sg.getGroupRange() + sg.getGroupId();',
    `  const ma = jointMatrix(sg, 'a', ${c.element}, ${m}, ${k}, '${l.a}');`,
    `  const mb = jointMatrix(sg, 'b', ${c.element}, ${k}, ${n}, '${l.b}');`,
    `  const mc = jointMatrix(sg, 'accumulator', ${c.result}, ${m}, ${n});`,
    `  const mf = jointMatrix(sg, 'accumulator', ${c.result}, ${m}, ${n});`,
    `  jointMatrixLoad(sg, ma, a, s * ${sa}, ${stride(m, k, l.a)});`,
    `  jointMatrixLoad(sg, mb, b, s * ${sb}, ${stride(k, n, l.b)});`,
    `  jointMatrixLoad(sg, mc, c, s * ${sc}, ${stride(m, n, l.c)}, '${l.c}');`,
    "  jointMatrixApply(sg, mc, '*', 2);",
    '  jointMatrixMad(sg, mc, ma, mb, mc);',
    "  jointMatrixApply(sg, mc, '-', 1);",
    `  jointMatrixStore(sg, mc, d, s * ${sd}, ${stride(m, n, l.d)}, '${l.d}');`,
    '  jointMatrixFill(sg, mf, 3);',
    '  jointMatrixMad(sg, mf, ma, mb, mf);',
    "  jointMatrixApply(sg, mf, '+', 5);",
    `  jointMatrixStore(sg, mf, e, s * ${sd}, ${stride(m, n, l.d)}, '${l.d}');`,
    '});',
  ].join('\n');
}

const HEADER =
  "import { accessor, f16, f32, i32, jointMatrix, jointMatrixApply, jointMatrixFill, jointMatrixLoad, jointMatrixMad, jointMatrixStore, kernel, u32 } from '@syclts/dsl';";

const TYPES = { f32, i32, u32, f16 } as const;
const kernels = Object.fromEntries(
  CASES.map((c) => [
    c.name,
    kernel(
      {
        ndRange: 1,
        workgroupSize: [GROUP],
        args: {
          a: accessor(TYPES[c.element], 'read'),
          b: accessor(TYPES[c.element], 'read'),
          c: accessor(TYPES[c.result], 'read'),
          d: accessor(TYPES[c.result], 'write'),
          e: accessor(TYPES[c.result], 'write'),
        },
      },
      () => {},
    ),
  ]),
);

let images: Record<string, DeviceImage>;

beforeAll(() => {
  const program = compileSources(
    CASES.map((c) => ({
      module: `src/${c.name}.sycl.ts`,
      source: [HEADER, kernelSource(c)].join('\n'),
      exports: { [c.name]: kernels[c.name] },
    })),
  );
  images = Object.fromEntries(
    CASES.map((c) => [c.name, program.images.find((i) => i.id === `src/${c.name}.sycl.ts`)!]),
  );
});

/** Element (r, c) of a matrix stored at `base` in `layout`. */
const at = (base: number, r: number, c: number, rows: number, columns: number, l: Layout) =>
  base + (l === 'rowMajor' ? r * stride(rows, columns, l) + c : c * stride(rows, columns, l) + r);

type Values = Int32Array | Uint32Array | Float32Array;

function typed(element: Element, n: number): Values {
  return element === 'i32'
    ? new Int32Array(n)
    : element === 'u32'
      ? new Uint32Array(n)
      : new Float32Array(n);
}

/** Small integers (exact in every element type), from -6 to 6 (0 to 12 for u32). */
function smallIntegers(element: Element, n: number, seed: number): Values {
  const out = typed(element, n);
  const bits = randomU32(n, seed);
  for (let i = 0; i < n; i++) out[i] = (bits[i]! % 13) - (element === 'u32' ? 0 : 6);
  return out;
}

function poisoned(element: Element, n: number): Values {
  const out = typed(element, n);
  new Uint32Array(out.buffer).fill(POISON);
  return out;
}

/** In the result type: u32 wraps, i32 wraps, f32 is exact on these integers. */
function wrap(element: Element, x: number): number {
  return element === 'u32' ? x >>> 0 : element === 'i32' ? x | 0 : x;
}

async function runCase(q: Queue, c: Case): Promise<void> {
  const { m, n, k, layouts: l } = c;
  const [sa, sb, sc, sd] = [span(m, k, l.a), span(k, n, l.b), span(m, n, l.c), span(m, n, l.d)];
  const seed = randomU32(1, 0x3a7)[0]!;
  const a = smallIntegers(c.element, sa * SUBGROUPS, seed);
  const b = smallIntegers(c.element, sb * SUBGROUPS, seed + 1);
  const cIn = smallIntegers(c.result, sc * SUBGROUPS, seed + 2);
  const buffer = (v: Values) =>
    v instanceof Float32Array ? q.buffer(v) : v instanceof Int32Array ? q.buffer(v) : q.buffer(v);
  const bufs = {
    a: buffer(a),
    b: buffer(b),
    c: buffer(cIn),
    d: buffer(poisoned(c.result, sd * SUBGROUPS)),
    e: buffer(poisoned(c.result, sd * SUBGROUPS)),
  };
  await q.parallelFor(ndRange([GROUP * WORKGROUPS], [GROUP]), kernels[c.name]!, bufs).wait();
  const d = await bufs.d.read();
  const e = await bufs.e.read();
  const wantD = poisoned(c.result, sd * SUBGROUPS);
  const wantE = poisoned(c.result, sd * SUBGROUPS);
  for (let s = 0; s < SUBGROUPS; s++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let product = 0;
        for (let x = 0; x < k; x++) {
          product += a[at(s * sa, i, x, m, k, l.a)]! * b[at(s * sb, x, j, k, n, l.b)]!;
        }
        const cij = cIn[at(s * sc, i, j, m, n, l.c)]!;
        const out = at(s * sd, i, j, m, n, l.d);
        wantD[out] = wrap(c.result, 2 * cij + product - 1);
        wantE[out] = wrap(c.result, 3 + product + 5);
      }
    }
  }
  expect([...d], `${c.name}: d = (2c + a × b) - 1 (seed ${seed})`).toEqual([...wantD]);
  expect([...e], `${c.name}: e = fill(3) + a × b + 5 (seed ${seed})`).toEqual([...wantE]);
}

describe('joint matrices', () => {
  let q: Queue;
  beforeAll(async () => {
    q = await freshQueue();
  });

  test.each(CASES.map((c) => [c.name, c] as const))(
    '%s: load, apply, mad, fill and store, exact on small integers',
    async (_, c) => {
      await runCase(q, c);
    },
  );

  test.each([
    [64, 'jointMatmul'],
    [96, 'jointMatmul'],
    [96, 'jointMatmulRegions'],
  ] as const)(
    'a tiled matrix multiply in .sycl.ts (workgroup staging, two sub-groups), n = %i, %s',
    async (n, name) => {
      const kernel =
        name === 'jointMatmul'
          ? jointMatmulModule.jointMatmul
          : jointMatmulModule.jointMatmulRegions;
      compileFixture('joint-matmul', jointMatmulModule);
      const seed = randomU32(1, 0x5e)[0]!;
      const a = Float32Array.from(randomU32(n * n, seed), (x) => (x % 9) - 4);
      const b = Float32Array.from(randomU32(n * n, seed + 1), (x) => (x % 9) - 4);
      const c = q.buffer(new Float32Array(new Uint32Array(n * n).fill(POISON).buffer));
      await q
        .parallelFor(ndRange([n / 16, (n / 32) * 64], [1, 64]), kernel, {
          a: q.buffer(a),
          b: q.buffer(b),
          c,
          n,
        })
        .wait();
      const want = new Float32Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          let x = 0;
          for (let k = 0; k < n; k++) x += a[i * n + k]! * b[k * n + j]!;
          want[i * n + j] = x;
        }
      }
      expect([...(await c.read())], `seed ${seed}`).toEqual([...want]);
    },
  );

  test('an accessor smaller than one joint matrix is refused at the launch, by name', async () => {
    // WebGPU's subgroup-matrix built-ins need a binding of one whole matrix: the layout asks for it.
    const image = images.f32_16x16x16!;
    const info = image.kernels['src/f32_16x16x16.sycl.ts#f32_16x16x16']!;
    const bytes = Object.fromEntries(
      info.bindings.flatMap((b) => (b.kind === 'accessor' ? [[b.arg, b.matrixBytes]] : [])),
    );
    expect(bytes).toEqual({ a: 1024, b: 1024, c: 1024, d: 1024, e: 1024 });
    // Per accessor, its own matrices' size: u32 a 4 x 8, b 8 x 12, accumulators 4 x 12.
    const u32Info = images.u32_4x12x8!.kernels['src/u32_4x12x8.sycl.ts#u32_4x12x8']!;
    expect(
      u32Info.bindings.flatMap((b) => (b.kind === 'accessor' ? [[b.arg, b.matrixBytes]] : [])),
    ).toEqual([
      ['a', 128],
      ['b', 384],
      ['c', 192],
      ['d', 192],
      ['e', 192],
    ]);
    const whole = () => q.buffer(new Float32Array(span(16, 16, 'rowMajor') * SUBGROUPS));
    const small = q.buffer(new Float32Array(100));
    const args = { a: whole(), b: whole(), c: whole(), d: small, e: whole() };
    const range = ndRange([GROUP * WORKGROUPS], [GROUP]);
    const launches = () => q.stats.nativeLaunches + q.stats.emulatedLaunches;
    const before = [launches(), q.stats.pipelinesCreated];
    let thrown: unknown;
    try {
      q.parallelFor(range, kernels.f32_16x16x16!, args);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SyclError);
    expect((thrown as SyclError).errc).toBe(errc.kernelArgument);
    expect((thrown as SyclError).message).toBe(
      "queue.parallelFor: kernel src/f32_16x16x16.sycl.ts#f32_16x16x16, argument 'd': the buffer holds 400 bytes, less than the 1024 of the largest joint matrix the kernel loads or stores through it",
    );
    // Nothing was launched or made: the queue runs the same kernel with a whole matrix there.
    expect([launches(), q.stats.pipelinesCreated]).toEqual(before);
    await q.parallelFor(range, kernels.f32_16x16x16!, { ...args, d: whole() }).wait();
  });

  test('the plain lowering runs where the device offers no subgroup matrices', () => {
    const lowering = collectiveLowering(q.device, images.i32_8x8x8!);
    if (!q.device.features.has('chromium-experimental-subgroup-matrix')) {
      expect(lowering).toBe('workgroup');
    }
  });
});

/** A device as the choice reads it: its features and its adapter's subgroup-matrix configurations. */
function stubDevice(features: readonly string[], configs: readonly object[] = []): GPUDevice {
  return {
    features: new Set(features),
    adapterInfo: { subgroupMinSize: 32, subgroupMaxSize: 32, subgroupMatrixConfigs: configs },
  } as unknown as GPUDevice;
}

const config = (
  componentType: string,
  resultComponentType: string,
  M: number,
  N: number,
  K: number,
) => ({
  componentType,
  resultComponentType,
  M,
  N,
  K,
});

describe('the lowering chosen by device features', () => {
  const MATRIX = 'chromium-experimental-subgroup-matrix';

  test('no subgroups, or no subgroup matrices: the plain lowering', () => {
    expect(collectiveLowering(stubDevice([]), images.f32_16x8x16!)).toBe('workgroup');
    expect(collectiveLowering(stubDevice(['subgroups']), images.f32_16x8x16!)).toBe('workgroup');
    // The matrix feature without sub-groups: the built-ins need both.
    expect(collectiveLowering(stubDevice([MATRIX]), images.f32_16x8x16!)).toBe('workgroup');
  });

  test('the feature and every shape offered: the subgroup-matrix built-ins', () => {
    const device = stubDevice(['subgroups', MATRIX], [config('f32', 'f32', 16, 8, 16)]);
    expect(collectiveLowering(device, images.f32_16x8x16!)).toBe('subgroups');
  });

  test("a work-group that is no whole number of the device's sub-groups: an error", () => {
    const device = {
      features: new Set(['subgroups', MATRIX]),
      adapterInfo: {
        subgroupMinSize: 128,
        subgroupMaxSize: 128,
        subgroupMatrixConfigs: [config('f32', 'f32', 16, 8, 16)],
      },
    } as unknown as GPUDevice;
    expect(() => collectiveLowering(device, images.f32_16x8x16!)).toThrow(
      "kernel src/f32_16x8x16.sycl.ts#f32_16x8x16 uses joint matrices in work-groups whose last dimension is 64: the device's subgroup matrices need a multiple of its largest sub-group, 128",
    );
  });

  test('the feature without the shape: an error naming the kernel, the shape and the offers', () => {
    const offers = [config('f16', 'f32', 16, 16, 16), config('f16', 'f16', 16, 8, 8)];
    const device = stubDevice(['subgroups', MATRIX, 'shader-f16'], offers);
    let thrown: unknown;
    try {
      collectiveLowering(device, images.f32_16x8x16!);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SyclError);
    const error = thrown as SyclError;
    expect(error.errc).toBe(errc.kernelNotSupported);
    expect(error.message).toContain('kernel src/f32_16x8x16.sycl.ts#f32_16x8x16');
    expect(error.message).toContain('f32 -> f32 joint matrices of M x N x K = 16x8x16');
    expect(error.message).toContain('f16 -> f32 16x16x16, f16 -> f16 16x8x8');
  });

  test("Dawn in Node: the adapter's configurations, where the device's list is empty", () => {
    // As Dawn's Node binding gives them: getters on a prototype, and an empty list on the device.
    class NativeConfig {
      get componentType() {
        return 'f32';
      }
      get resultComponentType() {
        return 'f32';
      }
      get M() {
        return 16;
      }
      get N() {
        return 8;
      }
      get K() {
        return 16;
      }
    }
    const device = stubDevice(['subgroups', MATRIX]);
    expect(() => collectiveLowering(device, images.f32_16x8x16!)).toThrow(
      /none listed: Dawn in Node lists them on the adapter/,
    );
    const adapter = {
      info: { subgroupMatrixConfigs: [new NativeConfig()] },
    } as unknown as GPUAdapter;
    rememberAdapter(device, adapter);
    expect(collectiveLowering(device, images.f32_16x8x16!)).toBe('subgroups');
    // Only that device: another with an empty list still has none.
    expect(() =>
      collectiveLowering(stubDevice(['subgroups', MATRIX]), images.f32_16x8x16!),
    ).toThrow(/none listed/);
  });

  test('an i32 product the device offers only in another shape: the same error', () => {
    const device = stubDevice(['subgroups', MATRIX], [config('i32', 'i32', 16, 16, 16)]);
    expect(() => collectiveLowering(device, images.i32_8x8x8!)).toThrow(
      /kernel src\/i32_8x8x8\.sycl\.ts#i32_8x8x8 multiplies i32 -> i32 joint matrices of M x N x K = 8x8x8/,
    );
  });
});

describe('f16 joint matrices', () => {
  const source = [
    HEADER,
    "export const half = kernel({ ndRange: 1, workgroupSize: [32], args: { a: accessor(f16, 'read'), d: accessor(f32, 'write') } }, (item, _kh, { a, d }) => {",
    '  const sg = item.getSubGroup();',
    "  const ma = jointMatrix(sg, 'a', f16, 8, 8);",
    "  const mb = jointMatrix(sg, 'b', f16, 8, 8);",
    "  const mc = jointMatrix(sg, 'accumulator', f32, 8, 8);",
    '  jointMatrixLoad(sg, ma, a, 0, 8);',
    '  jointMatrixLoad(sg, mb, a, 64, 8);',
    '  jointMatrixMad(sg, mc, ma, mb, mc);',
    "  jointMatrixStore(sg, mc, d, 0, 8, 'rowMajor');",
    '});',
  ].join('\n');
  const half = kernel(
    {
      ndRange: 1,
      workgroupSize: [32],
      args: { a: accessor(f16, 'read'), d: accessor(f32, 'write') },
    },
    () => {},
  );
  let image: DeviceImage;
  beforeAll(() => {
    image = compileSources([{ module: 'src/half.sycl.ts', source, exports: { half } }]).images[0]!;
  });

  test('a device without shader-f16: an error naming the kernel', () => {
    expect(() => collectiveLowering(stubDevice(['subgroups']), image)).toThrow(
      "kernel src/half.sycl.ts#half uses an f16 joint matrix (a, 8 × 8) and the device has no 'shader-f16'",
    );
  });

  test('f16 products accumulate exactly in f32 where the adapter offers shader-f16', async ({
    skip,
  }) => {
    const q = await freshQueue({
      dawnToggles: { enable: ['allow_unsafe_apis', 'vulkan_enable_f16_on_nvidia'] },
    });
    if (!q.device.features.has('shader-f16')) {
      // SwiftShader: the launch is refused by name instead.
      const out = q.buffer(new Float32Array(64));
      const a = q.buffer(f16, new Uint16Array(128));
      await expect(
        (async () => q.parallelFor(ndRange([32], [32]), half, { a, d: out }).wait())(),
      ).rejects.toThrow(/uses an f16 joint matrix/);
      skip('the adapter does not offer shader-f16: f16 matrices run where it does');
    }
    // Multiples of 1/8 up to ±4: each product and every sum of them is exact in f32 (in any order),
    // while the inputs need f16's fraction bits.
    const bits = randomU32(128, 0x16);
    const values = [...bits].map((b) => ((b % 65) - 32) / 8);
    const a = q.buffer(f16, Uint16Array.from(values, f16Bits));
    const d = q.buffer(new Float32Array(new Uint32Array(64).fill(POISON).buffer));
    await q.parallelFor(ndRange([32], [32]), half, { a, d }).wait();
    const got = new Float32Array(await d.read());
    const want: number[] = [];
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) {
        let x = 0;
        for (let k = 0; k < 8; k++) x += values[i * 8 + k]! * values[64 + k * 8 + j]!;
        want.push(x);
      }
    }
    expect([...got]).toEqual(want);
  });
});
