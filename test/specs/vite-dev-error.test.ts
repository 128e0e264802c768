/**
 * In the Vite dev server, a GPU compile error the page leaves unhandled reaches Vite's error
 * overlay, told at its place in the `.sycl.ts` source.
 */
import type { Browser } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { stageApp } from '../helpers/paths.js';
import { startDevServer } from '../helpers/vite-browser.js';

let server: ViteDevServer;
let browser: Browser;

beforeAll(async () => {
  const root = stageApp('dev-error', 'dev-error');
  server = await startDevServer(root, 5191);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('a GPU compile error shows in the overlay at its .sycl.ts line', async () => {
  const page = await browser.newPage();
  await page.goto(server.resolvedUrls!.local[0]!);
  const overlay = page.locator('vite-error-overlay');
  await overlay.waitFor({ state: 'attached', timeout: 20_000 });
  const text = await overlay.evaluate((element) => element.shadowRoot?.textContent ?? '');
  expect(text).toContain('src/widen.sycl.ts:8:5: error: return statement type must match');
  expect(text).toContain('8 |     return y * vec3f(1.0);`,');
  expect(text).toContain('widen.sycl.ts:8:5');
});
