/**
 * The docs site (docs/, VitePress): `npm run docs:build` builds it, and in headless Chromium on
 * WebGPU every page opens without an error, every live example of the gallery and the cookbook
 * runs and its results are checked here against the CPU, and every link inside the site
 * (page and heading anchor) resolves.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { decode } from 'fast-png';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { liveChecks } from '../helpers/docs-site-checks.js';
import { outRoot, repoRoot } from '../helpers/paths.js';
import { type StaticServer, serveDirectory } from '../helpers/static-server.js';

const exec = promisify(execFile);
const site = join(outRoot, 'docs-site');

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  // As `npm run docs:build` does, the packages already built (the tests depend on their builds).
  await exec(
    process.execPath,
    [join(repoRoot, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs', '--outDir', site],
    { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' } },
  );
  server = await serveDirectory(site);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Every page of the built site, as its path under the site's root (`gallery/hello.html`). */
function pages(): string[] {
  return readdirSync(site, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.html') && path !== '404.html')
    .map((path) => path.split('\\').join('/'))
    .sort();
}

test('every page opens, every live example computes the right values, every link resolves', async () => {
  const all = pages();
  expect(all).toEqual(expect.arrayContaining(['index.html', 'gallery/hello.html', 'runtime.html']));
  const ids = new Map<string, Set<string>>();
  const links: { from: string; href: string }[] = [];
  const ran = new Set<string>();
  let drawn = 0;
  const errors: string[] = [];

  const page = await browser.newPage();
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${String(error)}`));
  // Vue's hydration mismatches and failed loads are console errors.
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  for (const path of all) {
    await page.goto(`${server.url}${path}`);
    await page.waitForSelector('#app .VPContent');
    const found = await page.evaluate(() => ({
      ids: Array.from(document.querySelectorAll('[id]')).map((element) => element.id),
      hrefs: Array.from(document.querySelectorAll('a[href]')).map(
        (a) => (a as HTMLAnchorElement).href,
      ),
      live: Array.from(document.querySelectorAll('[data-live]')).map(
        (element) => (element as HTMLElement).dataset.live!,
      ),
    }));
    ids.set(path, new Set(found.ids));
    for (const href of found.hrefs) links.push({ from: path, href });

    for (const name of found.live) {
      const live = page.locator(`[data-live="${name}"]`);
      await expect
        .poll(() => live.getAttribute('data-state'), { timeout: 60_000 })
        .toMatch(/^(done|failed|no-webgpu)$/);
      const output = await live.locator('pre').textContent();
      expect(await live.getAttribute('data-state'), `${path} ${name}:\n${output}`).toBe('done');
      const check = liveChecks[name];
      expect(check, `${name} has a check`).toBeDefined();
      check!(JSON.parse((await live.getAttribute('data-result'))!) as never, output ?? '');
      // What a run drew: each canvas holds a picture, not one colour. A WebGPU canvas keeps no
      // pixels to read after it is shown: what the page shows of it is screenshot instead.
      const counts = await live.evaluate((element) =>
        Array.from(element.querySelectorAll('canvas'), (canvas) => {
          const context = canvas.getContext('2d');
          if (!context) return null;
          const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
          const seen = new Set<number>();
          for (let i = 0; i < data.length; i += 4) seen.add(new DataView(data.buffer).getUint32(i));
          return seen.size;
        }),
      );
      const colours: number[] = [];
      for (const [i, count] of counts.entries()) {
        if (count !== null) {
          colours.push(count);
          continue;
        }
        const png = decode(await live.locator('canvas').nth(i).screenshot());
        const seen = new Set<string>();
        for (let p = 0; p < png.width * png.height; p++) {
          seen.add(String(png.data.slice(p * png.channels, (p + 1) * png.channels)));
        }
        colours.push(seen.size);
      }
      for (const count of colours) expect(count, `${name}: a canvas`).toBeGreaterThan(1);
      drawn += colours.length;
      ran.add(name);
    }
  }
  await page.close();
  expect(errors).toEqual([]);
  // Each live example has a check, and each check ran.
  expect([...ran].sort()).toEqual(Object.keys(liveChecks).sort());
  // The convolution's input and three filters, the particles, and the images recipe's input
  // (2D) and output (WebGPU).
  expect(drawn).toBe(7);

  const broken: string[] = [];
  for (const { from, href } of links) {
    const url = new URL(href);
    if (url.origin !== new URL(server.url).origin) continue;
    let target = decodeURIComponent(url.pathname.slice(1));
    if (target === '' || target.endsWith('/')) target += 'index.html';
    if (!existsSync(join(site, target))) {
      broken.push(`${from}: ${href} (no page)`);
      continue;
    }
    const hash = decodeURIComponent(url.hash.slice(1));
    if (hash !== '' && target.endsWith('.html') && !ids.get(target)?.has(hash)) {
      broken.push(`${from}: ${href} (no anchor)`);
    }
  }
  expect(broken).toEqual([]);
  console.log(
    `[syclts] docs site: ${all.length} pages, ${ran.size} live examples, ${drawn} canvases, ${links.length} links, built in ${relative(repoRoot, site)}`,
  );
}, 300_000);

test("the cookbook's build error is what the compiler says, and its fix builds", async () => {
  const dir = join(repoRoot, 'docs/cookbook/errors');
  const cli = join(repoRoot, 'packages/compiler/bin/syclts.js');
  const out = mkdtempSync(join(tmpdir(), 'syclts-cookbook-'));
  try {
    const failed = await exec(
      process.execPath,
      [cli, 'build', 'host-call.sycl.ts', '--out-dir', out],
      { cwd: dir, env: { ...process.env, NO_COLOR: '1' } },
    ).then(
      () => null,
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(`${failed?.stdout}${failed?.stderr}`).toBe(
      readFileSync(join(dir, 'host-call.txt'), 'utf8'),
    );
    await exec(process.execPath, [cli, 'build', 'host-call-fixed.sycl.ts', '--out-dir', out], {
      cwd: dir,
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("`npm run docs:dev`: the dev server compiles a page's device code, and its example runs", async () => {
  const server = spawn(
    process.execPath,
    [join(repoRoot, 'node_modules/vitepress/bin/vitepress.js'), 'dev', 'docs', '--port', '5470'],
    { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /Local:\s+(http:\/\/\S+)/.exec(output);
        if (found) resolve(found[1]!);
      };
      server.stdout.on('data', read);
      server.stderr.on('data', read);
      server.on('exit', (code) => reject(new Error(`vitepress dev exited (${code}):\n${output}`)));
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${url}gallery/hello.html`);
    const live = page.locator('[data-live="hello"]');
    await expect
      .poll(() => live.getAttribute('data-state'), { timeout: 90_000 })
      .toMatch(/^(done|failed|no-webgpu)$/);
    expect(await live.getAttribute('data-state'), (await live.textContent()) ?? '').toBe('done');
    liveChecks.hello!(
      JSON.parse((await live.getAttribute('data-result'))!) as never,
      (await live.locator('pre').textContent()) ?? '',
    );
    expect(errors).toEqual([]);
    await page.close();
  } finally {
    server.kill();
  }
}, 180_000);
