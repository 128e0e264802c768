/**
 * i32 min, max, clamp and abs in the shapes a driver has fused wrongly (a negated operand of a
 * nested max, the abs inside a max), on fresh inputs with i32's ends mixed in: the kernel
 * prints them through the unsigned-comparison helpers and computes WGSL's values.
 */
import { expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';

const M = 'src/minmax.sycl.ts';
const source = `
import { accessor, clamp, i32, kernel, vec3i } from '@syclts/dsl';

export const shapes = kernel(
  { range: 1, args: { xs: accessor(i32, 'read'), out: accessor(i32, 'write') } },
  (item, kh, { xs, out }) => {
    const i = item.getId(0);
    const x = xs[i * 3]!;
    const y = xs[i * 3 + 1]!;
    const z = xs[i * 3 + 2]!;
    out[i * 8] = Math.max(Math.abs(x), y);
    out[i * 8 + 1] = ~Math.max(Math.abs(x), y);
    out[i * 8 + 2] = Math.max(Math.max(x, -y), z);
    out[i * 8 + 3] = Math.min(Math.min(x, y), -z);
    out[i * 8 + 4] = Math.min(x, Math.max(y, -z));
    out[i * 8 + 5] = clamp(-x, Math.min(y, z), Math.max(y, z));
    const v = Math.max(Math.abs(vec3i(x, y, z)), vec3i(-z, -x, -y));
    out[i * 8 + 6] = v.x ^ v.y ^ v.z;
    out[i * 8 + 7] = Math.abs(x);
  },
);
`;

const I = (x: number) => x | 0;
const abs = (x: number) => I(Math.abs(x));
function expected(x: number, y: number, z: number): number[] {
  const v = [Math.max(abs(x), I(-z)), Math.max(abs(y), I(-x)), Math.max(abs(z), I(-y))];
  return [
    Math.max(abs(x), y),
    ~Math.max(abs(x), y),
    Math.max(x, I(-y), z),
    Math.min(x, y, I(-z)),
    Math.min(x, Math.max(y, I(-z))),
    Math.min(Math.max(I(-x), Math.min(y, z)), Math.max(y, z)),
    v[0]! ^ v[1]! ^ v[2]!,
    abs(x),
  ];
}

test.each(['native', 'emulated'] as const)(
  'i32 min, max, clamp and abs compute WGSL values through their helpers (%s)',
  async (mode) => {
    const { program, diagnostics } = build([{ module: M, source }], {
      specConstants: 'both',
      validateIr: true,
    });
    expect(diagnostics).toEqual([]);
    const image = program!.images[0]!;
    const wgsl = image.wgsl[mode]!;
    const entry = wgsl.slice(wgsl.indexOf('@compute'));
    expect(entry).not.toMatch(/\b(min|max|clamp|abs)\(/);
    expect(wgsl).toMatch(/fn \w*i32_max\w*\(x: i32, y: i32\) -> i32/);
    const items = 4096;
    const edges = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), -(2 ** 31) + 1];
    const raw = randomU32(items * 3, 0x5e1);
    // Mostly small magnitudes (where the defect shows most), some i32 ends, some anything.
    const xs = Int32Array.from(raw, (r, k) =>
      r % 8 === 0
        ? edges[(r >>> 3) % edges.length]!
        : r % 8 === 1
          ? r | 0
          : ((r >>> 8) % 201) - 100 + (k % 2),
    );
    const { accessors } = await runKernel(image, `${M}#shapes`, {
      mode,
      range: [items],
      accessors: { xs, out: new Int32Array(items * 8).fill(0x5eadbeef) },
    });
    const got = new Int32Array(accessors.out!);
    const want = Array.from({ length: items }, (_, i) =>
      expected(xs[i * 3]!, xs[i * 3 + 1]!, xs[i * 3 + 2]!),
    ).flat();
    expect(Array.from(got)).toEqual(want);
  },
);
