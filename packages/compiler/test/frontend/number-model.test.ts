/**
 * The number model: constants fold as WGSL evaluates them (abstract integers exact and 64-bit,
 * concrete constant expressions checked for overflow, NaN and infinity, zero divisors through
 * consts, crossed clamp bounds), the f32 range is the ABI's (what rounds to a finite f32 fits),
 * printed literals are ones Tint accepts, and `Math.round` keeps JavaScript's rule in f32.
 * Accepted kernels run on the adapter; refused ones are checked for code, message and position.
 */
import { F32_MAX } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/build.js';
import { buildProgram, type Launch, runKernel } from './gpu.js';

const MODULE = 'numbers/model.sycl.ts';
/** One module per kernel, so that each test stands or falls alone. */
const SOURCES: Readonly<Record<string, string>> = {
  bitwise: `
import { accessor, f32, i32, kernel, u32 } from '@syclts/dsl';

export const bitwise = kernel({ range: 1, args: { out: accessor(u32, 'write'), x: u32 } },
  (item, _kh, { out, x }) => {
    out[0] = 0xFFFF0000 | 0xFF;
    out[1] = x ^ (0xF0F0F0F0 & 0xFFFF0000);
    out[2] = ~0 & 0xFFFFFFFF;
    out[3] = 0x80000000 >> 4;
    out[4] = (2 ** 53 + 1) - 2 ** 53;
    out[5] = x | (1 << 31);
  });
`,
  extremes: `
import { accessor, f32, i32, kernel, u32 } from '@syclts/dsl';

export const extremes = kernel({ range: 1, args: { f: accessor(f32, 'write'), n: accessor(i32, 'write'), x: i32 } },
  (item, _kh, { f, n, x }) => {
    f[0] = 3.4028235e38;
    f[1] = -3.40282347e38;
    f[2] = 3.4028234663852886e38;
    n[0] = -2147483648;
    n[1] = x | -2147483648;
  });
`,
  round: `
import { accessor, f32, i32, kernel, u32 } from '@syclts/dsl';

export const round = kernel({ range: 1, args: { out: accessor(f32, 'write'), v: accessor(f32, 'read') } },
  (item, _kh, { out, v }) => {
    const i = item.getId(0);
    out[i] = Math.round(v[i]!);
  });
`,
  roundConstants: `
import { accessor, f32, i32, kernel, u32 } from '@syclts/dsl';

export const roundConstants = kernel({ range: 1, args: { out: accessor(f32, 'write') } },
  (item, _kh, { out }) => {
    out[0] = Math.round(0.49999997);
    out[1] = Math.round(8388609);
    out[2] = Math.round(-8388609);
    out[3] = Math.round(2.5);
    out[4] = Math.round(-2.5);
    out[5] = Math.round(-0.5);
    out[6] = Math.round(16777215);
    out[7] = Math.round(-1.5);
  });
`,
  roundAtomic: `
import { accessor, atomic, atomicAdd, f32, kernel, u32 } from '@syclts/dsl';

export const roundAtomic = kernel({ range: 1, args: { out: accessor(f32, 'write'), hits: accessor(atomic(u32), 'read_write') } },
  (item, _kh, { out, hits }) => {
    out[item.getId(0)] = Math.round(f32(atomicAdd(hits[0]!, 2)));
  });
`,
  roundNested: `
import { accessor, f32, kernel } from '@syclts/dsl';

export const roundNested = kernel({ range: 1, args: { out: accessor(f32, 'write'), v: accessor(f32, 'read') } },
  (item, _kh, { out, v }) => {
    const i = item.getId(0);
    out[i] = ${'Math.round('.repeat(30)}Math.round(Math.round(v[i]! * 2.5) * 0.5)${')'.repeat(30)};
  });
`,
  specDefault: `
import { accessor, f32, kernel, specializationId } from '@syclts/dsl';

export const big = specializationId(f32, 3.4028235e38);
export const specDefault = kernel({ range: 1, args: { out: accessor(f32, 'write') } },
  (item, kh, { out }) => {
    out[0] = kh.getSpecializationConstant(big);
  });
`,
};

function program(name: string) {
  return buildProgram({ [MODULE]: SOURCES[name]! });
}

/** Builds the kernel's module and runs it. */
function run(name: string, launch: Omit<Launch, 'kernel'>) {
  return runKernel(program(name), { ...launch, kernel: `${MODULE}#${name}` });
}

