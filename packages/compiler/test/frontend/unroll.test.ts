/**
 * `for (const i of unroll(...))`: the body written out once per value. On the adapter and in the
 * reference interpreter, unrolled kernels compute what the same loops compute on the CPU (a
 * register tile indexed by the unrolled counters, nested unrolls with a start and a step, an
 * ordinary loop with `break` inside a copy); the WGSL holds one block per value and no loop;
 * every misuse is refused at its place with SYCL1033, and a mistake in the body once.
 */
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/build.js';
import { interpretKernel } from '../../src/interpret/index.js';
import { buildProgram, gpuDevice, linkSources, runKernel } from './gpu.js';

const M = 'src/unrolled.sycl.ts';
const SOURCE = `
import { accessor, f32, kernel, u32, unroll, vec4f } from '@syclts/dsl';

const STEPS = 4;

/** out[i] = sum over j < 4 of (j + 1) * x[4i + j], through a private array of partial sums. */
export const tile = kernel({ range: 1, args: { x: accessor(f32, 'read'), out: accessor(f32, 'write') } },
  (item, _kh, { x, out }) => {
    const i = item.getId(0);
    const acc = [f32(0), f32(0), f32(0), f32(0)];
    for (const j of unroll(STEPS)) {
      acc[j] = f32(j + 1) * x[i * 4 + j]!;
    }
    let s = f32(0);
    for (const j of unroll(0, STEPS, 1)) {
      s += acc[j]!;
    }
    out[i] = s;
  });

/** Nested unrolls with a start and a step, a vector indexed by the counter, a loop with break. */
export const nested = kernel({ range: 1, args: { x: accessor(u32, 'read'), out: accessor(u32, 'write') } },
  (item, _kh, { x, out }) => {
    const i = item.getId(0);
    let s = u32(0);
    for (const a of unroll(2, 11, 3)) {
      for (const b of unroll(2)) {
        s += a * x[i * 2 + b]!;
        for (let k = u32(0); k < 100; k++) {
          if (k === a) {
            break;
          }
          s += 1;
        }
      }
    }
    const v = vec4f(1, 2, 3, 4);
    let w = f32(0);
    for (const c of unroll(4)) {
      w += v[c]!;
    }
    out[i] = s + u32(w);
  });
`;

const n = 64 + (randomU32(1, 0x77)[0]! % 64);
console.log(`[syclts] unroll: n=${n}`);
const xs = Float32Array.from(randomU32(4 * n, 0x78), (v) => (v % 1000) / 8);
const us = Uint32Array.from(randomU32(2 * n, 0x79), (v) => v % 100000);

function expected() {
  const tile = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const parts = [0, 1, 2, 3].map((j) => Math.fround((j + 1) * xs[4 * i + j]!));
    let s = 0;
    for (const p of parts) s = Math.fround(s + p);
    tile[i] = s;
  }
  const nested = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (const a of [2, 5, 8]) for (const b of [0, 1]) s += a * us[2 * i + b]! + a;
    nested[i] = (s + 10) >>> 0;
  }
  return { tile, nested };
}

