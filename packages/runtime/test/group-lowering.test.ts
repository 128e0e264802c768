/**
 * One build of a kernel with group functions runs on every device: with WGSL's sub-group
 * built-ins where the device has the `subgroups` feature (Queue.create asks for it), in workgroup
 * memory where it does not (a device of the caller's created without it). A kernel that requires
 * a sub-group size gets it: from the device where it offers the size, else in workgroup memory.
 */
import { accessor, kernel, u32 } from '@syclts/dsl';
import { beforeAll, describe, expect, test } from 'vitest';
import { ndRange, Queue, requestAdapter } from '../src/index.js';
// What the footer of a module using group functions imports.
import '../src/groups.js';
import { compileSources } from './support/compile.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

/** The kernel `name`, its sub-group size required when `size` is given. */
const sumsKernel = (name: string, size?: number) => [
  `export const ${name} = kernel({ ndRange: 1, workgroupSize: [40], ${size ? `subGroupSize: ${size}, ` : ''}args: { xs: accessor(u32, 'read'), out: accessor(u32, 'write') } }, (item, _kh, { xs, out }) => {`,
  '  const g = item.getGroup();',
  '  const sg = item.getSubGroup();',
  '  const i = item.getGlobalId(0);',
  '  const x = xs[i]!;',
  '  out[i * 4] = reduceOverGroup(g, x, plus);',
  '  out[i * 4 + 1] = exclusiveScanOverGroup(g, x, plus);',
  '  out[i * 4 + 2] = shiftGroupLeft(sg, x, 1);',
  '  out[i * 4 + 3] = sg.getMaxLocalRange();',
  '});',
];
const header =
  "import { accessor, exclusiveScanOverGroup, kernel, plus, reduceOverGroup, shiftGroupLeft, u32 } from '@syclts/dsl';";
const spec = {
  ndRange: 1,
  workgroupSize: [40],
  args: { xs: accessor(u32, 'read'), out: accessor(u32, 'write') },
} as const;
const sums = kernel(spec, () => {});
const sums4 = kernel({ ...spec, subGroupSize: 4 }, () => {});
const sums8 = kernel({ ...spec, subGroupSize: 8 }, () => {});

beforeAll(() => {
  // One module each: the lowering is chosen per device image.
  compileSources([
    {
      module: 'src/sums.sycl.ts',
      source: [header, ...sumsKernel('sums')].join('\n'),
      exports: { sums },
    },
    {
      module: 'src/sums4.sycl.ts',
      source: [header, ...sumsKernel('sums4', 4)].join('\n'),
      exports: { sums4 },
    },
    {
      module: 'src/sums8.sycl.ts',
      source: [header, ...sumsKernel('sums8', 8)].join('\n'),
      exports: { sums8 },
    },
  ]);
});

const GROUP = 40;
const ITEMS = GROUP * 5;

async function run(q: Queue, k = sums): Promise<{ got: Uint32Array; xs: Uint32Array }> {
  const xs = randomU32(ITEMS, 0x9a1).map((x) => x >>> 8);
  const input = q.buffer(xs);
  const out = q.buffer(new Uint32Array(ITEMS * 4).fill(POISON));
  await q.parallelFor(ndRange([ITEMS], [GROUP]), k, { xs: input, out }).wait();
  return { got: new Uint32Array(await out.read()), xs };
}

/** SYCL's values, sub-groups of `size` items in local linear order. */
function check(got: Uint32Array, xs: Uint32Array, size: number): void {
  const want: number[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const base = i - (i % GROUP);
    const group = [...xs.subarray(base, base + GROUP)];
    const local = i - base;
    const sgBase = local - (local % size);
    const sgEnd = Math.min(sgBase + size, GROUP);
    want.push(
      group.reduce((a, b) => (a + b) >>> 0, 0),
      group.slice(0, local).reduce((a, b) => (a + b) >>> 0, 0),
      local + 1 < sgEnd ? xs[i + 1]! : xs[i]!,
      size,
    );
  }
  expect([...got]).toEqual(want);
}

describe('group functions run in the lowering the device allows', () => {
  test('with sub-groups on a device that has them', async () => {
    const q = await freshQueue();
    const { got, xs } = await run(q);
    expect(q.device.features.has('subgroups')).toBe(true);
    // The device's own sub-group size (4 on SwiftShader, 32 on NVIDIA), not the fallback's 32.
    const size = got[3]!;
    expect(size).toBeGreaterThanOrEqual(4);
    check(got, xs, size);
  });

  test("in workgroup memory on a caller's device created without sub-groups", async () => {
    const { adapter } = await requestAdapter();
    const device = await adapter.requestDevice();
    try {
      const q = await Queue.create({ device });
      const { got, xs } = await run(q);
      expect(got[3]).toBe(32);
      check(got, xs, 32);
    } finally {
      device.destroy();
    }
  });

  test('a required sub-group size, from the device where it offers it, else in workgroup memory', async () => {
    const q = await freshQueue();
    for (const [k, size] of [
      [sums4, 4],
      [sums8, 8],
    ] as const) {
      const { got, xs } = await run(q, k);
      // The size asked for either way: 4 is SwiftShader's own, 8 it cannot give.
      expect(got[3]).toBe(size);
      check(got, xs, size);
    }
  });
});