const POISON = 0xdeadbeef;

describe('integer constants fold as WGSL abstract integers', () => {
  test('bitwise operators are exact on 32-bit and wider values', async () => {
    const x = randomU32(1, 301)[0]!;
    const out = new Uint32Array(6).fill(POISON);
    const result = await run('bitwise', {
      range: [1],
      args: { out, x },
    });
    expect([...new Uint32Array(result.accessors.out!)]).toEqual([
      0xffff00ff,
      (x ^ 0xf0f00000) >>> 0,
      0xffffffff,
      0x08000000,
      1,
      (x | 0x80000000) >>> 0,
    ]);
  });
});

describe('random constant expressions fold to what WGSL computes', () => {
  test('u32 results of &, |, ^, >>, + and * on fresh 32-bit constants', async () => {
    const r = randomU32(64, 304);
    const hex = (x: number) => `0x${x.toString(16)}`;
    const cases = Array.from({ length: 16 }, (_, k) => {
      const a = r[4 * k]!;
      const b = r[4 * k + 1]!;
      const small = [r[4 * k + 2]! >>> 1, r[4 * k + 3]! >>> 1] as const;
      const s = r[4 * k + 2]! % 32;
      return [
        [`${hex(a)} & ${hex(b)}`, (a & b) >>> 0],
        [`${hex(a)} | ${hex(b)}`, (a | b) >>> 0],
        [`${hex(a)} ^ ${hex(b)}`, (a ^ b) >>> 0],
        [`${hex(a)} >> ${s}`, a >>> s],
        [`(${hex(a)} + ${hex(b)}) % 0x100000000`, (a + b) % 2 ** 32],
        [
          `(${hex(small[0])} * ${hex(small[1])}) % 0x100000000`,
          Number((BigInt(small[0]) * BigInt(small[1])) % 2n ** 32n),
        ],
      ] as const;
    }).flat();
    const source = `
import { accessor, kernel, u32 } from '@syclts/dsl';
export const folded = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
${cases.map(([text], k) => `  out[${k}] = ${text};`).join('\n')}
});
`;
    const program = buildProgram({ [MODULE]: source });
    const out = new Uint32Array(cases.length).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#folded`,
      range: [1],
      args: { out },
    });
    const got = [...new Uint32Array(result.accessors.out!, 0, cases.length)];
    expect(got).toEqual(cases.map(([, expected]) => expected));
  });
});

describe('extreme values are printed so that Tint accepts them', () => {
  test('f32 values that round to the largest f32, and the most negative i32', async () => {
    const x = randomU32(1, 302)[0]! & 0x7fffffff;
    const f = new Float32Array(3).fill(1.5);
    const n = new Int32Array(2).fill(POISON | 0);
    const result = await run('extremes', {
      range: [1],
      args: { f, n, x },
    });
    expect([...new Float32Array(result.accessors.f!, 0, 3)]).toEqual([F32_MAX, -F32_MAX, F32_MAX]);
    expect([...new Int32Array(result.accessors.n!, 0, 2)]).toEqual([-(2 ** 31), x | -(2 ** 31)]);
  });
});

describe('the build and the runtime share one f32 range', () => {
  test('a specialization constant default that rounds to the largest f32', async () => {
    const out = new Float32Array(1).fill(1.5);
    const result = await run('specDefault', { range: [1], args: { out } });
    expect(new Float32Array(result.accessors.out!)[0]).toBe(F32_MAX);
  });
});

