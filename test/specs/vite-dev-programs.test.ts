/**
 * The Vite dev server beside another program: an update relinks the dev server's own program
 * only.
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
    sycltsUpdates?: number;
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
  return { root, page };
}

const run = async (page: Page) => (await page.evaluate(() => window.sycltsRun!())) as RunResult;

/** Writes (or, with null, deletes) files, then waits for the update or an error, and says which. */
async function change(page: Page, root: string, files: Readonly<Record<string, string | null>>) {
  const updates = await page.evaluate(() => window.sycltsUpdates ?? 0);
  for (const [path, text] of Object.entries(files)) {
    if (text === null) rmSync(join(root, path));
    else writeFileSync(join(root, path), text);
  }
  await page.waitForFunction(
    (before) => (window.sycltsUpdates ?? 0) > before || (window.sycltsErrors ?? []).length > 0,
    updates,
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
  expect(await change(page, root, { 'src/scale.sycl.ts': scale })).toEqual([]);
  expect(await run(page)).toEqual({ own: values((i) => 10 * i + 12), library: LIBRARY });
});
