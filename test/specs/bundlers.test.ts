import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { describe, expect, test } from 'vitest';
import { build, buildError, bundlers, placeIn } from '../helpers/bundlers.js';
import { stageApp } from '../helpers/paths.js';
import { runBundle } from '../helpers/run-node.js';

interface AppOutput {
  readonly adapter: string;
  readonly label: string;
  readonly src: number[];
  readonly combineDefault: number[];
  readonly combineSet: number[];
  readonly gridDefault: number[];
  readonly gridSet: number[];
  readonly images: { id: string; variants: string[] }[];
  readonly ids: Record<string, string>;
}

const mix = (a: number, b: number) => a * 2 + b;
const twice = (x: number) => x * 2;

function expectAppResults(output: AppOutput): void {
  const { src } = output;
  expect(output.combineDefault).toEqual(src.map((s) => mix(s * 3, 5) + twice(100)));
  expect(output.combineSet).toEqual(src.map((s) => mix(s * 4, 6) + twice(50)));
  const grid = Array.from({ length: 64 }, (_, k) => twice(k));
  expect(output.gridDefault).toEqual(grid.map((g) => g + 1000));
  expect(output.gridSet).toEqual(grid.map((g) => g + 7));
}

/** The host string in params.sycl.ts, found in the bundle, maps back to where it was written. */
function expectMarkerMapsBack(root: string, outDir: string): void {
  const code = readFileSync(join(outDir, 'main.js'), 'utf8');
  const map = new TraceMap(
    readFileSync(join(outDir, 'main.js.map'), 'utf8'),
    join(outDir, 'main.js'),
  );
  const at = code.indexOf('params-module-marker') - 1;
  const before = code.slice(0, at).split('\n');
  const original = originalPositionFor(map, {
    line: before.length,
    column: before.at(-1)!.length,
  });
  const source = readFileSync(join(root, 'src/params.sycl.ts'), 'utf8').split('\n');
  const line = source.findIndex((text) => text.includes("'params-module-marker'"));
  expect(original.source).toMatch(/src\/params\.sycl\.ts$/);
  expect(original).toMatchObject({
    line: line + 1,
    column: source[line]!.indexOf("'params-module-marker'"),
  });
}

/** The same app, three device modules and a device library package, with each bundler. */
describe.each(bundlers)('%s', (bundler) => {
  const root = stageApp('app', `app-${bundler}`, { 'syclts-fixture-lib': 'device-lib' });
  const outDir = join(root, 'dist');
  let output: AppOutput;

  test('builds the app and its bundle runs on the adapter with the expected results', async () => {
    await build(bundler, { root, entries: { main: 'src/main.ts' }, outDir });
    output = await runBundle<AppOutput>(join(outDir, 'main.js'));
    console.log(`[syclts] ${bundler} bundle ran on adapter: ${output.adapter}`);
    expectAppResults(output);
    // Default options: one image per module with kernels, native overrides only.
    expect(output.images).toEqual([
      { id: 'src/grid.sycl.ts', variants: ['native'] },
      { id: 'src/kernels.sycl.ts', variants: ['native'] },
    ]);
  });

  test('symbolic IDs are root-relative, with local names that clash kept apart', () => {
    expect(output.ids).toEqual({
      paramsFactor: 'src/params.sycl.ts#factor',
      kernelsFactor: 'src/kernels.sycl.ts#factor',
      libOffset: 'node_modules/syclts-fixture-lib/src/index.sycl.ts#offset',
      gridOffset: 'src/grid.sycl.ts#offset',
      combine: 'src/kernels.sycl.ts#combine',
      fillGrid: 'src/grid.sycl.ts#fillGrid',
    });
  });

  test('positions in the bundle map back to the original .sycl.ts source', () => {
    expect(output.label).toBe('params-module-marker');
    expectMarkerMapsBack(root, outDir);
  });

  test('the bundle is text: no NUL byte (a virtual module ID) leaks into it', () => {
    const bytes = readFileSync(join(outDir, 'main.js'));
    expect(bytes.length).toBeGreaterThan(1000);
    expect(bytes.indexOf(0)).toBe(-1);
  });

  test('an invalid .sycl.ts module fails the build with its diagnostic, its place printed once', async () => {
    const error = await buildError(bundler, stageApp('invalid', `invalid-${bundler}`));
    expect(error?.match(placeIn('src/broken.sycl.ts', 7, 14))).toHaveLength(1);
    expect(error).toMatch(/error: `'not a number'` is not a device value .* \[SYCL1010\]/);
    // The code frame, once, with the caret under the string (column 14).
    expect(error?.match(/> +7 \| {5}out\[i\] = 'not a number';$/gm)).toHaveLength(1);
    expect(error).toMatch(/ {4} \| {14}\^{14}$/m);
  });

  test('a raw WGSL body that escapes its function fails the build where it is written', async () => {
    const error = await buildError(bundler, stageApp('escaping-wgsl', `escaping-wgsl-${bundler}`));
    expect(error?.match(placeIn('src/escape.sycl.ts', 7, 23))).toHaveLength(1);
    expect(error).toMatch(
      /error: `}` closes the function early: a raw WGSL body holds the statements of one function \[SYCL1019\]/,
    );
  });

  test('a link error fails the build with its diagnostic, leaving no unlinked output', async () => {
    const root = stageApp('link-error', `link-error-${bundler}`);
    const error = await buildError(bundler, root);
    expect(error).toMatch(/src\/state\.sycl\.ts:4:\d+: error: .*\[SYCL2001\]/);
    const main = join(root, 'dist/main.js');
    expect(existsSync(main) ? readFileSync(main, 'utf8') : '').not.toContain(
      '__syclts_linked_program__',
    );
  });
});

/** Rollup has no minifier of its own; the others minify, and the plugin's output must survive it. */
describe.each(['rolldown', 'vite', 'esbuild', 'webpack', 'rspack'] as const)(
  '%s, minified',
  (bundler) => {
    test('the bundle runs and its positions map back to the original source', async () => {
      const root = stageApp('app', `app-min-${bundler}`, { 'syclts-fixture-lib': 'device-lib' });
      const outDir = join(root, 'dist');
      await build(bundler, { root, entries: { main: 'src/main.ts' }, outDir, minify: true });
      expectAppResults(await runBundle<AppOutput>(join(outDir, 'main.js')));
      expectMarkerMapsBack(root, outDir);
    });
  },
);

test('the split and specConstants options reach the link step', async () => {
  const root = stageApp('app', 'app-options', { 'syclts-fixture-lib': 'device-lib' });
  const outDir = join(root, 'dist');
  const options = { split: 'whole', specConstants: 'both' } as const;
  await build('rollup', { root, entries: { main: 'src/main.ts' }, outDir, options });
  const output = await runBundle<AppOutput>(join(outDir, 'main.js'));
  expectAppResults(output);
  expect(output.images).toEqual([{ id: 'program', variants: ['emulated', 'native'] }]);
});
