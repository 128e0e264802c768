/**
 * Code that nests deeper than WGSL compilers accept is refused at its place (SYCL1010) instead
 * of building WGSL the GPU refuses. For each shape: the deepest the check accepts builds and runs
 * on the adapter; one level more is refused at the first node past the limit; the depth Dawn
 * refuses (measured on this project's Dawn) is refused by the build.
 */
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/index.js';
import { buildProgram, runKernel } from './gpu.js';

const HEAD = `import { accessor, deviceFunction, i32, kernel, u32, vec4u } from '@syclts/dsl';\n`;
const kernelOf = (body: string, extra = '') =>
  `${HEAD}${extra}export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), a: accessor(u32, 'read'), n: u32, b: u32 } }, (item, _kh, { out, a, n, b }) => {\n${body}\n});\n`;
const rep = (s: string, d: number) => s.repeat(d);
const INCREMENT = `const f = deviceFunction({ args: [u32], returns: u32 }, (x) => x + 1);\n`;

interface Inputs {
  readonly n: number;
  readonly b: number;
  readonly a: Uint32Array;
}

interface Shape {
  readonly source: (d: number) => string;
  /** The deepest the check accepts. */
  readonly accepted: number;
  /** Where one level more is refused: line:column, and the text found there. */
  readonly refusedAt: string;
  readonly refusedText: string;
  /** The first depth Dawn refuses. */
  readonly dawnRefuses: number;
  /** The value the kernel writes at depth `d`. */
  readonly expected: (d: number, i: Inputs) => number;
  /** Inputs the shape needs (n, b drawn at random otherwise). */
  readonly inputs?: (i: Inputs, d: number) => Inputs;
}

const u32 = (x: number | bigint) => Number(BigInt.asUintN(32, BigInt(x)));
const VEC_LENGTH = 16;

