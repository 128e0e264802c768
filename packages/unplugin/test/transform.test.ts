import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { ModuleLoader } from '@syclts/compiler';
import { afterAll, expect, test } from 'vitest';
import { bundlerMessage } from '../src/bundler-message.js';
import { transformDeviceModule } from '../src/transform.js';

const root = mkdtempSync(join(import.meta.dirname, '.tmp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const id = join(root, 'src/scale.sycl.ts');
const source = `import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';
import { offset } from './offset.sycl.ts';

export const factor = specializationId(u32, 7);

export const scale = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
  const i = item.getId(0);
  out[i] = kh.getSpecializationConstant(factor) * i + kh.getSpecializationConstant(offset);
});
`;

mkdirSync(join(root, 'src'));
writeFileSync(
  join(root, 'src/offset.sycl.ts'),
  "import { specializationId, u32 } from '@syclts/dsl';\nexport const offset = specializationId(u32, 1);\n",
);

const context = {
  root,
  resolve: async (specifier: string, importer: string) =>
    specifier.startsWith('.') ? join(importer, '..', specifier) : null,
  load: async (resolved: string) => readFileSync(resolved, 'utf8'),
  isDeviceModule: (resolved: string) => resolved.endsWith('.sycl.ts'),
  loader: new ModuleLoader(),
};

test('the module keeps its code and gains the footer, with the root-relative symbolic IDs', async () => {
  const outcome = await transformDeviceModule(source, id, context);
  if (!outcome.ok) throw new Error(outcome.errors.map((e) => e.message).join('\n'));
  expect(outcome.path).toBe('src/scale.sycl.ts');
  expect(outcome.code.startsWith(source)).toBe(true);
  expect(outcome.code.slice(source.length)).toContain(
    '[factor, "src/scale.sycl.ts#factor"], [scale, "src/scale.sycl.ts#scale"]',
  );
});

test("imports resolve through the bundler's resolver to root-relative device modules", async () => {
  const outcome = await transformDeviceModule(source, id, context);
  if (!outcome.ok) throw new Error('compile failed');
  expect(Object.fromEntries(outcome.module.imports)).toEqual({
    '@syclts/dsl': null,
    './offset.sycl.ts': 'src/offset.sycl.ts',
  });
});

test('positions in the transformed module map back to the same positions in the original', async () => {
  const outcome = await transformDeviceModule(source, id, context);
  if (!outcome.ok) throw new Error('compile failed');
  const map = new TraceMap(outcome.map.toString());
  const lines = source.split('\n');
  for (const token of ['specializationId(u32, 7)', 'getSpecializationConstant(factor)', 'out[i]']) {
    const line = lines.findIndex((text) => text.includes(token));
    const column = lines[line]!.indexOf(token);
    const original = originalPositionFor(map, { line: line + 1, column });
    expect(original).toMatchObject({ source: id, line: line + 1, column });
  }
});

test('a compile error is reported with file, line and column and a code frame', async () => {
  const broken = source.replace('const i = item.getId(0);', 'const i = item.getId(0) + "text";');
  const outcome = await transformDeviceModule(broken, id, context);
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  const [error] = outcome.errors;
  const column = broken.split('\n')[6]!.indexOf('"text"') + 1;
  expect(error?.message).toMatch(new RegExp(`^src/scale\\.sycl\\.ts:7:${column}: error: `));
  expect(error?.message).toMatch(/^> +7 \| +const i = item.getId\(0\) \+ "text";$/m);
  expect(error?.located).toMatchObject({ file: id, line: 7, column });
  expect(error?.located?.headline).toMatch(/^error: .* \[SYCL\d+\]$/m);
  expect(error?.located?.frame).toMatch(/^> +7 \| +const i = item.getId\(0\) \+ "text";$/m);
  // Rollup, Rolldown and Vite print location and frame from the error: the text has neither.
  const rollupLike = bundlerMessage(outcome.errors, 'vite');
  expect(rollupLike).toMatchObject({ id, loc: { file: id, line: 7, column: column - 1 } });
  expect(rollupLike.frame).toBe(error?.located?.frame);
  expect(rollupLike.message).not.toMatch(/scale\.sycl\.ts|> +7 \|/);
  // esbuild, webpack, rspack: one text, location first, no loc (esbuild would print an empty line).
  for (const framework of ['esbuild', 'webpack', 'rspack'] as const) {
    expect(bundlerMessage(outcome.errors, framework)).toEqual({ id, message: error?.message });
  }
});
