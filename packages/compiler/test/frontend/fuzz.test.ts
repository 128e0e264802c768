/**
 * Fuzzing compileModule with random and mutated source text: it must never throw, never report
 * an internal error (SYCL1000), and every diagnostic it reports must point inside the source.
 * When it returns a device object, the object is plain JSON and comes with no errors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { compileModule } from '../../src/index.js';
import { TOKEN, VOCABULARY } from '../fuzz/vocabulary.js';

const dir = new URL('../corpus/valid/', import.meta.url);
const corpus = readdirSync(dir)
  .filter((f) => f.endsWith('.sycl.ts'))
  .sort()
  .map((f) => readFileSync(new URL(f, dir), 'utf8'));

function check(source: string): void {
  let result: ReturnType<typeof compileModule> | undefined;
  expect(() => {
    result = compileModule(source, { module: 'src/fuzz.sycl.ts' });
  }).not.toThrow();
  const { object, diagnostics } = result!;
  const internal = diagnostics.filter((d) => d.code === 'SYCL1000');
  if (internal.length > 0) expect.fail(`${internal[0]!.message}\n--- source ---\n${source}`);
  for (const d of diagnostics) {
    if (d.span) {
      expect(d.span.start).toBeGreaterThanOrEqual(0);
      expect(d.span.end).toBeLessThanOrEqual(source.length);
      expect(d.span.line).toBeGreaterThanOrEqual(1);
    }
  }
  if (object) {
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(JSON.parse(JSON.stringify(object))).toEqual(object);
  } else {
    expect(diagnostics.length).toBeGreaterThan(0);
  }
}

const tokenised = corpus.map((text) => text.match(TOKEN) ?? []);

/** A corpus module with a few tokens replaced, deleted, duplicated or inserted. */
const mutated = fc
  .tuple(
    fc.integer({ min: 0, max: tokenised.length - 1 }),
    fc.array(
      fc.tuple(
        fc.constantFrom('replace', 'delete', 'duplicate', 'insert'),
        fc.nat(),
        fc.constantFrom(...VOCABULARY),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([file, edits]) => {
    const tokens = [...tokenised[file]!];
    for (const [kind, at, word] of edits) {
      const i = at % Math.max(1, tokens.length);
      if (kind === 'replace') tokens[i] = word;
      else if (kind === 'delete') tokens.splice(i, 1);
      else if (kind === 'duplicate') tokens.splice(i, 0, tokens[i] ?? '');
      else tokens.splice(i, 0, word);
    }
    return tokens.join('');
  });

test('mutated corpus modules never make the compiler throw or fail internally', () => {
  fc.assert(fc.property(mutated, check), { numRuns: 1000, seed: 20261122 });
});

test('random token soup and random text never make the compiler throw', () => {
  const soup = fc
    .array(fc.constantFrom(...VOCABULARY, ' ', '\n'), { maxLength: 80 })
    .map((t) => `import { kernel, f32, u32, accessor } from '@syclts/dsl';\n${t.join(' ')}`);
  fc.assert(fc.property(soup, check), { numRuns: 300, seed: 7 });
  fc.assert(fc.property(fc.string({ maxLength: 200, unit: 'binary' }), check), {
    numRuns: 300,
    seed: 8,
  });
});

test('every corpus module with a kernel body cut short is reported, not thrown', () => {
  for (const text of corpus) {
    for (let cut = 0; cut < text.length; cut += 97) check(text.slice(0, cut));
  }
});

test('pathologically deep nesting is reported, not a crash', () => {
  const kernelWith = (body: string) =>
    `import { accessor, kernel, u32 } from '@syclts/dsl';\nexport const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {\n  const i = item.getId(0);\n  ${body}\n});\n`;
  const bodies = [
    `out[0] = ${'('.repeat(20000)}i${')'.repeat(20000)};`,
    `${'{'.repeat(20000)}${'}'.repeat(20000)}`,
    `out[0] = ${Array(30000).fill('i').join(' + ')};`,
    `${'if (i > 0) {'.repeat(1500)}out[0] = 1;${'}'.repeat(1500)}`,
  ];
  for (const body of bodies) {
    const source = kernelWith(body);
    check(source);
    const { diagnostics } = compileModule(source, { module: 'src/deep.sycl.ts' });
    expect(diagnostics.map((d) => d.code)).toEqual(['SYCL1010']);
  }
  const fine = kernelWith(`out[0] = ${'('.repeat(200)}i${')'.repeat(200)};`);
  expect(compileModule(fine, { module: 'src/ok.sycl.ts' }).diagnostics).toEqual([]);
});