describe('unrolled loops compute what the loops compute', () => {
  const want = expected();
  const launches = {
    tile: { args: () => ({ x: xs, out: new Float32Array(n).fill(Number.NaN) }), want: want.tile },
    nested: {
      args: () => ({ x: us, out: new Uint32Array(n).fill(0xdeadbeef) }),
      want: want.nested,
    },
  } as const;

  test.each(['tile', 'nested'] as const)('%s, on the adapter', async (name) => {
    const program = buildProgram({ [M]: SOURCE });
    const { args, want } = launches[name];
    const result = await runKernel(program, { kernel: `${M}#${name}`, range: [n], args: args() });
    const out = result.accessors.out!;
    const got = name === 'tile' ? new Float32Array(out) : new Uint32Array(out);
    expect([...got]).toEqual([...want]);
  });

  test.each(['tile', 'nested'] as const)('%s, in the reference interpreter', (name) => {
    const linked = linkSources({ [M]: SOURCE });
    const { args, want } = launches[name];
    const { accessors } = interpretKernel(linked.images, {
      kernel: `${M}#${name}`,
      range: [n],
      args: args(),
    });
    const out = accessors.out!;
    const got = name === 'tile' ? new Float32Array(out) : new Uint32Array(out);
    expect([...got]).toEqual([...want]);
  });

  test('the WGSL has one block per value binding its counter, and no loop for the unrolled ones', () => {
    const { program, diagnostics } = build([{ module: M, source: SOURCE }]);
    expect(diagnostics).toEqual([]);
    const wgsl = program!.images[0]!.wgsl.native!;
    const tile = wgsl.slice(wgsl.indexOf('fn k_tile'));
    expect(tile).not.toMatch(/\bfor\b/);
    expect(tile.match(/let j: u32 = \du;/g)).toEqual(
      ['0u', '1u', '2u', '3u', '0u', '1u', '2u', '3u'].map((v) => `let j: u32 = ${v};`),
    );
    expect(tile).toContain('acc[j] = f32(j + 1u) * a_tile_x[(i * 4u) + j];');
    const nested = wgsl.slice(wgsl.indexOf('fn k_nested'), wgsl.indexOf('fn k_tile'));
    expect(nested.match(/let a: u32 = \d+u;/g)).toEqual([
      'let a: u32 = 2u;',
      'let a: u32 = 5u;',
      'let a: u32 = 8u;',
    ]);
    expect(nested.match(/\bfor \(/g)).toHaveLength(6);
  });
});

describe('unroll used wrongly is refused at its place (SYCL1033)', () => {
  function diagnosticsOf(body: string) {
    const source = `import { accessor, kernel, specializationId, u32, unroll } from '@syclts/dsl';
const size = specializationId(u32, 4);
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } },
  (item, kh, { out, n }) => {
    let s = u32(0);
${body}
    out[item.getId(0)] = s;
  });
`;
    const { diagnostics } = build([{ module: M, source }]);
    return diagnostics.map((d) => ({
      code: d.code,
      message: d.message,
      text: d.span ? source.slice(d.span.start, d.span.end) : null,
    }));
  }

  const cases: readonly [string, string, string, string][] = [
    [
      'for ... of over an array',
      'for (const x of [1, 2]) { s += x; }',
      'device code loops `for ... of` over `unroll(...)` only, not `[1, 2]`',
      '[1, 2]',
    ],
    [
      'a let counter',
      'for (let i of unroll(4)) { s += i; }',
      '`for ... of unroll(...)` declares one `const` name',
      'let i',
    ],
    [
      'a destructured counter',
      'for (const [i] of unroll(4)) { s += 1; }',
      '`for ... of unroll(...)` declares one `const` name',
      'const [i]',
    ],
    [
      'a bound known at run time',
      'for (const i of unroll(n)) { s += i; }',
      "`unroll`'s end must be a non-negative integer constant known at build time, not `n`",
      'n',
    ],
    [
      'a specialization constant',
      'for (const i of unroll(kh.getSpecializationConstant(size))) { s += i; }',
      "`unroll`'s end must be a non-negative integer constant",
      'kh.getSpecializationConstant(size)',
    ],
    [
      'a negative start',
      'for (const i of unroll(-1, 4)) { s += i; }',
      "`unroll`'s start must be a non-negative integer constant known at build time, not `-1`",
      '-1',
    ],
    [
      'a fractional end',
      'for (const i of unroll(2.5)) { s += i; }',
      "`unroll`'s end must be a non-negative integer constant known at build time, not `2.5`",
      '2.5',
    ],
    [
      'a step of zero',
      'for (const i of unroll(0, 4, 0)) { s += i; }',
      "`unroll`'s step must be a positive integer constant known at build time, not `0`",
      '0',
    ],
    [
      'too many copies',
      'for (const i of unroll(0, 1000)) { s += i; }',
      '`unroll` would write the body out 1000 times, more than 256',
      'unroll(0, 1000)',
    ],
    [
      'nested unrolls past the limit together',
      'for (const i of unroll(20)) { for (const j of unroll(20)) { s += i * j; } }',
      '`unroll` would write the body out 400 times with the unrolls around it, more than 256',
      'unroll(20)',
    ],
    [
      'four arguments',
      'for (const i of unroll(0, 4, 1, 1)) { s += i; }',
      '`unroll` takes 1 to 3 arguments (end; or start, end and step), not 4',
      'unroll(0, 4, 1, 1)',
    ],
    [
      'a break that would leave a copy',
      'for (const i of unroll(4)) { if (i === n) { break; } s += i; }',
      '`break` cannot leave an unrolled loop',
      'break;',
    ],
    [
      'a continue that would leave a copy',
      'for (const i of unroll(4)) { if (i === n) { continue; } s += i; }',
      '`continue` cannot leave an unrolled loop',
      'continue;',
    ],
  ];
  test.each(cases)('%s', (_what, body, message, text) => {
    const found = diagnosticsOf(`    ${body}`);
    expect(found.map((d) => d.code)).toEqual(['SYCL1033']);
    expect(found[0]!.message).toContain(message);
    expect(found[0]!.text).toBe(text);
  });

  test('a mistake in the body is reported once, not once per copy', () => {
    const found = diagnosticsOf('    for (const i of unroll(8)) { s += missing; }');
    expect(found).toEqual([expect.objectContaining({ code: 'SYCL1011', text: 'missing' })]);
  });

  test('a copy accepts what the loop accepts: a division by the counter at zero runs as WGSL says', async () => {
    const source = `import { accessor, kernel, u32, unroll } from '@syclts/dsl';
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), n: u32 } }, (item, _kh, { out, n }) => {
  let s = u32(0);
  for (const i of unroll(3)) { s += n / i; }
  out[item.getId(0)] = s;
});`;
    const { diagnostics } = build([{ module: M, source }]);
    expect(diagnostics).toEqual([]);
    const n = 7 + (randomU32(1, 0x7a)[0]! % 1000);
    const out = new Uint32Array(1).fill(0xdeadbeef);
    const result = await runKernel(buildProgram({ [M]: source }), {
      kernel: `${M}#k`,
      range: [1],
      args: { out, n },
    });
    // WGSL: an integer divided by zero is the integer itself.
    expect(new Uint32Array(result.accessors.out!)[0]).toBe(n + n + Math.floor(n / 2));
  });

  test("the body may declare the counter's name again, as in JS: Dawn accepts the WGSL", async () => {
    const source = `import { accessor, kernel, u32, unroll } from '@syclts/dsl';
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  let s = u32(0);
  for (const i of unroll(3)) { const i = u32(7); s += i; }
  out[item.getId(0)] = s;
});`;
    const { program, diagnostics } = build([{ module: M, source }]);
    expect(diagnostics).toEqual([]);
    const module = (await gpuDevice()).createShaderModule({
      code: program!.images[0]!.wgsl.native!,
    });
    const { messages } = await module.getCompilationInfo();
    expect(messages.filter((m) => m.type === 'error')).toEqual([]);
    const out = new Uint32Array(1).fill(0xdeadbeef);
    const result = await runKernel(buildProgram({ [M]: source }), {
      kernel: `${M}#k`,
      range: [1],
      args: { out },
    });
    expect(new Uint32Array(result.accessors.out!)[0]).toBe(21);
  });

  test('an empty range writes nothing out', () => {
    expect(diagnosticsOf('    for (const i of unroll(3, 3)) { s += i; }')).toEqual([]);
  });
});
