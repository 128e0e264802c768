/**
 * The examples in Node, as a user runs them: the root `npm start` (the convolution example) and
 * each example's own `npm start`, built into one bundle and run on the adapter (reduce is built
 * first, with turbo, as its README says). Each example checks itself; these tests check the
 * outputs again from outside.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decode } from 'fast-png';
import { describe, expect, test } from 'vitest';
import { gaussian, histograms, productError, productTolerance } from '../helpers/reference.js';

const run = promisify(execFile);
const repository = join(import.meta.dirname, '..', '..');
const examples = join(repository, 'examples');

/** `npm start` first builds the workspace packages the example needs (turbo, cached when built). */
const NPM_START_TIMEOUT = 300_000;

/** Runs an npm script; the examples print a JSON summary as their last line with --json. */
async function npm(
  args: readonly string[],
  cwd: string,
): Promise<{ stdout: string; json: unknown }> {
  const { stdout } = await run('npm', [...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 24 });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return { stdout, json: last.startsWith('{') ? JSON.parse(last) : null };
}

function readRgba(file: string): { width: number; height: number; data: Uint8Array } {
  const png = decode(readFileSync(file));
  expect(png.depth).toBe(8);
  expect(png.channels).toBe(4);
  return { width: png.width, height: png.height, data: png.data as Uint8Array };
}

/** An independent 3x3 convolution (zero padding, alpha kept) over RGBA8, rounded back to RGBA8. */
function reference(
  image: { width: number; height: number; data: Uint8Array },
  k: readonly (readonly number[])[],
): Uint8Array {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let value = data[(y * width + x) * 4 + c]! / 255;
        if (c < 3) {
          value = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              const sy = y + dy;
              const sx = x + dx;
              if (sy < 0 || sx < 0 || sy >= height || sx >= width) continue;
              value += k[dy + 1]![dx + 1]! * (data[(sy * width + sx) * 4 + c]! / 255);
            }
          }
        }
        out[(y * width + x) * 4 + c] = Math.min(255, Math.max(0, Math.round(value * 255)));
      }
    }
  }
  return out;
}

const KERNELS: Record<string, readonly (readonly number[])[]> = {
  blur: [
    [1 / 16, 2 / 16, 1 / 16],
    [2 / 16, 4 / 16, 2 / 16],
    [1 / 16, 2 / 16, 1 / 16],
  ],
  sharpen: [
    [0, -1, 0],
    [-1, 5, -1],
    [0, -1, 0],
  ],
  edges: [
    [-1, -1, -1],
    [-1, 8, -1],
    [-1, -1, -1],
  ],
};

/**
 * Each filter's PNG in `outDir` against this test's reference convolution of `input`. When the
 * example convolved unrounded pixels (its generated scene) and wrote them rounded to 8 bits, each
 * tap adds up to half a step of difference.
 */
function expectFiltered(
  outDir: string,
  input: ReturnType<typeof readRgba>,
  convolvedRounded: boolean,
): void {
  for (const [filter, k] of Object.entries(KERNELS)) {
    const output = readRgba(join(outDir, `${filter}.png`));
    expect([output.width, output.height]).toEqual([input.width, input.height]);
    const expected = reference(input, k);
    let worst = 0;
    let changed = 0;
    for (let i = 0; i < expected.length; i++) {
      worst = Math.max(worst, Math.abs(output.data[i]! - expected[i]!));
      if (output.data[i] !== input.data[i]) changed++;
    }
    // f32 on the GPU against f64 here: one step of rounding apart, and the input's rounding.
    const taps = k.flat().reduce((sum, w) => sum + Math.abs(w), 0);
    expect(worst, filter).toBeLessThanOrEqual(convolvedRounded ? 1 : 1 + Math.ceil(taps / 2));
    // Every filter changes a good share of the channels of the image.
    expect(changed / input.data.length, filter).toBeGreaterThan(0.05);
  }
}

