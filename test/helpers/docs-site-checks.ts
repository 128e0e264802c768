/**
 * The docs site's live examples, each checked against this test's own computation: by the
 * example's name (`<LiveRun name=...>`), what its `run` returned and the text it printed.
 */
import { expect } from 'vitest';
import { initialState } from '../../docs/cookbook/particles.state.ts';
import { seededFloats } from '../../docs/gallery/inputs.ts';
import { convolveOnCpu, FILTERS, TOLERANCE } from '../../examples/convolution/src/filters.ts';
import { sceneImage } from '../../examples/convolution/src/image.ts';
import { histograms, productError, productTolerance } from './reference.js';

type Check = (result: never, output: string) => void;

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export const liveChecks: Record<string, Check> = {
  hello(rows: { factor: number; out: number[] }[], output) {
    expect(rows).toEqual([
      { factor: 7, out: range(8).map((i) => 7 * i) },
      { factor: 3, out: range(8).map((i) => 3 * i) },
    ]);
    expect(output).toContain('factor = 3 (set at run time): 0 3 6 9 12 15 18 21');
  },

  reduce(result: { n: number; sum: number; max: number }, output) {
    const xs = seededFloats(result.n);
    let sum = 0;
    let magnitudes = 0;
    let max = -Infinity;
    for (const x of xs) {
      sum += x;
      magnitudes += Math.abs(x);
      max = Math.max(max, x);
    }
    expect(Math.abs(result.sum - sum)).toBeLessThanOrEqual(1e-5 * magnitudes);
    expect(result.max).toBe(max);
    expect(output).toContain(`max:   ${result.max}`);
  },

  compact(result: { n: number; threshold: number; count: number; kept: number[] }) {
    const expected = Array.from(seededFloats(result.n, 7)).filter((x) => x > result.threshold);
    expect(result.count).toBe(expected.length);
    expect(result.kept).toEqual(expected);
  },

  histogram(
    report: {
      afterFirst: number[];
      final: number[];
      inputs: { lo: number; hi: number; batches: number[][] };
      refused: { message: string | null }[];
    },
    output,
  ) {
    const counted = histograms(report.inputs, report.final.length);
    expect(report.afterFirst).toEqual(counted[0]);
    expect(report.final).toEqual(counted.at(-1));
    expect(report.refused.map((r) => r.message)).not.toContain(null);
    expect(output).toMatch(/check: +the bins after the first and the last launch/);
  },

  matmul(report: {
    n: number;
    rows: { kernel: string; mode: string }[];
    matrices: { a: number[]; b: number[]; c: Record<string, number[]> };
  }) {
    const { a, b, c } = report.matrices;
    expect(Object.keys(c)).toEqual(report.rows.map((row) => `${row.kernel} ${row.mode}`));
    expect(Object.keys(c)).toHaveLength(3);
    for (const [name, product] of Object.entries(c)) {
      expect(productError(a, b, product, report.n), name).toBeLessThanOrEqual(
        productTolerance(report.n),
      );
    }
  },

  convolution(result: {
    width: number;
    height: number;
    checks: { mode: string; filter: string; maxError: number }[];
    outputs: Record<'blur' | 'sharpen' | 'edges', number[]>;
  }) {
    expect(result.checks.map((c) => `${c.filter} ${c.mode}`).sort()).toEqual(
      ['blur', 'sharpen', 'edges'].flatMap((f) => [`${f} native`, `${f} emulated`]).sort(),
    );
    const image = sceneImage(result.width, result.height);
    for (const filter of ['blur', 'sharpen', 'edges'] as const) {
      const expected = convolveOnCpu(image, FILTERS[filter]);
      const output = result.outputs[filter];
      expect(output).toHaveLength(expected.length);
      let worst = 0;
      output.forEach((v, i) => {
        worst = Math.max(worst, Math.abs(v - expected[i]!));
      });
      expect(worst, filter).toBeLessThanOrEqual(TOLERANCE);
    }
  },

  starter(rows: { by: number; output: number[]; overLimit: number }[]) {
    const input = range(8).map((i) => 10 * (i + 1));
    expect(rows.map((row) => row.output)).toEqual([
      input.map((x) => x * 2),
      input.map((x) => x * 0.5),
    ]);
    // 120, 140 and 160 go over 100 at x 2; nothing more at x 0.5: the count stays on the GPU.
    expect(rows.map((row) => row.overLimit)).toEqual([3, 3]);
  },

  'cookbook-reduce'(result: {
    n: number;
    seed: number;
    sumOfSquares: number;
    positiveCount: number;
    min: number;
    max: number;
    sum: number;
  }) {
    const xs = seededFloats(result.n, result.seed);
    let squares = 0;
    let positives = 0;
    let min = Infinity;
    let max = -Infinity;
    for (const x of xs) {
      squares += x * x;
      if (x > 0) positives++;
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    expect(Math.abs(result.sumOfSquares - squares)).toBeLessThanOrEqual(1e-5 * squares);
    expect(result.positiveCount).toBe(positives);
    expect([result.min, result.max]).toEqual([min, max]);
    expect(result.sum).toBe(1000 + (10_000 * 9_999) / 2);
  },

  'cookbook-images'(result: {
    width: number;
    height: number;
    radius: number;
    pixels: number[];
    blurred: number[];
  }) {
    const { width, height, radius, pixels, blurred } = result;
    // The recipe's Gaussian: sigma (r + 1) / 2, edges clamped, rounded to RGBA8.
    const sigma = (radius + 1) / 2;
    let most = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        for (let c = 0; c < 4; c++) {
          let sum = 0;
          let total = 0;
          for (let dy = -radius; dy <= radius; dy++) {
            for (let dx = -radius; dx <= radius; dx++) {
              const w = Math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
              const sx = Math.min(width - 1, Math.max(0, x + dx));
              const sy = Math.min(height - 1, Math.max(0, y + dy));
              sum += w * pixels[(sy * width + sx) * 4 + c]!;
              total += w;
            }
          }
          const i = (y * width + x) * 4 + c;
          most = Math.max(most, Math.abs(blurred[i]! - Math.round(sum / total)));
        }
      }
    }
    expect(most).toBeLessThanOrEqual(1);
    expect(blurred).not.toEqual(pixels);
  },

  'cookbook-particles'(result: {
    n: number;
    steps: number;
    dt: number;
    gravity: number;
    x: number[];
    y: number[];
    vy: number[];
  }) {
    // The same steps on the CPU, in f32: every operation is exact, so the bits must agree.
    const { x, y, vx, vy } = initialState(result.n);
    const f = Math.fround;
    for (let s = 0; s < result.steps; s++) {
      for (let i = 0; i < result.n; i++) {
        let v = f(vy[i]! + f(result.gravity * result.dt));
        let height = f(y[i]! + f(v * result.dt));
        if (height < 0) {
          height = -height;
          v = f(-v * 0.5);
        }
        vy[i] = v;
        y[i] = height;
        x[i] = f(x[i]! + f(vx[i]! * result.dt));
      }
    }
    expect(result.y).toEqual(Array.from(y));
    expect(result.vy).toEqual(Array.from(vy));
    expect(result.x).toEqual(Array.from(x));
    expect(Math.min(...result.y)).toBeGreaterThanOrEqual(0);
  },

  'cookbook-per-frame'(
    result: {
      frames: number;
      n: number;
    } & Record<
      'emulated' | 'native',
      {
        rows: number[][];
        pipelinesCreated: number;
        nativeLaunches: number;
        emulatedLaunches: number;
      }
    >,
  ) {
    for (const mode of ['emulated', 'native'] as const) {
      const { rows } = result[mode];
      expect(rows).toHaveLength(result.frames);
      rows.forEach((row, frame) => {
        row.forEach((value, i) => {
          expect(
            Math.abs(value - Math.sin(frame / 4 + i / 8)),
            `${mode} ${frame} ${i}`,
          ).toBeLessThan(1e-3);
        });
      });
    }
    expect(result.emulated).toMatchObject({
      pipelinesCreated: 1,
      nativeLaunches: 0,
      emulatedLaunches: result.frames,
    });
    expect(result.native).toMatchObject({
      pipelinesCreated: result.frames,
      nativeLaunches: result.frames,
      emulatedLaunches: 0,
    });
  },

  'cookbook-device-global-state'(seen: number[][]) {
    // Launches 1, 2, 3; items over 90, then over 50, then over 0 (of 0..99), added up.
    expect(seen).toEqual([
      [1, 9],
      [2, 9 + 49],
      [3, 9 + 49 + 99],
    ]);
  },

  'cookbook-spec-constant-modes'(
    result: { strides: number[] } & Record<
      'native' | 'emulated' | 'auto',
      { outputs: number[][]; stats: Record<string, number> }
    >,
  ) {
    const expected = result.strides.map((stride) => range(8).map((i) => i * stride));
    for (const policy of ['native', 'emulated', 'auto'] as const) {
      expect(result[policy].outputs, policy).toEqual(expected);
    }
    // Native: a pipeline per distinct stride (2, 3, 5); emulated: one.
    expect(result.native.stats).toEqual({
      pipelinesCreated: 3,
      nativeLaunches: 5,
      emulatedLaunches: 0,
    });
    expect(result.emulated.stats).toEqual({
      pipelinesCreated: 1,
      nativeLaunches: 0,
      emulatedLaunches: 5,
    });
    expect(result.auto.stats.nativeLaunches! + result.auto.stats.emulatedLaunches!).toBe(5);
  },

  'cookbook-debugging'(result: { xs: number[]; lines: string[] }) {
    // The kernel's first items print their input (square roots exact in f32), negative inputs a
    // warning from the device function; the place is the module's, as the site's root names it.
    const f32 = (x: number) => {
      const v = Math.fround(x);
      for (let p = 1; p < 10; p++) {
        if (Math.fround(Number(v.toPrecision(p))) === v) return String(Number(v.toPrecision(p)));
      }
      return String(v);
    };
    const want = result.xs.flatMap((x, i) => [
      ...(i < 3
        ? [
            `debugging.sycl.ts:17:7 item ${i}: x ${f32(x)} root ${f32(Math.sqrt(x))} vec2f(${f32(x)}, ${f32(x * x)})`,
          ]
        : []),
      ...(x < 0 ? [`debugging.sycl.ts:6:5 item ${i}: negative input at ${i}: ${f32(x)}`] : []),
    ]);
    expect(result.lines.map((line) => line.replace(/^\S*\//, ''))).toEqual(want);
  },

  'cookbook-reading-errors'(caught: { errc: string; message: string }[]) {
    expect(caught.map((c) => c.errc)).toEqual(['invalid', 'invalid', 'kernel_argument']);
    expect(caught[0]!.message).toMatch(/offset/);
    expect(caught[0]!.message).toMatch(/-1/);
    expect(caught[1]!.message).toMatch(/results/);
    expect(caught[2]!.message).toMatch(/\bout\b/);
  },
};
