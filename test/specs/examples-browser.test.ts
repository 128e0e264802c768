/**
 * Each example's production build (its own vite.config.ts) in headless Chromium on WebGPU: the
 * page's own check passes, and a screenshot is saved under test/out/screenshots/ for a person.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { decode } from 'fast-png';
import type { Browser, Page } from 'playwright-core';
import { build, createServer, type UserConfig } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { outRoot } from '../helpers/paths.js';
import {
  gaussian,
  histograms,
  particlePositions,
  productError,
  productTolerance,
  projectToCanvas,
} from '../helpers/reference.js';
import { type StaticServer, serveDirectory } from '../helpers/static-server.js';

const examples = join(import.meta.dirname, '..', '..', 'examples');
const screenshots = join(outRoot, 'screenshots');

let browser: Browser;
const servers: StaticServer[] = [];
/** Uncaught errors on any page: none expected. */
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  expect(pageErrors).toEqual([]);
});

/**
 * The example's own config, imported here: Vite's config loader would run it outside Vitest,
 * where the workspace packages' TypeScript sources do not load.
 */
async function exampleConfig(root: string): Promise<UserConfig> {
  return ((await import(join(root, 'vite.config.ts'))) as { default: UserConfig }).default;
}

/** Builds the example as `vite build` does and opens its page. */
async function openExample(name: string, query = ''): Promise<Page> {
  const root = join(examples, name);
  const outDir = join(outRoot, 'examples-web', name);
  const config = await exampleConfig(root);
  await build({
    ...config,
    root,
    configFile: false,
    logLevel: 'silent',
    build: { ...config.build, outDir, emptyOutDir: true },
  });
  const server = await serveDirectory(outDir);
  servers.push(server);
  const page = await browser.newPage({ viewport: { width: 900, height: 760 } });
  page.on('pageerror', (error) => pageErrors.push(`${name}: ${String(error)}`));
  await page.goto(`${server.url}${query}`);
  return page;
}

/** The page's load-time result (`window.sycltsExample`). */
async function pageResult<T>(page: Page): Promise<T> {
  const result = (await page.evaluate(
    () => (window as unknown as { sycltsExample?: Promise<unknown> }).sycltsExample,
  )) as T | { error: string };
  expect(result).not.toHaveProperty('error');
  return result as T;
}

describe('convolution', () => {
  test('checks every filter in both modes, switches filters, shows pipelines and time', async () => {
    const page = await openExample('convolution');
    const result = await pageResult<{
      adapter: string;
      ok: boolean;
      checks: { mode: string; filter: string; maxError: number }[];
    }>(page);
    console.log(`[syclts] convolution page ran on adapter: ${result.adapter}`);
    expect(result.ok).toBe(true);
    expect(result.checks).toHaveLength(6);

    // Native pipelines: one per filter; emulated: one for all. They were all made at load.
    await expect.poll(() => page.textContent('#pipelines')).toMatch(/^4 in all/);
    await page.click('button:text-is("edges")');
    await expect.poll(() => page.textContent('#output-caption')).toBe('edges (native)');
    expect(await page.textContent('#pipelines')).toMatch(/^4 in all \(this run: 0\)/);
    expect(await page.textContent('#time')).toMatch(/^\d+\.\d\d ms/);
    // The output canvas holds the filtered image: edge detection leaves most pixels dark.
    const dark = await page.evaluate(() => {
      const canvas = document.getElementById('output') as HTMLCanvasElement;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i]! + data[i + 1]! + data[i + 2]! < 30) count++;
      return count / (data.length / 4);
    });
    expect(dark).toBeGreaterThan(0.5);
    await page.screenshot({ path: join(screenshots, 'convolution.png'), fullPage: true });
  });
});

describe('matmul', () => {
  test('multiplies natively with the device-chosen block and emulated with the fixed one', async () => {
    const page = await openExample('matmul', '?size=32&matrices');
    const report = await pageResult<{
      rows: { kernel: string; mode: string; block: number }[];
      matrices: { a: number[]; b: number[]; c: Record<string, number[]> };
    }>(page);
    const names = ['matmul native', 'matmulFixedBlock native', 'matmulFixedBlock emulated'];
    expect(report.rows.map((row) => `${row.kernel} ${row.mode}`)).toEqual(names);
    // Each product against this test's own reference, from the inputs the page used.
    const { a, b, c } = report.matrices;
    expect(Object.keys(c)).toEqual(names);
    for (const [name, product] of Object.entries(c)) {
      expect(productError(a, b, product, 32), name).toBeLessThanOrEqual(productTolerance(32));
    }
    expect(await page.locator('#rows tr').count()).toBe(3);
    await page.screenshot({ path: join(screenshots, 'matmul.png'), fullPage: true });
  });
});