describe('convolution', () => {
  test(
    'the root `npm start` writes filtered PNGs that match a CPU reference and differ from the input',
    async () => {
      const outDir = join(examples, 'convolution', 'out');
      const names = ['input', ...Object.keys(KERNELS)];
      // Removed first, so that only this run's files can be found and compared below.
      for (const name of names) rmSync(join(outDir, `${name}.png`), { force: true });
      const { stdout } = await npm(['start'], repository);
      console.log(stdout);
      expect(stdout).toMatch(/^adapter: .+/m);
      expect(stdout).toMatch(/check: +every output matches the CPU reference/);

      for (const name of names) expect(existsSync(join(outDir, `${name}.png`)), name).toBe(true);
      const input = readRgba(join(examples, 'convolution', 'assets', 'input.png'));
      expect(readRgba(join(outDir, 'input.png')).data).toEqual(input.data);
      expectFiltered(outDir, input, true);
    },
    NPM_START_TIMEOUT,
  );

  test(
    'a generated image of another size, both modes checked, one pipeline per filter natively',
    async () => {
      const outDir = join(repository, 'test', 'out', 'convolution-generated');
      // Only this run's images may be found below.
      rmSync(outDir, { recursive: true, force: true });
      const { json } = await npm(
        ['start', '--', '--size', '48', '--out-dir', outDir, '--repeat', '2', '--json'],
        join(examples, 'convolution'),
      );
      const summary = json as {
        width: number;
        rows: { mode: string; filter: string; pipelinesCreated: number }[];
      };
      expect(summary.width).toBe(48);
      expect(
        summary.rows.map((row) => `${row.mode} ${row.filter} ${row.pipelinesCreated}`),
      ).toEqual([
        'native blur 1',
        'native sharpen 1',
        'native edges 1',
        'emulated blur 1',
        'emulated sharpen 0',
        'emulated edges 0',
      ]);
      const input = readRgba(join(outDir, 'input.png'));
      expect([input.width, input.height]).toEqual([48, 48]);
      expectFiltered(outDir, input, false);
    },
    NPM_START_TIMEOUT,
  );
});

describe('matmul', () => {
  test(
    '`npm start` picks the block from the limits, checks every variant, prints GFLOP/s',
    async () => {
      const { stdout, json } = await npm(
        ['start', '--', '--size', '32', '--repeat', '2', '--json', '--matrices'],
        join(examples, 'matmul'),
      );
      // The report, without its last line: the JSON with every matrix.
      console.log(stdout.trimEnd().split('\n').slice(0, -1).join('\n'));
      const report = json as {
        ok: boolean;
        n: number;
        checkedEntries: number;
        limits: { invocations: number };
        rows: { kernel: string; mode: string; block: number }[];
        matrices: { a: number[]; b: number[]; c: Record<string, number[]> };
      };
      expect(report.checkedEntries).toBe(32 * 32);
      // The largest power of two whose square fits the workgroup limit, capped by the matrix size.
      const expectedBlock = Math.min(
        32,
        2 ** Math.floor(Math.log2(Math.sqrt(report.limits.invocations))),
      );
      expect(report.rows.map((row) => [row.kernel, row.mode, row.block])).toEqual([
        ['matmul', 'native', expectedBlock],
        ['matmulFixedBlock', 'native', 16],
        ['matmulFixedBlock', 'emulated', 16],
      ]);
      // Each product against this test's own reference, from the inputs the example used.
      const { a, b, c } = report.matrices;
      expect(Object.keys(c)).toEqual(report.rows.map((row) => `${row.kernel} ${row.mode}`));
      for (const [name, product] of Object.entries(c)) {
        expect(productError(a, b, product, 32), name).toBeLessThanOrEqual(productTolerance(32));
      }
      expect(stdout).toMatch(/GFLOP\/s/);
    },
    NPM_START_TIMEOUT,
  );
});

