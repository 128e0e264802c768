/**
 * `console.log` in device code at build time: what the build refuses (SYCL1032), each at its
 * place; the formats the image holds; WGSL of kernels that do not print unchanged (the valid
 * corpus against hashes of what the build printed before console.log existed, and a kernel
 * beside a printing sibling); the reference interpreter's lines.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { build } from '../../src/build.js';
import { interpretKernel } from '../../src/index.js';
import { linkSources } from './gpu.js';

const M = 'src/t.sycl.ts';

function kernelWith(body: string): string {
  return `import { accessor, atomic, deviceGlobal, f32, i32, kernel, struct, u32, vec4f } from '@syclts/dsl';
const P = struct({ x: f32, y: f32 });
const count = deviceGlobal(atomic(u32));
export const k = kernel({ range: 1, args: { ps: accessor(P, 'read'), xs: accessor(f32, 'read') } }, (item, _kh, { ps, xs }) => {
  const i = item.getId(0);
  const x = xs[i]!;
  const v = vec4f(x, x, x, x);
  const arr = [x, x];
${body}
});
`;
}

function diagnosticsOf(body: string) {
  const source = kernelWith(body);
  const { diagnostics } = build([{ module: M, source }]);
  return diagnostics.map((d) => ({
    code: d.code,
    message: d.message,
    text: d.span ? source.slice(d.span.start, d.span.end) : null,
  }));
}

describe('console.log the build refuses, at its place', () => {
  const cases: readonly [string, string, string][] = [
    [
      "console.log('p', ps[i]!);",
      'console.log cannot print `ps[i]`, a struct { x: f32, y: f32 }: it prints text, numbers, bools and vectors of them',
      'ps[i]',
    ],
    [
      'console.log(arr);',
      'console.log cannot print `arr`, a array<f32, 2>: it prints text, numbers, bools and vectors of them',
      'arr',
    ],
    [
      "console.log('x = ' + x);",
      "`'x = ' + x` is not text known at build time: console.log's text is string literals, template literals and constants",
      "'x = ' + x",
    ],
    [
      'console.log(...arr);',
      "`...arr` is not text known at build time: console.log's text is string literals, template literals and constants",
      '...arr',
    ],
    [
      'console.log(v, v, v, v, v, v, v, v, x);',
      'console.log prints at most 32 numbers per line (a vec4 counts 4), this one 33',
      'console.log(v, v, v, v, v, v, v, v, x)',
    ],
    [
      "console.warn('x', x);",
      '`console.warn` is not available in device code: `console.log` prints a line',
      'console.warn',
    ],
  ];
  test.each(cases)('%s', (body, message, text) => {
    expect(diagnosticsOf(body)).toEqual([{ code: 'SYCL1032', message, text }]);
  });

  test('an atomic is read with atomicLoad first', () => {
    const [d] = diagnosticsOf('console.log(count.value);');
    expect(d?.text).toBe('count.value');
  });
});

describe('the formats in the image', () => {
  test("text and constants folded as JavaScript prints them, values' types in order", () => {
    const source = kernelWith(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: device code's template literal
      "  console.log('x', x, `at ${i}: ${v}!`, 7, true, 0.5, i > 2, `${1 + 2}`);",
    );
    const { program, diagnostics } = build([{ module: M, source }]);
    expect(diagnostics).toEqual([]);
    const image = program!.images[0]!;
    expect(image.logFormats).toEqual([
      {
        source: { module: M, line: 9, column: 3 },
        parts: ['x ', ' at ', ': ', '! 7 true 0.5 ', ' 3'],
        args: [
          { scalar: 'f32', size: 1 },
          { scalar: 'u32', size: 1 },
          { scalar: 'f32', size: 4 },
          { scalar: 'bool', size: 1 },
        ],
      },
    ]);
    expect(image.kernels[`${M}#k`]!.bindings.filter((b) => b.kind === 'log')).toHaveLength(1);
  });
});

describe('kernels that do not print', () => {
  test('the valid corpus prints the WGSL it printed before console.log existed', () => {
    const dir = new URL('../corpus/valid/', import.meta.url);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.sycl.ts'))
      .sort();
    const sources = files.map((f) => ({
      module: `src/${f}`,
      source: readFileSync(new URL(f, dir), 'utf8'),
    }));
    const { program } = build(sources, { specConstants: 'both', lineMaps: false });
    const hashes: Record<string, string> = {};
    for (const image of program!.images) {
      for (const [variant, text] of Object.entries(image.wgsl)) {
        hashes[`${image.id} ${variant}`] = createHash('sha256')
          .update(text)
          .digest('hex')
          .slice(0, 16);
      }
    }
    const before = JSON.parse(
      readFileSync(new URL('../emit/log-free-wgsl.json', import.meta.url), 'utf8'),
    ) as Record<string, string>;
    expect(hashes).toEqual(before);
  });

  test('a kernel beside a printing one: the same entry point, no log binding', () => {
    const module = (sibling: string) => `import { accessor, kernel, u32 } from '@syclts/dsl';
export const quiet = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  out[item.getId(0)] = item.getId(0) * 3;
});
export const loud = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  ${sibling}
  out[item.getId(0)] = 1;
});
`;
    const entry = (wgsl: string) => wgsl.slice(wgsl.indexOf('fn k_quiet('));
    const [without, withLog] = ['out[0] = 2;', "console.log('hi', item.getId(0));"].map((s) => {
      const { program } = build([{ module: M, source: module(s) }], { specConstants: 'both' });
      return program!.images[0]!;
    });
    expect(withLog!.wgsl.native).toContain('log_buffer');
    expect(without!.wgsl.native).not.toContain('log_buffer');
    for (const variant of ['native', 'emulated'] as const) {
      const a = without!.wgsl[variant];
      const b = withLog!.wgsl[variant];
      if (a === undefined) continue;
      const quiet = (w: string) => entry(w).slice(0, entry(w).indexOf('\n}\n'));
      expect(quiet(b!)).toBe(quiet(a));
    }
    expect(withLog!.kernels[`${M}#quiet`]!.bindings).toEqual(
      without!.kernels[`${M}#quiet`]!.bindings,
    );
  });
});

describe('the reference interpreter', () => {
  test('records each line with its place and item, ordered by item', () => {
    const source = `import { accessor, deviceFunction, f32, i32, kernel, u32, vec2f } from '@syclts/dsl';
const half = deviceFunction({ args: [i32] }, (y) => {
  console.log('half', f32(y) / 2, y < 0);
});
export const k = kernel({ ndRange: 1, workgroupSize: [4], args: { ys: accessor(i32, 'read') } }, (item, _kh, { ys }) => {
  const i = item.getGlobalId(0);
  const y = ys[i]!;
  console.log(\`y=\${y}\`, vec2f(0.1, f32(y)));
  if (y % 2 == 0) { half(y); }
});
`;
    const ys = Int32Array.from({ length: 8 }, () => Math.floor(Math.random() * 2001) - 1000);
    const linked = linkSources({ [M]: source });
    const { log } = interpretKernel(linked.images, {
      kernel: `${M}#k`,
      range: [8],
      local: [4],
      args: { ys },
    });
    const want = [...ys].flatMap((y, i) => [
      { source: { module: M, line: 8, column: 3 }, item: [i], text: `y=${y} vec2f(0.1, ${y})` },
      ...(y % 2 === 0
        ? [{ source: { module: M, line: 3, column: 3 }, item: [i], text: `half ${y / 2} ${y < 0}` }]
        : []),
    ]);
    expect(log).toEqual(want);
  });
});