const shapes: Record<string, Shape> = {
  'nested parentheses': {
    source: (d) => kernelOf(`out[0] = ${rep('n + (', d)}n${rep(')', d)};`),
    accepted: 98,
    refusedAt: '3:500',
    refusedText: 'n + (n)',
    dawnRefuses: 127,
    expected: (d, { n }) => u32((d + 1) * n),
  },
  'a + chain': {
    source: (d) => kernelOf(`out[0] = n${rep(' + n', d)};`),
    accepted: 98,
    refusedAt: '3:10',
    refusedText: 'n + n',
    dawnRefuses: 127,
    expected: (d, { n }) => u32((d + 1) * n),
  },
  'a * chain': {
    source: (d) => kernelOf(`out[0] = n${rep(' * n', d)};`),
    accepted: 98,
    refusedAt: '3:10',
    refusedText: 'n * n',
    dawnRefuses: 127,
    expected: (d, { n }) => u32(BigInt(n) ** BigInt(d + 1) % 2n ** 32n),
  },
  'an && chain': {
    source: (d) => kernelOf(`out[0] = u32(n > b${rep(' && n > b', d)}) + n;`),
    accepted: 95,
    refusedAt: '3:14',
    refusedText: 'n > b && n > b',
    dawnRefuses: 124,
    expected: (_d, { n, b }) => u32(n + (n > b ? 1 : 0)),
  },
  'unary minus': {
    source: (d) => kernelOf(`const x = i32(n); out[0] = u32(${rep('-(', d)}x${rep(')', d)});`),
    accepted: 48,
    refusedAt: '3:130',
    refusedText: 'x)',
    dawnRefuses: 64,
    expected: (d, { n }) => u32(d % 2 === 0 ? n : -n),
  },
  '!': {
    source: (d) => kernelOf(`out[0] = u32(${rep('!', d)}(n > 0));`),
    accepted: 47,
    refusedAt: '3:63',
    refusedText: 'n > 0)',
    dawnRefuses: 62,
    // An odd count: 1 where n is 0 (drawn so half the time), 0 elsewhere.
    expected: (d, { n }) => (n > 0 !== (d % 2 === 1) ? 1 : 0),
    inputs: (i) => ({ ...i, n: i.b % 2 === 0 ? 0 : i.n }),
  },
  '~': {
    source: (d) => kernelOf(`out[0] = ${rep('~', d)}n;`),
    accepted: 49,
    refusedAt: '3:60',
    refusedText: 'n;',
    dawnRefuses: 64,
    expected: (d, { n }) => (d % 2 === 0 ? n : u32(~n)),
  },
  'nested indexing': {
    source: (d) => kernelOf(`out[0] = ${rep('a[', d)}n${rep(']', d)};`),
    accepted: 97,
    refusedAt: '3:206',
    refusedText: 'n]',
    dawnRefuses: 126,
    expected: (d, { n, a }) => {
      let v = n;
      for (let k = 0; k < d; k++) v = a[v]!;
      return v;
    },
    inputs: (i) => ({ ...i, n: i.n % VEC_LENGTH, a: i.a.map((x) => x % VEC_LENGTH) }),
  },
  'nested builtin calls': {
    source: (d) => kernelOf(`out[0] = ${rep('Math.max(b, ', d)}n${rep(')', d)};`),
    accepted: 97,
    refusedAt: '3:1183',
    refusedText: 'b, n)',
    dawnRefuses: 126,
    expected: (_d, { n, b }) => Math.max(n, b),
  },
  'nested device-function calls': {
    source: (d) => kernelOf(`out[0] = ${rep('f(', d)}n${rep(')', d)};`, INCREMENT),
    accepted: 97,
    refusedAt: '4:206',
    refusedText: 'n)',
    dawnRefuses: 126,
    expected: (d, { n }) => u32(n + d),
  },
  'nested ?:': {
    source: (d) => kernelOf(`out[0] = ${rep('n > b ? n : (', d)}b${rep(')', d)};`),
    accepted: 96,
    refusedAt: '3:1258',
    refusedText: 'n > b ? n : (b)',
    dawnRefuses: 125,
    expected: (_d, { n, b }) => (n > b ? n : b),
  },
  'nested if': {
    source: (d) => kernelOf(`${rep('if (n > 0) { ', d)}out[0] = n;${rep(' }', d)}`),
    accepted: 48,
    refusedAt: '3:629',
    refusedText: 'n > 0) { out[0] = n; }',
    dawnRefuses: 63,
    expected: (_d, { n }) => n,
    inputs: (i) => ({ ...i, n: (i.n | 1) >>> 0 }),
  },
  'else if chain': {
    source: (d) =>
      kernelOf(
        `if (n === 0) { out[0] = b; }${Array.from({ length: d }, (_, k) => ` else if (n === ${k + 1}) { out[0] = b + ${k + 1}; }`).join('')}`,
      ),
    accepted: 47,
    refusedAt: '3:1913',
    refusedText: 'out[0] = b + 48;',
    dawnRefuses: 62,
    expected: (_d, { n, b }) => u32(b + n),
    inputs: (i, d) => ({ ...i, n: i.n % (d + 1) }),
  },
  'nested blocks': {
    source: (d) => kernelOf(`let s = n; ${rep('{ ', d)}s += 1;${rep(' }', d)} out[0] = s;`),
    accepted: 98,
    refusedAt: '3:210',
    refusedText: 's += 1;',
    dawnRefuses: 126,
    expected: (_d, { n }) => u32(n + 1),
  },
  'a swizzle chain': {
    source: (d) => kernelOf(`const v = vec4u(n, b, n, b); out[0] = v${rep('.yxwz', d)}.x;`),
    accepted: 398,
    refusedAt: '3:39',
    refusedText: 'v.yxwz.yxwz',
    dawnRefuses: 512,
    expected: (d, { n, b }) => (d % 2 === 0 ? n : b),
  },
};

const MODULE = 'nesting/deep.sycl.ts';
const POISON = 0xdeadbeef;

