import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { repoRoot, stageApp } from '../helpers/paths.js';
import { startDevServer } from '../helpers/vite-browser.js';

let root: string;
let server: ViteDevServer;
let browser: Browser;

beforeAll(async () => {
  root = stageApp('hmr', 'hmr-dev');
  server = await startDevServer(root, 5190);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface RunResult {
  readonly results: number[];
  readonly factor: number;
  readonly total: number;
  readonly pipelinesCreated: number;
}

declare global {
  interface Window {
    sycltsRun?: () => Promise<unknown>;
    sycltsUpdates?: number;
    reloadMarker?: string;
  }
}

const multiples = (k: number) => Array.from({ length: 100 }, (_, i) => k * i);

test('the dev server links on request, and an edit to a .sycl.ts module updates its kernels in place', async () => {
  const page = await browser.newPage();
  await page.goto(server.resolvedUrls!.local[0]!);
  await page.waitForFunction(() => window.sycltsRun !== undefined);
  const run = async () => (await page.evaluate(() => window.sycltsRun!())) as RunResult;

  const first = await run();
  expect(first).toMatchObject({ results: multiples(7), factor: 7, total: 7 });
  const again = await run();
  expect(again).toMatchObject({ results: multiples(7), total: 14 });
  // Reused pipelines: the second round created none.
  expect(again.pipelinesCreated).toBe(first.pipelinesCreated);

  // A reload would lose this marker, and start the update count again.
  await page.evaluate(() => {
    window.reloadMarker = 'before the edit';
  });
  let reloaded = false;
  page.on('load', () => {
    reloaded = true;
  });

  const file = join(root, 'src/scale.sycl.ts');
  const edit = async (replacements: readonly (readonly [string, string])[]) => {
    const updates = await page.evaluate(() => window.sycltsUpdates ?? 0);
    let source = readFileSync(file, 'utf8');
    for (const [from, to] of replacements) {
      expect(source).toContain(from);
      source = source.replace(from, to);
    }
    writeFileSync(file, source);
    await page.waitForFunction((before) => (window.sycltsUpdates ?? 0) > before, updates);
  };

  // A new default, a new kernel body, a new declaration the body uses, and a new device global
  // with an initial value, placed before `total` in the globals' buffer (`total` moves).
  await edit([
    [
      'specializationId(u32, 7);',
      'specializationId(u32, 11);\nexport const offset = specializationId(u32, 3);',
    ],
    [
      'kh.getSpecializationConstant(factor) * i',
      'kh.getSpecializationConstant(factor) * i + kh.getSpecializationConstant(offset)',
    ],
    [
      'export const total = deviceGlobal(u32);',
      'export const seed = deviceGlobal(u32, {}, 40);\nexport const total = deviceGlobal(u32);',
    ],
    [
      'total.value + kh.getSpecializationConstant(factor);',
      'total.value + kh.getSpecializationConstant(factor) + seed.value;',
    ],
  ]);
  const updated = await run();
  expect(updated.results).toEqual(multiples(11).map((v) => v + 3));
  expect(updated.factor).toBe(11);
  // The device global kept 7 + 7 through the update (and the move), and `bump` added the new
  // factor and the new global's initial value.
  expect(updated.total).toBe(14 + 11 + 40);
  // New images: new pipelines for both kernels.
  expect(updated.pipelinesCreated).toBeGreaterThanOrEqual(again.pipelinesCreated + 2);

  // A second update removes the declaration again: the host objects the page imported before
  // the first edit follow once more.
  await edit([
    [
      'specializationId(u32, 11);\nexport const offset = specializationId(u32, 3);',
      'specializationId(u32, 13);',
    ],
    [' + kh.getSpecializationConstant(offset)', ''],
  ]);
  const removed = await run();
  expect(removed).toMatchObject({ results: multiples(13), factor: 13, total: 65 + 13 + 40 });
  expect(removed.pipelinesCreated).toBeGreaterThanOrEqual(updated.pipelinesCreated + 2);

  // A build of the workspace while the page is open (by hand, or by another test file) writes
  // the packages' build output the page loaded: the page stays as it is.
  const now = new Date();
  utimesSync(join(repoRoot, 'packages/runtime/dist/index.js'), now, now);

  // A third one imports a declaration from a device module new to the page.
  writeFileSync(
    join(root, 'src/extra.sycl.ts'),
    "import { specializationId, u32 } from '@syclts/dsl';\nexport const offset = specializationId(u32, 5);\n",
  );
  await edit([
    ["} from '@syclts/dsl';", "} from '@syclts/dsl';\nimport { offset } from './extra.sycl.ts';"],
    [
      'kh.getSpecializationConstant(factor) * i',
      'kh.getSpecializationConstant(factor) * i + kh.getSpecializationConstant(offset)',
    ],
  ]);
  const imported = await run();
  expect(imported).toMatchObject({
    results: multiples(13).map((v) => v + 5),
    total: 118 + 13 + 40,
  });

  expect(await page.evaluate(() => window.reloadMarker)).toBe('before the edit');
  expect(reloaded).toBe(false);
});
