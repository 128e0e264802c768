/**
 * The docs site's live examples, each checked against this test's own computation: by the
 * example's name (`<LiveRun name=...>`), what its `run` returned and the text it printed.
 */
import { expect } from 'vitest';
import { seededFloats } from '../../docs/gallery/inputs.ts';
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

  starter(rows: { by: number; output: number[]; overLimit: number }[]) {
    const input = range(8).map((i) => 10 * (i + 1));
    expect(rows.map((row) => row.output)).toEqual([
      input.map((x) => x * 2),
      input.map((x) => x * 0.5),
    ]);
    // 120, 140 and 160 go over 100 at x 2; nothing more at x 0.5: the count stays on the GPU.
    expect(rows.map((row) => row.overLimit)).toEqual([3, 3]);
  },
};