function refusal(source: string) {
  const { program, diagnostics } = build([{ module: MODULE, source }]);
  return { program, diagnostics };
}

describe.each(Object.entries(shapes))('%s', (name, shape) => {
  test('the deepest the check accepts builds and runs as written', async () => {
    const [n, b, ...rest] = randomU32(2 + VEC_LENGTH, name.length * 7919);
    const drawn: Inputs = { n: n!, b: b!, a: Uint32Array.from(rest) };
    const inputs = shape.inputs?.(drawn, shape.accepted) ?? drawn;
    const program = buildProgram({ [MODULE]: shape.source(shape.accepted) });
    const out = new Uint32Array(1).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#k`,
      range: [1],
      args: { out, a: inputs.a, n: inputs.n, b: inputs.b },
    });
    const expected = shape.expected(shape.accepted, inputs);
    expect(expected).not.toBe(POISON);
    expect(new Uint32Array(result.accessors.out!)[0]).toBe(expected);
  });

  test('one level more is refused at the first node past the limit', () => {
    const source = shape.source(shape.accepted + 1);
    const { program, diagnostics } = refusal(source);
    expect(program).toBeNull();
    expect(diagnostics).toHaveLength(1);
    const [d] = diagnostics;
    expect(d!.code).toBe('SYCL1010');
    expect(d!.message).toMatch(/nests deeper than WGSL compilers accept \(at most \d+ levels of/);
    expect(`${d!.span!.line}:${d!.span!.column}`).toBe(shape.refusedAt);
    const line = source.split('\n')[d!.span!.line - 1]!;
    expect(line.slice(d!.span!.column - 1)).toMatch(
      new RegExp(`^${shape.refusedText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  test('the depth Dawn refuses is refused by the build', () => {
    const { program, diagnostics } = refusal(shape.source(shape.dawnRefuses));
    expect(program).toBeNull();
    expect(diagnostics.map((d) => d.code)).toEqual(['SYCL1010']);
  });
});

test('the messages name the limits', () => {
  const parse = refusal(shapes['nested parentheses']!.source(99)).diagnostics[0]!;
  expect(parse.message).toBe(
    'this code nests deeper than WGSL compilers accept (at most 100 levels of brackets, operators and blocks)',
  );
  const statements = refusal(shapes['nested blocks']!.source(99)).diagnostics[0]!;
  expect(statements.message).toBe(
    'this statement nests deeper than WGSL compilers accept (at most 100 levels of nested blocks and statements)',
  );
  const expressions = refusal(shapes['a swizzle chain']!.source(399)).diagnostics[0]!;
  expect(expressions.message).toBe(
    'this expression nests deeper than WGSL compilers accept (at most 400 levels of operations, accesses and calls)',
  );
});

test('an initializer the emitter writes at each use counts there', () => {
  // `m` is fixed at pipeline creation (specialization constants are overrides): the emitter
  // writes its initializer in place of each use, 60 + 60 levels deep.
  const depth = 60;
  const source = kernelOf(
    `const f = _kh.getSpecializationConstant(factor); const m = ${rep('f + (', depth)}f${rep(')', depth)}; out[0] = ${rep('n + (', depth)}m${rep(')', depth)};`,
    `import { specializationId } from '@syclts/dsl';\nexport const factor = specializationId(u32, 7);\n`,
  );
  const { program, diagnostics } = refusal(source);
  expect(program).toBeNull();
  expect(diagnostics.map((d) => d.code)).toEqual(['SYCL1010']);
  // Each alone is well within the limit.
  const shallow = kernelOf(
    `const f = _kh.getSpecializationConstant(factor); const m = ${rep('f + (', depth)}f${rep(')', depth)}; out[0] = n + m;`,
    `import { specializationId } from '@syclts/dsl';\nexport const factor = specializationId(u32, 7);\n`,
  );
  expect(refusal(shallow).diagnostics).toEqual([]);
});