describe('tensor-cores', () => {
  test(
    '`npm start` runs every tiling it fits and checks it in float64, or names what the device lacks',
    async () => {
      const { stdout, json } = await npm(
        ['start', '--', '--size', '256', '--repeat', '2', '--json'],
        join(examples, 'tensor-cores'),
      ).catch((error: { stdout?: string }) => {
        // A failed check exits 1: show the report.
        throw new Error(`tensor-cores failed:\n${error.stdout ?? String(error)}`);
      });
      console.log(stdout.trimEnd().split('\n').slice(0, -1).join('\n'));
      const report = json as {
        ok: boolean;
        lowering: string;
        n: number;
        samples: number;
        rows: { tiling: string; tflops: number; wrong: { integers: number; reals: number } }[];
        skipped: { tiling: string; why: string }[];
        refused?: { errc: string; message: string };
      };
      expect(report.ok).toBe(true);
      expect(report.n).toBe(256);
      if (report.refused) {
        // A device without shader-f16 (SwiftShader): the runtime's error, naming kernel and feature.
        expect(report.lowering).toBe('refused');
        expect(report.refused.errc).toBe('feature_not_supported');
        expect(report.refused.message).toMatch(
          /kernel src\/matmul\.sycl\.ts#matmulF16 uses an f16 joint matrix \(a, 16 × 16\) and the device has no 'shader-f16'/,
        );
        expect(report.rows).toEqual([]);
      } else {
        // 128 x 256 and 256 x 128 tiles need n a multiple of 256: all five tilings fit n = 256.
        expect(report.rows.map((r) => r.tiling)).toHaveLength(5 - report.skipped.length);
        for (const row of report.rows) {
          expect(row.wrong).toEqual({ integers: 0, reals: 0 });
          expect(row.tflops).toBeGreaterThan(0);
        }
      }
      // Tilings n does not fit are skipped with the reason, before anything runs.
      for (const s of report.skipped) expect(s.why).toMatch(/exceed|not a multiple/);
    },
    NPM_START_TIMEOUT,
  );
});

