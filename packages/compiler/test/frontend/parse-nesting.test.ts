/**
 * The parser is native code that dies (SIGSEGV) when deep nesting or a long operator chain
 * exhausts its stack. A linear scan before it refuses such text at its place; every test here
 * runs in this process, so a parser reached by the input would end the run.
 */
import { describe, expect, test } from 'vitest';
import { build, compileModule } from '../../src/index.js';

const HEADER = `import { accessor, kernel, u32 } from '@syclts/dsl';\n`;
const MESSAGE = 'the code nests more than 1000 brackets and operators deep here';

function refused(source: string) {
  const { program, diagnostics } = build([{ module: 'deep/m.sycl.ts', source }]);
  expect(program).toBeNull();
  expect(diagnostics).toHaveLength(1);
  const [d] = diagnostics;
  return { code: d!.code, message: d!.message, line: d!.span?.line, column: d!.span?.column };
}

describe.each([100_000, 1_000_000])('%i terms', (n) => {
  // `export const x = ` is four tokens; the 1001st token of the statement is past the limit.
  test('an operator chain is refused at its 1001st token', () => {
    const source = `${HEADER}export const x = a${' + a'.repeat(n)};\n`;
    // Tokens 5, 7, 9, ... are the `a`s, from column 18, four columns apart: 1001 is the 499th.
    expect(refused(source)).toEqual({
      code: 'SYCL1010',
      message: MESSAGE,
      line: 2,
      column: 18 + 4 * 498,
    });
  });

  test('a unary chain is refused at its 997th operator', () => {
    const source = `${HEADER}export const x = ${'!'.repeat(n)}a;\n`;
    expect(refused(source)).toEqual({
      code: 'SYCL1010',
      message: MESSAGE,
      line: 2,
      column: 18 + 996,
    });
  });

  test.each([
    ['negations', (k: number) => `-(${'-('.repeat(k)}x${')'.repeat(k + 1)}`],
    ['members', (k: number) => `v${'.x'.repeat(k)}`],
    ['array literals', (k: number) => `${'['.repeat(k)}1${']'.repeat(k)}`],
    ['template literals', (k: number) => `${'`${'.repeat(k)}1${'}`'.repeat(k)}`],
    ['conditionals', (k: number) => `${'x ? 1 : '.repeat(k)}2`],
  ])('%s in a kernel are refused on their line', (_, shape) => {
    const source = `${HEADER}export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {\n  const x = u32(1);\n  out[0] = ${shape(n / 4)};\n});\n`;
    const r = refused(source);
    expect({ code: r.code, message: r.message, line: r.line }).toEqual({
      code: 'SYCL1010',
      message: MESSAGE,
      line: 4,
    });
    // Within the expression, far before its end.
    expect(r.column).toBeGreaterThan(11);
    expect(r.column).toBeLessThan(5000);
  });

  test('nested statements without braces are refused', () => {
    const source = `${HEADER}const a = 1;\n${'if (a)\n'.repeat(n / 8)}a;\n`;
    const r = refused(source);
    // Each `if (a)` adds two levels to one statement (`if` and the closed group): on the
    // 500th line `if` makes 999, `(` 1000 and the `a` inside it 1001.
    expect(r).toEqual({ code: 'SYCL1010', message: MESSAGE, line: 3 + 499, column: 5 });
  });
});

describe('long but flat text is not refused', () => {
  test('10,000 statements, a 10,000-element table and long statements without semicolons', () => {
    const statements = Array.from({ length: 10_000 }, (_, i) => `  s += a[${i % 7}]! * ${i}`);
    const source = `${HEADER}
const TABLE = [${Array.from({ length: 10_000 }, (_, i) => i).join(', ')}];
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), a: accessor(u32, 'read') } }, (item, _kh, { out, a }) => {
  let s = u32(0)
${statements.join('\n')}
  if (s > 0) { s = s + 1 } else { s = s + 2 }
  out[0] = s
})
`;
    const { diagnostics } = compileModule(source, { module: 'deep/flat.sycl.ts' });
    // The scan lets it through: whatever the front end says, it is not about nesting.
    expect(diagnostics.filter((d) => d.message === MESSAGE)).toEqual([]);
    expect(diagnostics).toEqual([]);
  });
});

test('a module importing such text is told it does not parse, and the text is refused at its place', () => {
  const deep = `export const x = a${' + a'.repeat(100_000)};\n`;
  const user = `${HEADER}import { x } from './deep.sycl.ts';\nexport const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => { out[0] = x; });\n`;
  // The importer first: its import scan must not hand the text to the parser either.
  const { program, diagnostics } = build([
    { module: 'deep/user.sycl.ts', source: user },
    { module: 'deep/deep.sycl.ts', source: deep },
  ]);
  expect(program).toBeNull();
  const own = diagnostics.find((d) => d.file === 'deep/deep.sycl.ts');
  expect(own).toMatchObject({
    code: 'SYCL1010',
    message: MESSAGE,
    span: { line: 1, column: 18 + 4 * 498 },
  });
  expect(diagnostics.find((d) => d.file === 'deep/user.sycl.ts')?.message).toContain(
    'does not parse',
  );
});
