import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import sycltsVite from 'unplugin-syclts/vite';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { stageApp } from '../helpers/paths.js';

let root: string;
let server: ViteDevServer;
let browser: Browser;

beforeAll(async () => {
  root = stageApp('browser', 'browser-dev');
  server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [sycltsVite()],
    server: { host: '127.0.0.1', port: 5190, strictPort: false },
    // A dependency discovered on first load would reload the page under the test's feet.
    optimizeDeps: { noDiscovery: true },
  });
  await server.listen();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface PageResult {
  readonly adapter: string;
  readonly results: number[][];
}

const multiples = (k: number) => Array.from({ length: 100 }, (_, i) => k * i);

test('the dev server links on request, and an edit to a .sycl.ts module reaches the page', async () => {
  const page = await browser.newPage();
  await page.goto(server.resolvedUrls!.local[0]!);
  const first = (await page.evaluate(() => window.sycltsResult)) as PageResult;
  console.log(`[syclts] vite dev page ran on adapter: ${first.adapter}`);
  expect(first.results).toEqual([multiples(7), multiples(5)]);

  // A new default and a new kernel body: the page reloads with the relinked program.
  const file = join(root, 'src/scale.sycl.ts');
  const reloaded = page.waitForEvent('load');
  writeFileSync(
    file,
    readFileSync(file, 'utf8')
      .replace('specializationId(u32, 7)', 'specializationId(u32, 11)')
      .replace(
        'kh.getSpecializationConstant(factor) * i',
        'kh.getSpecializationConstant(factor) * i + 1',
      ),
  );
  await reloaded;
  const second = (await page.evaluate(() => window.sycltsResult)) as PageResult;
  expect(second.results).toEqual([multiples(11).map((v) => v + 1), multiples(5).map((v) => v + 1)]);
});
