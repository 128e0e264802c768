/**
 * The Vite dev server beside another program, and over device modules the page stops importing:
 * an update relinks the dev server's own program only, and the program links what the page
 * imports, not every device module ever compiled.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { build } from '../helpers/bundlers.js';
import { stageApp } from '../helpers/paths.js';
import { startDevServer } from '../helpers/vite-browser.js';

let browser: Browser;
const servers: ViteDevServer[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.close();
});

declare global {
  interface Window {
    sycltsRun?: () => Promise<unknown>;
    sycltsUpdated?: string[];
    sycltsErrors?: string[];
  }
}

/** Each kernel's results, or its error. */
interface RunResult {
  readonly own: number[] | string;
  readonly library: number[] | string;
}

const N = 8;
const values = (f: (i: number) => number) => Array.from({ length: N }, (_, i) => f(i));
/** The library's kernel, from its own program: i * i + 1. */
const LIBRARY = values((i) => i * i + 1);

/**
 * The hmr-programs app, with a library built with syclts (its program in its own bundle)
 * installed as a package, served by the dev server and opened in a page.
 */
async function open(name: string, port: number) {
  const root = stageApp('hmr-programs', name, { 'syclts-fixture-prebuilt': 'prebuilt-lib' });
  const library = join(root, 'node_modules/syclts-fixture-prebuilt');
  await build('rollup', {
    root: library,
    entries: { index: 'src/index.sycl.ts' },
    outDir: join(library, 'dist'),
  });
  const server = await startDevServer(root, port);
  servers.push(server);
  const page = await browser.newPage();
  await page.goto(server.resolvedUrls!.local[0]!);
  await page.waitForFunction(() => window.sycltsRun !== undefined);
  return { root, page, server };
}

const run = async (page: Page) => (await page.evaluate(() => window.sycltsRun!())) as RunResult;

/** Writes files, then waits for the update of `path` or for an error, and returns the errors. */
async function change(
  page: Page,
  root: string,
  files: Readonly<Record<string, string>>,
  path: string,
) {
  const before = await page.evaluate(() => window.sycltsUpdated?.length ?? 0);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
  await page.waitForFunction(
    ([before, path]) =>
      (window.sycltsUpdated ?? []).slice(before).includes(path) ||
      (window.sycltsErrors ?? []).length > 0,
    [before, `/${path}`] as const,
  );
  return page.evaluate(() => window.sycltsErrors ?? []);
}

function edited(root: string, path: string, from: string, to: string): string {
  const source = readFileSync(join(root, path), 'utf8');
  expect(source).toContain(from);
  return source.replace(from, to);
}

test("an update relinks the dev server's program, and a library's own program keeps its kernels", async () => {
  const { root, page } = await open('hmr-programs-library', 5200);
  // 2 (3i + 1) + 10
  expect(await run(page)).toEqual({ own: values((i) => 6 * i + 12), library: LIBRARY });

  const scale = edited(
    root,
    'src/scale.sycl.ts',
    'specializationId(u32, 3)',
    'specializationId(u32, 5)',
  );
  expect(await change(page, root, { 'src/scale.sycl.ts': scale }, 'src/scale.sycl.ts')).toEqual([]);
  expect(await run(page)).toEqual({ own: values((i) => 10 * i + 12), library: LIBRARY });
});

test('the program links the device modules the page imports: one it dropped, then deleted, is in no later link', async () => {
  const { root, page, server } = await open('hmr-programs-dropped', 5210);
  expect((await run(page)).own).toEqual(values((i) => 6 * i + 12));

  // scale.sycl.ts stops importing extra.sycl.ts, which is then deleted.
  let scale = edited(root, 'src/scale.sycl.ts', "import { shifted } from './extra.sycl.ts';\n", '');
  scale = scale.replace(
    'shifted(plusOne(kh.getSpecializationConstant(factor) * i))',
    'plusOne(kh.getSpecializationConstant(factor) * i)',
  );
  expect(await change(page, root, { 'src/scale.sycl.ts': scale }, 'src/scale.sycl.ts')).toEqual([]);
  expect((await run(page)).own).toEqual(values((i) => 3 * i + 1));
  const extra = join(root, 'src/extra.sycl.ts');
  const deleted = new Promise<void>((resolve) => {
    server.watcher.on('unlink', (file) => file === extra && resolve());
  });
  rmSync(extra);
  await deleted;

  // `twice`, which only the deleted module used, goes: nothing the page imports misses it.
  let base = edited(
    root,
    'src/base.sycl.ts',
    '\nexport const twice = deviceFunction({ args: [u32], returns: u32 }, (x) => x * 2);\n',
    '',
  );
  base = base.replace('(x) => x + 1', '(x) => x + 2');
  expect(await change(page, root, { 'src/base.sycl.ts': base }, 'src/base.sycl.ts')).toEqual([]);
  expect((await run(page)).own).toEqual(values((i) => 3 * i + 2));
});
