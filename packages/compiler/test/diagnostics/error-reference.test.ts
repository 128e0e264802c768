/**
 * docs/errors.md, the error-code reference, is checked against the compiler: it has a section for
 * every code, each diagnostic links to its code's section, and each section's example, built as
 * a user would build it, fails with that code.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { type BuildSource, build } from '../../src/build.js';
import { CODES, type Code, docsAnchor, headingAnchor } from '../../src/diagnostics/codes.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';

const reference = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');

interface Section {
  readonly code: string;
  /** The module (or modules) of the example, for the build's codes. */
  readonly example: string | null;
  /** The command of the example, for the command line's codes. */
  readonly command: string | null;
  /** The code source reports the example with, when the section's own code needs IR built by hand. */
  readonly fromSource: string | null;
}

const sections: Section[] = reference
  .split(/^### /m)
  .slice(1)
  .map((text) => ({
    code: text.slice(0, text.indexOf(':')),
    example: /```ts\n([\s\S]*?)```/.exec(text)?.[1] ?? null,
    command: /```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? null,
    fromSource: /^\*\*From source:\*\* (SYCL\d{4})\./m.exec(text)?.[1] ?? null,
  }));

/** An example is one module, or several, each introduced by a `// src/<path>` line. */
function modules(example: string): BuildSource[] {
  const parts = example.split(/^\/\/ (src\/\S+)\n/m);
  if (parts.length === 1) return [{ module: 'src/example.sycl.ts', source: example }];
  const sources: BuildSource[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    sources.push({ module: parts[i]!, source: parts[i + 1]! });
  }
  return sources;
}

test('every diagnostic code has a section, in order, and no section names an unknown code', () => {
  const all = Object.keys(CODES).sort();
  expect(sections.map((s) => s.code)).toEqual(all);
});

test("each code's anchor is the one GitHub gives its heading, and each heading is a code's", () => {
  const headings = [...reference.matchAll(/^### (SYCL\d{4}): .*$/gm)];
  const anchors = new Map(
    headings.map(([heading, code]) => [code!, headingAnchor(heading.slice(4))]),
  );
  const codes = Object.keys(CODES) as Code[];
  expect(codes.map((code) => docsAnchor(code))).toEqual(
    codes.map((code) => `errors.md#${anchors.get(code)}`),
  );
  expect([...anchors.keys()].filter((code) => !Object.hasOwn(CODES, code))).toEqual([]);
});

test("anchors follow GitHub's rule for headings", () => {
  expect(headingAnchor("SYCL1050: locals over WGSL's function memory")).toBe(
    'sycl1050-locals-over-wgsls-function-memory',
  );
  expect(headingAnchor('SYCL2010: more constant leaves than `@id` values')).toBe(
    'sycl2010-more-constant-leaves-than-id-values',
  );
  expect(
    headingAnchor('SYCL2020: a barrier or group function not every item of the work-group reaches'),
  ).toBe('sycl2020-a-barrier-or-group-function-not-every-item-of-the-work-group-reaches');
  expect(headingAnchor('Command line (SYCL3xxx)')).toBe('command-line-sycl3xxx');
});

test.each(sections.filter((s) => s.example !== null))(
  "$code: the example fails the build with its code (or the one named for source), in the example's source",
  ({ code, example, fromSource }) => {
    const text = example ?? '';
    const specConstants = /^\/\/ built with specConstants: '(\w+)'/m.exec(text)?.[1];
    const sources = modules(text);
    const { program, diagnostics } = build(
      sources,
      specConstants === 'emulated' ? { specConstants } : {},
    );
    expect(program).toBeNull();
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors[0]?.code).toBe(fromSource ?? code);
    expect(sources.map((s) => s.module)).toContain(errors[0]?.file);
    // The diagnostic names its code's entry here, last.
    expect(errors[0]?.docs).toBe(docsAnchor(errors[0]!.code as Code));
    expect(formatDiagnostic(errors[0]!).split('\n').at(-1)).toBe(`  see: docs/${errors[0]!.docs}`);
  },
);

test('only the internal compiler error has no example', () => {
  const build = sections.filter((s) => !s.code.startsWith('SYCL3'));
  expect(build.filter((s) => s.example === null).map((s) => s.code)).toEqual(['SYCL1000']);
});

test("each of the command line's codes shows a syclts command", () => {
  const cli = sections.filter((s) => s.code.startsWith('SYCL3'));
  expect(cli.map((s) => s.code)).toEqual(['SYCL3001', 'SYCL3002', 'SYCL3003']);
  for (const s of cli) expect(s.command).toMatch(/^syclts (build|inspect) /);
});