describe('histogram', () => {
  test(
    '`npm start` accumulates over launches in a device global and refuses copies against hostAccess',
    async () => {
      const { stdout, json } = await npm(
        ['start', '--', '--batches', '3', '--samples', '2000', '--json', '--inputs'],
        join(examples, 'histogram'),
      );
      console.log(stdout);
      const report = json as {
        afterFirst: number[];
        final: number[];
        peak: { bin: number; count: number };
        refused: { message: string | null }[];
        inputs: { lo: number; hi: number; batches: number[][] };
      };
      // The bins against this test's own count of the samples the example launched with.
      const counted = histograms(report.inputs, report.final.length);
      expect(report.inputs.batches.map((b) => b.length)).toEqual([2000, 2000, 2000]);
      expect(report.afterFirst).toEqual(counted[0]);
      expect(report.final).toEqual(counted.at(-1));
      const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
      // The first launch's samples are kept by the later ones; a few samples fall outside the range.
      expect(sum(report.afterFirst)).toBeGreaterThan(1900);
      expect(sum(report.afterFirst)).toBeLessThanOrEqual(2000);
      expect(sum(report.final)).toBeGreaterThan(sum(report.afterFirst) * 2.8);
      expect(report.final.every((count, i) => count >= report.afterFirst[i]!)).toBe(true);
      expect(report.peak).toEqual({
        bin: report.final.indexOf(Math.max(...report.final)),
        count: Math.max(...report.final),
      });
      expect(report.refused.map((r) => r.message)).toEqual([
        expect.stringMatching(/#bins has hostAccess 'read'; the host may not write it/),
        expect.stringMatching(/#valueRange has hostAccess 'write'; the host may not read it/),
      ]);
    },
    NPM_START_TIMEOUT,
  );
});

describe('reduce', () => {
  test(
    'built with Rollup as its README says, `npm start` prints a sum and maximum that match the CPU',
    async () => {
      const reduce = join(examples, 'reduce');
      // Only this run's bundle may be started below.
      rmSync(join(reduce, 'dist'), { recursive: true, force: true });
      await run(
        'npx',
        ['turbo', 'run', 'build', '--filter=syclts-example-reduce...', '--output-logs=errors-only'],
        { cwd: repository, env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
      );
      const { stdout } = await npm(['start'], reduce);
      console.log(stdout);
      expect(stdout).toMatch(/^adapter: .+/m);
      expect(stdout).toMatch(/^n: +1048576 random floats in \[-1, 1\)$/m);
      const number = String.raw`(-?[\d.e+-]+)`;
      const sum = stdout.match(
        new RegExp(`^sum: +${number} \\(CPU ${number}, tolerance ${number}:`, 'm'),
      );
      const max = stdout.match(new RegExp(`^max: +${number} \\(CPU ${number}\\)$`, 'm'));
      expect(sum, 'the sum line').not.toBeNull();
      expect(max, 'the max line').not.toBeNull();
      const [gpuSum, cpuSum, tolerance] = sum!.slice(1).map(Number) as [number, number, number];
      // 1e-5 of the sum of magnitudes, which is about n / 2 for uniform values in [-1, 1).
      expect(tolerance / 1e-5 / 2 ** 19).toBeGreaterThan(0.98);
      expect(tolerance / 1e-5 / 2 ** 19).toBeLessThan(1.02);
      expect(Math.abs(gpuSum - cpuSum)).toBeLessThanOrEqual(tolerance);
      // The sum of 2^20 such values: a standard deviation of sqrt(2^20 / 3), about 591.
      expect(Math.abs(cpuSum)).toBeLessThan(6 * 591);
      // The maximum is exact, and of 2^20 uniform values it is very close to 1.
      expect(max![1]).toBe(max![2]);
      expect(Number(max![1])).toBeGreaterThan(0.9999);
      expect(Number(max![1])).toBeLessThan(1);
      expect(stdout).toMatch(/^time: +[\d.]+ ms/m);
      expect(stdout).toMatch(/^check: ok$/m);
    },
    NPM_START_TIMEOUT,
  );
});

describe('compact', () => {
  test(
    'built with Rollup (the library bundled), `npm start` keeps the elements the CPU keeps, in order',
    async () => {
      const compact = join(examples, 'compact');
      rmSync(join(compact, 'dist'), { recursive: true, force: true });
      await run(
        'npx',
        [
          'turbo',
          'run',
          'build',
          '--filter=syclts-example-compact...',
          '--output-logs=errors-only',
        ],
        { cwd: repository, env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
      );
      // The library's scan is linked into the bundle, not imported at run time.
      expect(readFileSync(join(compact, 'dist', 'main.js'), 'utf8')).not.toMatch(
        /from ['"]@syclts\/algorithms['"]/,
      );
      const { stdout } = await npm(['start'], compact);
      console.log(stdout);
      expect(stdout).toMatch(/^adapter: .+/m);
      const kept = stdout.match(/^kept: +(\d+) \(CPU (\d+)\), in their order: yes$/m);
      expect(kept, 'the kept line').not.toBeNull();
      expect(kept![1]).toBe(kept![2]);
      // A quarter of 2^20 uniform values in [-1, 1) are above 0.5: a standard deviation of 443.
      expect(Math.abs(Number(kept![1]) - 2 ** 18)).toBeLessThan(6 * 443);
      expect(stdout).toMatch(/^check: ok$/m);
    },
    NPM_START_TIMEOUT,
  );
});

describe('blur', () => {
  test(
    '`npm start` blurs random noise in a texture for each radius; the PNGs match an independent Gaussian',
    async () => {
      const outDir = join(repository, 'test', 'out', 'blur');
      rmSync(outDir, { recursive: true, force: true });
      const { json } = await npm(
        ['start', '--', '--size', '40', '--radius', '0,2,5', '--out-dir', outDir, '--json'],
        join(examples, 'blur'),
      );
      const summary = json as { ok: boolean; runs: { radius: number; error: number }[] };
      expect(summary.ok).toBe(true);
      expect(summary.runs.map((r) => r.radius)).toEqual([0, 2, 5]);
      const input = readRgba(join(outDir, 'input.png'));
      expect([input.width, input.height]).toEqual([40, 40]);
      for (const r of [0, 2, 5]) {
        const out = readRgba(join(outDir, `blur-${r}.png`)).data;
        const want = gaussian(input, r);
        let most = 0;
        for (let i = 0; i < out.length; i++) most = Math.max(most, Math.abs(out[i]! - want[i]!));
        expect(most, `radius ${r}`).toBeLessThanOrEqual(1);
        if (r === 0) expect(out).toEqual(input.data);
        else expect(out).not.toEqual(input.data);
      }
    },
    NPM_START_TIMEOUT,
  );
});