describe('blur', () => {
  test('canvas in, WebGPU canvas out, a video frame in: each against an independent Gaussian', async () => {
    const page = await openExample('blur');
    const result = await pageResult<{
      adapter: string;
      radius: number;
      textureError: number;
      videoError: number;
      badSources: string[];
      ok: boolean;
    }>(page);
    console.log(`[syclts] blur page ran on adapter: ${result.adapter}`);
    expect(result.badSources).toEqual([]);
    expect(result.ok).toBe(true);
    // From outside the page: the input canvas's pixels, and what the output canvas shows.
    const input = await page.evaluate(() => {
      const canvas = document.getElementById('input') as HTMLCanvasElement;
      const context = canvas.getContext('2d')!;
      return Array.from(context.getImageData(0, 0, canvas.width, canvas.height).data);
    });
    // The canvas's own pixels: inside its 1px border, at the page's scale of 1.
    const box = await page.evaluate(() => {
      const r = document.getElementById('output')!.getBoundingClientRect();
      return { x: r.left + window.scrollX + 1, y: r.top + window.scrollY + 1 };
    });
    const shown = async () => {
      const clip = { ...box, width: 256, height: 192 };
      const png = decode(await page.screenshot({ clip, fullPage: true }));
      // As RGBA, whatever channels the screenshot has.
      const data: number[] = [];
      for (let p = 0; p < png.width * png.height; p++) {
        for (let c = 0; c < 4; c++)
          data.push(c < png.channels ? png.data[p * png.channels + c]! : 255);
      }
      return { width: png.width, height: png.height, data };
    };
    const want = gaussian({ width: 256, height: 192, data: input }, result.radius);
    const output = await shown();
    expect([output.width, output.height]).toEqual([256, 192]);
    expect(largestDifference(output.data, want)).toBeLessThanOrEqual(1);
    expect(largestDifference(output.data, input)).toBeGreaterThan(32);
    // The slider sets the radius: 0 gives the input back.
    await page.evaluate(() => {
      const slider = document.getElementById('radius') as HTMLInputElement;
      slider.value = '0';
      slider.dispatchEvent(new Event('input'));
    });
    await expect
      .poll(async () => largestDifference((await shown()).data, input), { timeout: 20_000 })
      .toBe(0);
    // The live video: frames keep arriving and are blurred (back at radius 3 for the screenshot).
    await page.evaluate(() => {
      const slider = document.getElementById('radius') as HTMLInputElement;
      slider.value = '3';
      slider.dispatchEvent(new Event('input'));
    });
    const before = Number(await page.textContent('#frames'));
    await expect
      .poll(async () => Number(await page.textContent('#frames')), { timeout: 20_000 })
      .toBeGreaterThan(before + 3);
    await page.screenshot({ path: join(screenshots, 'blur.png'), fullPage: true });
  });
});

/** The largest difference of two RGBA8 images' color channels (screenshots carry no alpha). */
function largestDifference(a: readonly number[], b: ArrayLike<number>): number {
  let most = 0;
  for (let i = 0; i < a.length; i++)
    if (i % 4 !== 3) most = Math.max(most, Math.abs(a[i]! - b[i]!));
  return most;
}

describe('histogram', () => {
  test('draws the bins after the first and the last launch; the page checks them and the refusals', async () => {
    const page = await openExample('histogram', '?inputs');
    const report = await pageResult<{
      afterFirst: number[];
      final: number[];
      inputs: { lo: number; hi: number; batches: number[][] };
    }>(page);
    // The bins against this test's own count of the samples the page launched with.
    const counted = histograms(report.inputs, report.final.length);
    expect(report.afterFirst).toEqual(counted[0]);
    expect(report.final).toEqual(counted.at(-1));
    expect(await page.textContent('#check')).toMatch(/match the CPU/);
    expect(await page.locator('#refused div').count()).toBe(2);
    // Bars in both colours are on the chart.
    const colours = await page.evaluate(() => {
      const canvas = document.getElementById('chart') as HTMLCanvasElement;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      const seen = new Set<string>();
      for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      return [...seen];
    });
    expect(colours).toEqual(expect.arrayContaining(['29,78,216', '147,197,253']));
    await page.screenshot({ path: join(screenshots, 'histogram.png'), fullPage: true });
  });
});

