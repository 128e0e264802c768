/**
 * Hostile input is just input: user text reaches WGSL only through the namer or one escaping
 * function, names that exist on `Object.prototype` are names like any other, and odd forms
 * (a composite literal where a scalar belongs, a bad field in a type alias, any line ending)
 * get a diagnostic at their place instead of an internal error or a wrong position.
 */
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/index.js';
import { buildProgram, runKernel } from './gpu.js';

const POISON = 0xdeadbeef;
const HEADER = `import { accessor, deviceFunction, f32, kernel, struct, u32, vec3f } from '@syclts/dsl';\n`;
const [x, y] = randomU32(2, 7101).map((v) => v % 1_000_000) as unknown as [number, number];

/** 1-based line and column of the first `needle` in `source` (lines ended by `\n`). */
function at(source: string, needle: string, nth = 0): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = source.indexOf(needle, index + 1);
  expect(index).toBeGreaterThanOrEqual(0);
  const before = source.slice(0, index).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** The build's one error: code, message and place; no program. */
function refused(source: string, module = 'hostile/m.sycl.ts') {
  const { program, diagnostics } = build([{ module, source }]);
  expect(program).toBeNull();
  expect(diagnostics).toHaveLength(1);
  const [d] = diagnostics;
  return { code: d!.code, message: d!.message, line: d!.span?.line, column: d!.span?.column };
}

describe('a module path with a line break stays inside its comments', () => {
  const MODULE = 'src/a\n@group(0) @binding(0) var<storage> x: u32;\n.sycl.ts';
  const SOURCE = `${HEADER}
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), v: u32 } }, (item, _kh, { out, v }) => {
  out[item.getId(0)] = v + 1;
});
`;

  test('the injected declaration does not appear, the WGSL runs and its lines still map', async () => {
    const program = buildProgram({ [MODULE]: SOURCE });
    const image = program.images[0]!;
    const wgsl = image.wgsl.native!;
    const lines = wgsl.split('\n');
    expect(lines.some((l) => l.trim().startsWith('@group(0) @binding(0) var<storage> x'))).toBe(
      false,
    );
    // Every comment line is one line of WGSL: nothing after it can be read as code.
    expect(
      lines.filter((l) => l.includes('.sycl.ts')).every((l) => l.trimStart().startsWith('//')),
    ).toBe(true);
    const out = new Uint32Array(1).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#k`,
      range: [1],
      args: { out, v: x },
    });
    expect(new Uint32Array(result.accessors.out!)[0]).toBe(x + 1);
    const map = image.lineMaps!.native!;
    expect(map.sources).toEqual([MODULE]);
    const n = lines.findIndex((l) => l.includes('.v + 1u;'));
    expect(map.lines[n]).toEqual([[1, 0, at(SOURCE, 'out[').line, 3, 0]]);
  });
});

describe('names that exist on Object.prototype', () => {
  test('item.toString(0) is not an item method', () => {
    const source = `${HEADER}export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => { out[0] = item.toString(0); });`;
    expect(refused(source)).toEqual({
      code: 'SYCL1016',
      message: 'an item has no method `toString`',
      ...at(source, 'item.toString'),
    });
  });

  test.each(['constructor', 'hasOwnProperty', '__proto__', 'valueOf'])(
    'Math.%s(x) has no WGSL equivalent',
    (name) => {
      const source = `${HEADER}export const k = kernel({ range: 1, args: { out: accessor(f32, 'write') } }, (item, _kh, { out }) => { out[0] = Math.${name}(1); });`;
      expect(refused(source)).toEqual({
        code: 'SYCL1014',
        message: `Math.${name} has no WGSL equivalent`,
        ...at(source, `Math.${name}`),
      });
    },
  );

  test('args.constructor is no kernel argument', () => {
    const source = `${HEADER}export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, a) => { a.out[0] = a.constructor; });`;
    expect(refused(source)).toEqual({
      code: 'SYCL1011',
      message: 'the kernel has no argument `constructor`',
      ...at(source, 'constructor;'),
    });
  });

  test('as argument, accessor, local, parameter and struct field names they just work', async () => {
    const MODULE = 'hostile/proto.sycl.ts';
    const program = buildProgram({
      [MODULE]: `${HEADER}
const S = struct({ hasOwnProperty: u32, valueOf: u32, toString: u32, constructor: u32 });
const f = deviceFunction({ args: [u32, S], returns: u32 }, (toString, isPrototypeOf) =>
  toString * 2 + isPrototypeOf.valueOf);
export const k = kernel(
  { range: 1, args: { s: S, valueOf: accessor(u32, 'write'), constructor: u32, hasOwnProperty: u32 } },
  (item, _kh, { s, valueOf, constructor, hasOwnProperty }) => {
    const __proto__ = constructor + 1;
    const t = S({ hasOwnProperty: s.hasOwnProperty, valueOf: hasOwnProperty, toString: 0, constructor: s.constructor });
    valueOf[0] = __proto__;
    valueOf[1] = f(t.hasOwnProperty, t);
    valueOf[2] = t.constructor;
  });
`,
    });
    const out = new Uint32Array(3).fill(POISON);
    const s = { hasOwnProperty: y, valueOf: 1, toString: 2, constructor: 3 };
    const result = await runKernel(program, {
      kernel: `${MODULE}#k`,
      range: [1],
      args: { s, valueOf: out, constructor: x, hasOwnProperty: x + 5 },
    });
    const written = new Map(Object.entries(result.accessors)).get('valueOf')!;
    expect([...new Uint32Array(written)].slice(0, 3)).toEqual([x + 1, y * 2 + x + 5, 3]);
  });
});

test('an array literal where a scalar belongs is a type mismatch at the literal', () => {
  const source = `${HEADER}export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => { const i = item.getId(0); out[i] = [i]; });`;
  expect(refused(source)).toEqual({
    code: 'SYCL1012',
    message: 'the value assigned to `out[i]` must be u32, not array<u32, 1>',
    ...at(source, '[i];'),
  });
});

describe('a bad field of a top-level struct alias is reported at the field', () => {
  const ALIAS = `const S = struct({ a: f32, b: notAType });\n`;
  test.each([
    [
      'a kernel argument',
      `args: { out: accessor(f32, 'write'), s: S } }, (item, _kh, { out, s }) => { out[0] = s.a; }`,
    ],
    [
      'a constructor call',
      `args: { out: accessor(f32, 'write') } }, (item, _kh, { out }) => { out[0] = S({ a: 1, b: 2 }).a; }`,
    ],
  ])('used as %s', (_, kernel) => {
    const source = `${HEADER}${ALIAS}export const k = kernel({ range: 1, ${kernel});`;
    expect(refused(source)).toEqual({
      code: 'SYCL1003',
      message: 'struct field `b`: `notAType` is not a DSL type',
      ...at(source, 'notAType'),
    });
  });
});

describe('diagnostic positions are the same for every line ending', () => {
  const LINES = [
    HEADER.trimEnd(),
    `export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {`,
    '  const a = u32(1);',
    '  out[0] = a + nope;',
    '});',
  ];
  test.each([
    ['\\n', '\n'],
    ['\\r\\n', '\r\n'],
    ['\\r', '\r'],
    ['U+2028', '\u2028'],
    ['U+2029', '\u2029'],
  ])('%s', (_, eol) => {
    const source = `${LINES.join(eol)}${eol}`;
    expect(refused(source)).toEqual({
      code: 'SYCL1011',
      message: '`nope` is not defined in device code',
      line: 4,
      column: 16,
    });
  });
});