describe('Math.round rounds halves toward +Infinity, exactly in f32', () => {
  const EDGES = [
    0.49999997, -0.49999997, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 8388609, 8388611, -8388609, 16777215,
    -16777215, 4194304.5, -4194304.5, 4194305.5, 0.7, -0.7, 1e10, -1e10, 3,
  ];

  test('edge values and random ones, against Math.round(Math.fround(v))', async () => {
    const bits = randomU32(1024, 303);
    const v = new Float32Array(1024);
    for (let i = 0; i < v.length; i++) {
      const r = bits[i]!;
      // Halves, values near 2^23 and 2^24, small fractions and arbitrary finite floats.
      const kind = i % 4;
      v[i] =
        i < EDGES.length
          ? EDGES[i]!
          : kind === 0
            ? ((r % 2 ** 20) - 2 ** 19) / 2
            : kind === 1
              ? (r % 2 ** 25) * (r & 1 ? 1 : -1)
              : kind === 2
                ? (r / 2 ** 32 - 0.5) * 8
                : new Float32Array(new Uint32Array([r & 0xbfffffff]).buffer)[0]!;
    }
    const out = new Float32Array(1024).fill(Number.NaN);
    const result = await run('round', {
      range: [1024],
      args: { out, v },
    });
    const got = [...new Float32Array(result.accessors.out!)];
    const expected = [...v].map((x) => Math.round(x));
    const wrong = got.flatMap((g, i) => (g === expected[i] ? [] : [`${v[i]} -> ${g}`]));
    expect(wrong).toEqual([]);
  });

  test('with constant arguments, folded by WGSL', async () => {
    const out = new Float32Array(8).fill(Number.NaN);
    const result = await run('roundConstants', {
      range: [1],
      args: { out },
    });
    const values = [0.49999997, 8388609, -8388609, 2.5, -2.5, -0.5, 16777215, -1.5];
    expect([...new Float32Array(result.accessors.out!)]).toEqual(
      values.map((x) => Math.round(Math.fround(x)) + 0),
    );
  });

  test('an argument with an atomic is evaluated once (a helper function, not a repeated expression)', async () => {
    const n = 64;
    // Odd integers from 2^23 up, which floor(x + 0.5) would round up.
    const start = 2 ** 23 + 1 + 2 * (randomU32(1, 305)[0]! % 2 ** 20);
    const out = new Float32Array(n).fill(Number.NaN);
    const hits = new Uint32Array([start]);
    const result = await run('roundAtomic', { range: [n], args: { out, hits } });
    // Each item's atomicAdd ran once: the counter moved by 2n, and the items saw n distinct values.
    expect(new Uint32Array(result.accessors.hits!)[0]).toBe(start + 2 * n);
    const got = [...new Float32Array(result.accessors.out!)].sort((a, b) => a - b);
    expect(got).toEqual(Array.from({ length: n }, (_, k) => start + 2 * k));
    expect(program('roundAtomic').images[0]!.wgsl.native!).toMatch(
      /fn H_js_round_f32\(x: f32\) -> f32 \{/,
    );
  });
});

/** Builds a kernel with `body`; expects it refused with `code` and `message` at `at` in the body. */
function expectRefused(
  prelude: string,
  body: string,
  code: string,
  message: string,
  at: string,
  local = '',
) {
  const kernelLine = `export const k = kernel({ ndRange: 1, workgroupSize: [1], args: { out: accessor(u32, 'read_write'), outf: accessor(f32, 'read_write'), outi: accessor(i32, 'read_write') }${local} }, (item, _kh, { out, outf, outi }) => { const i = item.getGlobalId(0); ${body} });`;
  const lines = [
    "import { accessor, bitcastF32, clamp, deviceFunction, f32, i32, kernel, u32, workgroupArray } from '@syclts/dsl';",
    'const MIXED = [1, true];',
    prelude,
    kernelLine,
  ];
  const { program: built, diagnostics } = build([
    { module: 'refused.sycl.ts', source: lines.join('\n') },
  ]);
  expect(built).toBeNull();
  expect(diagnostics).toHaveLength(1);
  const [d] = diagnostics;
  expect(d!.code).toBe(code);
  expect(d!.message).toContain(message);
  expect(d!.span && { line: d!.span.line, column: d!.span.column }).toEqual({
    line: 4,
    column: kernelLine.indexOf(at, body.includes(at) ? kernelLine.indexOf(body) : 0) + 1,
  });
}

describe('constant expressions WGSL rejects are refused at their source span', () => {
  test.each([
    [
      'u32 overflow',
      'out[i] = u32(4294967295) + 1;',
      '4294967295 + 1 overflows u32',
      'u32(4294967295) +',
    ],
    [
      'i32 overflow',
      'outi[i] = i32(2147483647) * 2;',
      '2147483647 * 2 overflows i32',
      'i32(2147483647) *',
    ],
    [
      'i32 overflow through a const',
      'const m = 2147483647; outi[i] = m + 1;',
      'overflows i32',
      'm + 1',
    ],
    [
      'a left shift that loses bits',
      'out[i] = u32(3) << 31;',
      '3 << 31 overflows u32',
      'u32(3) <<',
    ],
    ['a NaN', 'outf[i] = 0 / 0;', 'NaN', '0 / 0'],
    ['an infinity', 'outf[i] = 1 / 0;', 'overflows f32', '1 / 0'],
    ['an f32 overflow', 'outf[i] = f32(3e38) * 2;', 'overflows f32', 'f32(3e38) *'],
    ['a folded Math.sqrt(-1)', 'outf[i] = Math.sqrt(-1);', 'NaN', 'Math.sqrt'],
    [
      'an infinite bit cast',
      'outf[i] = bitcastF32(0x7f800000);',
      'the bits 0x7f800000 are an f32 infinity',
      'bitcastF32(',
    ],
    ['a folded log(0)', 'outf[i] = Math.log(0) + outf[i]!;', 'overflows f32', 'Math.log'],
  ])('%s', (_name, body, message, at) => {
    expectRefused('', body, 'SYCL1024', message, at);
  });

  test.each([
    ['a const zero', 'const z = 0; outi[i] = i32(i) / z;', 'division by a constant zero', 'z;'],
    ['k - k', 'const k = 3; outi[i] = i32(i) % (k - k);', 'remainder by a constant zero', 'k - k'],
    [
      'a compound assignment',
      'const z = u32(0); out[i] /= z;',
      'division by a constant zero',
      'z;',
    ],
    ['a wide shift through a const', 'const s = u32(40); out[i] = i << s;', 'a shift by 40', 's;'],
  ])('integer division by %s', (_name, body, message, at) => {
    expectRefused('', body, 'SYCL1024', message, at);
  });

  test('clamp with constant bounds low > high', () => {
    expectRefused(
      '',
      'outf[i] = clamp(f32(i), 2, 1);',
      'SYCL1024',
      "clamp's low bound 2 is above its high bound 1",
      'clamp(',
    );
  });

  test('a constant array mixing numbers and booleans', () => {
    expectRefused(
      '',
      'const t = MIXED; out[i] = u32(t[i % 2]!);',
      'SYCL1012',
      'the elements of [1, true] have different types: i32 and bool',
      'MIXED;',
    );
  });

  test('a workgroup array whose length overflows u32', () => {
    expectRefused(
      '',
      'out[i] = 1;',
      'SYCL1006',
      "the workgroup array's length 65536 × 65536 = 4294967296 does not fit in u32",
      's: workgroupArray',
      ', local: { s: workgroupArray(u32, 65536, 65536) }',
    );
  });
});

test('checking constants stays linear in the nesting of operators', () => {
  const sum = `${'i + ('.repeat(80)}i${')'.repeat(80)}`;
  const source = `
import { accessor, kernel, u32 } from '@syclts/dsl';
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { const i = item.getId(0); out[i] = ${sum}; });
`;
  const started = performance.now();
  const { program: built, diagnostics } = build([{ module: 'nested.sycl.ts', source }]);
  expect(diagnostics).toEqual([]);
  expect(built).not.toBeNull();
  expect(performance.now() - started).toBeLessThan(10_000);
});

test('a deeply nested Math.round stays linear and rounds at each level', async () => {
  const v = new Float32Array(randomU32(16, 306)).map((x) => (x % 2 ** 16) / 64 - 512);
  const out = new Float32Array(16).fill(Number.NaN);
  const result = await run('roundNested', { range: [16], args: { out, v } });
  const round = (x: number) => Math.round(x) + 0;
  expect([...new Float32Array(result.accessors.out!)]).toEqual(
    [...v].map((x) => round(round(x * 2.5) * 0.5)),
  );
  const code = program('roundNested').images[0]!.wgsl.native!;
  expect(code.length).toBeLessThan(10_000);
});

test('the length of an array longer than any u32 is refused at `.length`, not an internal error', () => {
  const source = `import { accessor, array, bool, deviceGlobal, kernel, u32 } from '@syclts/dsl';
const G = deviceGlobal(array(bool, 2 ** 128));
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  out[0] = u32(G.value.length);
});`;
  const { program, diagnostics } = build([{ module: 'src/len.sycl.ts', source }]);
  expect(program).toBeNull();
  expect(diagnostics[0]).toMatchObject({ code: 'SYCL1013', span: { line: 4, column: 16 } });
  expect(diagnostics[0]!.message).toMatch(
    /^`G\.value\.length` is 3\.4\d*e\+38, which no u32 holds/,
  );
});
