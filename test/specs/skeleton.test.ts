import { join } from 'node:path';
import type { Program } from '@syclts/dsl';
import { beforeAll, expect, test } from 'vitest';
import { build } from '../helpers/bundlers.js';
import { stageApp } from '../helpers/paths.js';
import { runBundle } from '../helpers/run-node.js';

let dist: string;

beforeAll(async () => {
  const root = stageApp('skeleton', 'skeleton');
  dist = join(root, 'dist');
  await build('rollup', {
    root,
    entries: { main: 'src/main.ts', program: 'src/program.ts' },
    outDir: dist,
  });
});

interface RunOutput {
  readonly adapter: string;
  readonly out: number[];
}

test('the bundle runs the kernel with the default value of the specialization constant', async () => {
  const { adapter, out } = await runBundle<RunOutput>(join(dist, 'main.js'), ['100']);
  console.log(`[syclts] skeleton bundle ran on adapter: ${adapter}`);
  expect(out).toEqual(Array.from({ length: 100 }, (_, i) => 7 * i));
});

test('the bundle runs the kernel with a value set at run time', async () => {
  const { out } = await runBundle<RunOutput>(join(dist, 'main.js'), ['130', '3']);
  expect(out).toEqual(Array.from({ length: 130 }, (_, i) => 3 * i));
});

test('the shipped WGSL declares the constant as an override with ID 0 and its default', async () => {
  const { program, ids } = await runBundle<{ program: Program; ids: string[] }>(
    join(dist, 'program.js'),
  );
  expect(ids).toEqual(['src/scale.sycl.ts#factor', 'src/scale.sycl.ts#scale']);
  const wgsl = program.images.map((image) => image.wgsl.native ?? '').join('\n');
  expect(wgsl).toMatch(/@id\(0\)\s+override\s+\w+\s*:\s*u32\s*=\s*7u?\s*;/);
  const image = program.images.find((i) => 'src/scale.sycl.ts#scale' in i.kernels);
  expect(image?.specConstants['src/scale.sycl.ts#factor']?.leaves.map((l) => l.id)).toEqual([0]);
});
