import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { stageApp } from '../helpers/paths.js';
import { type StaticServer, serveDirectory } from '../helpers/static-server.js';
import { buildForBrowser, scripts } from '../helpers/vite-browser.js';

let outDir: string;
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  const root = stageApp('browser', 'browser');
  outDir = join(root, 'dist');
  await buildForBrowser(root, outDir);
  server = await serveDirectory(outDir);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('the Vite production build runs in headless Chromium on WebGPU', async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  const result = (await page.evaluate(() => window.sycltsResult)) as {
    adapter: string;
    results: number[][];
    gpuError: string;
  };
  console.log(`[syclts] browser bundle ran on adapter: ${result.adapter}`);
  expect(result.results).toEqual([
    Array.from({ length: 100 }, (_, i) => 7 * i),
    Array.from({ length: 100 }, (_, i) => 5 * i),
  ]);
  // The browser's WGSL compiler error, told at the .sycl.ts line the user wrote.
  const lines = result.gpuError.split('\n');
  expect(lines[0]).toMatch(/^src\/widen\.sycl\.ts:8:5: error: /);
  expect(lines[1]).toBe('  8 |     return y * vec3f(1.0);`,');
  expect(lines[2]).toBe('    |     ^');
  expect(lines.at(-1)).toBe('kernel src/widen.sycl.ts#bad: creating its native pipeline failed');
});

test('the production bundle ships the linked program, not the compiler', () => {
  const code = [...scripts(outDir).values()].join('\n');
  // Strings only the compiler holds: its parser, code frames, diagnostics and WGSL emitter.
  for (const compilerOnly of ['oxc-parser', 'codeFrameColumns', 'compileModule', 'emitProgram']) {
    expect(code).not.toContain(compilerOnly);
  }
  expect(code).not.toContain('__syclts_linked_program__');
  expect(code).toMatch(/@id\(0\) override/);
  // The linked program is one JSON string literal; the rest is the runtime, the DSL and the app.
  const program = code.match(/JSON\.parse\((["'`])\{\\?"version[\s\S]*?[^\\]\1\)/)?.[0] ?? '';
  expect(program).toContain('@id(0) override');
  const rest = code.replace(program, '');
  const gzip = (text: string) => gzipSync(text, { level: 9 }).length;
  console.log(
    `[syclts] browser bundle, minified (gzipped): ${code.length} (${gzip(code)}) bytes in all, ` +
      `${rest.length} (${gzip(rest)}) without the linked program`,
  );
  // 21,000 until the runtime began checking kernels' WebGPU limits against the device (0.5 kB);
  // 21,600 until failures were tied to the launch that caused them and to what depends on it
  // (1 kB); 22,700 until group functions and reductions (0.27 kB: the rest of their run-time
  // code is @syclts/runtime/groups, which only the modules that use them import); 23,000 until
  // requiredFeatures (checked in browsers too), profiling's two hooks (the rest is
  // @syclts/runtime/profiling) and buffers sharing memory with their reinterpret views (0.35 kB);
  // 23,300 until textures (0.27 kB: the texture methods of the queue, bindings other than buffers
  // and GPUBuffer wrapping; the rest is @syclts/runtime/textures); 23,500 until a large launch of
  // a kernel that takes launch slots got a pipeline without them (0.14 kB); 23,700 until
  // adaptive specialization's hooks (the rest is @syclts/runtime/adaptive), console.log's log
  // binding and hook (the rest is @syclts/runtime/log) and joint matrices (0.18 kB together);
  // 23,900 until a pipeline a launch waits for alone was made with createComputePipeline (0.13 kB);
  // 24,050 until a launch checked its buffers against the joint matrices loaded or stored through
  // them, and the sizes specialization constants set (launches and kernel bundles) against the
  // device (0.6 kB); 24,700 until launches that bind their own record got a pipeline without the
  // group offset in one dispatch and one without launch slots when split (0.06 kB); 24,800 until
  // a batch whose only slotted launches are first records of their chunks wrote no slot table,
  // the arena was uploaded only as far as written, and the end-of-task flush left
  // queueMicrotask (0.17 kB).
  expect(gzip(rest)).toBeLessThan(25_000);
});

test("console.log in a kernel reaches the page's console, each line at its .sycl.ts place", async () => {
  // A page of its own: its bundle carries @syclts/runtime/log, which the measured app does not.
  const root = stageApp('browser-log', 'browser-log');
  const logDir = join(root, 'dist');
  await buildForBrowser(root, logDir);
  const logServer = await serveDirectory(logDir);
  try {
    const page = await browser.newPage();
    const printed: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'log') printed.push(message.text());
    });
    await page.goto(logServer.url);
    expect(await page.evaluate(() => window.sycltsPrinted)).toEqual({ printed: true });
    // Printed before the launch's wait returned, in item order.
    expect(printed).toEqual(
      [0, 1, 2].map((i) => `src/loud.sycl.ts:7:5 item ${i}: loud ${i} times 3 is ${3 * i}`),
    );
  } finally {
    await logServer.close();
  }
});

test.each([
  [
    'a browser without WebGPU',
    () => {
      Reflect.deleteProperty(Navigator.prototype, 'gpu');
    },
    /^SyclError: Queue\.create: this browser has no WebGPU \(navigator\.gpu is missing\); WebGPU needs a secure context \(https, or http:\/\/localhost\) and a browser that ships it: Chrome or Edge 113\+/,
  ],
  [
    'a browser whose requestAdapter() finds no adapter',
    () => {
      Object.defineProperty(GPU.prototype, 'requestAdapter', { value: async () => null });
    },
    /^SyclError: Queue\.create: navigator\.gpu\.requestAdapter\(\) returned no adapter: WebGPU is disabled or the GPU is blocklisted in this browser \(chrome:\/\/gpu or about:support says which\)/,
  ],
])('in %s, Queue.create says why and what to do (errc.platform)', async (_, disable, message) => {
  const page = await browser.newPage();
  await page.addInitScript(disable);
  await page.goto(server.url);
  const result = (await page.evaluate(() => window.sycltsResult)) as {
    error?: string;
    errc?: string;
  };
  expect(result.error).toMatch(message);
  expect(result.errc).toBe('platform');
  await page.close();
});