describe('particles-three', () => {
  test('`npm run dev`: the page animates on and checks the buffer after 120 frames', async () => {
    await passesWhenViteServes('particles-three', '?count=256');
  });

  test('three.js draws the particles syclts moved in its buffer: read back and on screen', async () => {
    const count = 1024;
    const frames = 90;
    const page = await openExample('particles-three', `?count=${count}&frames=${frames}`);
    const report = await pageResult<{
      adapter: string;
      count: number;
      frames: number;
      dt: number;
      strength: number;
      softening: number;
      initial: { positions: number[]; velocities: number[] };
      positions: number[];
      camera: { view: number[]; projection: number[] };
      canvas: { width: number; height: number };
      ok: boolean;
    }>(page);
    expect(report).toMatchObject({ count, frames, ok: true });
    expect(report.positions).toHaveLength(4 * count);

    // The positions read back from three.js's buffer against this test's own reference, from
    // the page's fresh random initial state: f32 on the device, f64 here, over 90 steps.
    const reference = particlePositions(report.initial, { ...report, steps: frames });
    let worst = 0;
    let moved = 0;
    for (let i = 0; i < reference.length; i++) {
      const error = Math.abs(report.positions[i]! - reference[i]!);
      worst = Number.isNaN(error) ? Number.POSITIVE_INFINITY : Math.max(worst, error);
      moved = Math.max(moved, Math.abs(reference[i]! - report.initial.positions[i]!));
    }
    console.log(
      `[syclts] particles-three page ran on adapter: ${report.adapter}; positions within ${worst.toExponential(1)} of the reference`,
    );
    expect(worst).toBeLessThan(1e-4);
    expect(moved).toBeGreaterThan(0.3);

    // The frame on screen, drawn after the last launch: every particle's pixel (the reference
    // position through the page's camera) differs from the background, and pixels far from all
    // of them, where the particles started among them, are the background.
    const shot = await page.screenshot({
      path: join(screenshots, 'particles-three.png'),
      fullPage: true,
    });
    const image = decode(shot);
    const box = (await page.locator('#scene').boundingBox())!;
    const { width, height } = report.canvas;
    const pixel = (x: number, y: number) => {
      const at =
        ((Math.round(box.y) + Math.floor(y)) * image.width + Math.round(box.x) + Math.floor(x)) *
        image.channels;
      return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
    };
    const distance = (a: number[], b: number[]) =>
      a.reduce((sum, c, i) => sum + Math.abs(c - b[i]!), 0);
    const background = pixel(2, 2);
    // scene.background 0x0b1020, through three.js's sRGB output.
    expect(distance(background, [0x0b, 0x10, 0x20])).toBeLessThanOrEqual(6);
    const project = (xyzw: readonly number[], i: number) =>
      projectToCanvas([xyzw[i]!, xyzw[i + 1]!, xyzw[i + 2]!], report.camera, width, height);
    const drawn: { x: number; y: number }[] = [];
    for (let i = 0; i < reference.length; i += 4) {
      const at = project(reference, i);
      if (at && at.x >= 1 && at.y >= 1 && at.x < width - 1 && at.y < height - 1) drawn.push(at);
    }
    expect(drawn.length).toBeGreaterThan(0.95 * count);
    const missing = drawn.filter(({ x, y }) => distance(pixel(x, y), background) < 30);
    expect(missing).toEqual([]);
    const farFromAll = (x: number, y: number) =>
      drawn.every((at) => (at.x - x) ** 2 + (at.y - y) ** 2 > 12 ** 2);
    const grid: [number, number][] = [];
    for (let y = 4; y < height; y += 8) for (let x = 4; x < width; x += 8) grid.push([x, y]);
    const empty = grid.filter(([x, y]) => farFromAll(x, y));
    expect(empty.length).toBeGreaterThan(500);
    expect(empty.filter(([x, y]) => distance(pixel(x, y), background) > 6)).toEqual([]);
    // Not the first frame: most particles have left the pixels they started on.
    let left = 0;
    for (let i = 0; i < reference.length; i += 4) {
      const at = project(report.initial.positions, i);
      if (at && at.x >= 0 && at.y >= 0 && at.x < width && at.y < height) {
        if (distance(pixel(at.x, at.y), background) <= 6) left++;
      }
    }
    expect(left).toBeGreaterThan(count / 2);
  });
});

/** Serves the example with Vite's dev server (what `npm run dev` does) and asserts the page's check. */
async function passesWhenViteServes(name: string, query = ''): Promise<void> {
  const root = join(examples, name);
  const server = await createServer({
    ...(await exampleConfig(root)),
    root,
    configFile: false,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 5380, strictPort: false },
  });
  await server.listen();
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${name} (dev): ${String(error)}`));
    await page.goto(`${server.resolvedUrls!.local[0]!}${query}`);
    const result = await pageResult<{ ok: boolean }>(page);
    expect(result.ok, name).toBe(true);
    await page.close();
  } finally {
    await server.close();
  }
}

test('`npm run dev`: each page passes its check when Vite serves it', async () => {
  for (const name of ['convolution', 'matmul', 'histogram']) {
    await passesWhenViteServes(name, name === 'matmul' ? '?size=32' : '');
  }
});
