/**
 * The starter in the Vite dev server: an edit to its kernel shows on the page without a reload,
 * and the device global counts on from where it was.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { outRoot, repoRoot } from '../helpers/paths.js';
import { startDevServer } from '../helpers/vite-browser.js';

let root: string;
let server: ViteDevServer;
let browser: Browser;

beforeAll(async () => {
  // A copy: the test edits the kernel.
  root = join(outRoot, 'vite-dev-starter');
  rmSync(root, { recursive: true, force: true });
  cpSync(join(repoRoot, 'examples/starter'), root, { recursive: true });
  server = await startDevServer(root, 5220);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

declare global {
  interface Window {
    reloadMarker?: string;
  }
}

test('an edit to the kernel re-runs it on the page, and the counter keeps counting', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(server.resolvedUrls!.local[0]!);
  const out = page.locator('#out');
  const results = async () => ((await out.textContent()) ?? '').split('\n').slice(1);
  await expect.poll(() => out.textContent(), { timeout: 60_000 }).not.toBe('running…');
  expect(await results()).toEqual([
    'input:   10 20 30 40 50 60 70 80',
    'x 2:     20 40 60 80 100 120 140 160  (3 over 100 so far)',
    'x 0.5:   5 10 15 20 25 30 35 40  (3 over 100 so far)',
  ]);

  // A reload would lose this marker, and start the counter again from 0.
  await page.evaluate(() => {
    window.reloadMarker = 'before the edit';
  });
  let reloaded = false;
  page.on('load', () => {
    reloaded = true;
  });

  const file = join(root, 'src/kernels.sycl.ts');
  const source = readFileSync(file, 'utf8');
  const from = 'input[i]! * kh.getSpecializationConstant(gain);';
  expect(source).toContain(from);
  writeFileSync(file, source.replace(from, 'input[i]! * kh.getSpecializationConstant(gain) + 1;'));

  // One more result over 100 with the gain of 2 (101): 3 + 4 so far, not 4.
  const updated = [
    'input:   10 20 30 40 50 60 70 80',
    'x 2:     21 41 61 81 101 121 141 161  (7 over 100 so far)',
    'x 0.5:   6 11 16 21 26 31 36 41  (7 over 100 so far)',
  ];
  await expect.poll(results, { timeout: 60_000 }).toEqual(updated);
  expect(await page.evaluate(() => window.reloadMarker)).toBe('before the edit');
  expect(reloaded).toBe(false);
  expect(errors).toEqual([]);
});
