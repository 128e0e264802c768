/**
 * WGSL's limits (the specification's "Limits" table) as build diagnostics: device code at each
 * limit builds and runs on the adapter; one past it is refused at its source position, so the
 * GPU's compiler never sees it.
 */
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/build.js';
import { buildProgram, runKernel } from './gpu.js';

const MODULE = 'src/wgsl-limits.sycl.ts';
const HEADER = `import { accessor, array, deviceFunction, deviceGlobal, kernel, struct, u32 } from '@syclts/dsl';\n`;
const POISON = 0xdeadbeef;
const id = (name: string) => `${MODULE}#${name}`;

function refusedWith(source: string, code: string) {
  const text = HEADER + source;
  const { program, diagnostics } = build([{ module: MODULE, source: text }]);
  expect(program).toBeNull();
  // The first diagnostic is the limit's; uses of what it refused may follow.
  expect(diagnostics[0]?.code).toBe(code);
  return { diagnostic: diagnostics[0]!, text };
}

function position(text: string, needle: string) {
  const before = text.slice(0, text.indexOf(needle)).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

const list = (n: number, item: (i: number) => string, separator = ', ') =>
  Array.from({ length: n }, (_, i) => item(i)).join(separator);

describe('function memory: 8192 bytes of locals per function', () => {
  const copying = (length: number) => `export const table = deviceGlobal(array(u32, ${length}));
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  const i = item.getId(0);
  const copy = table.value;
  out[i] = copy[i * 7]! + 1;
});\n`;

  test('a kernel whose locals take 8192 bytes builds and runs', async () => {
    // The copy's 8188 bytes and the 4 of `i`.
    const program = buildProgram({ [MODULE]: HEADER + copying(2047) });
    const table = randomU32(2047, 201);
    const out = new Uint32Array(64).fill(POISON);
    const result = await runKernel(program, {
      kernel: id('k'),
      range: [64],
      args: { out },
      deviceGlobals: { [id('table')]: table },
    });
    const expected = Array.from({ length: 64 }, (_, i) => (table[i * 7]! + 1) >>> 0);
    expect(Array.from(new Uint32Array(result.accessors.out!))).toEqual(expected);
  });

  test('8196 bytes are SYCL1050 at the local', () => {
    const { diagnostic, text } = refusedWith(copying(2048), 'SYCL1050');
    expect(diagnostic.message).toBe(
      'the locals of kernel `k` take 8196 bytes, array<u32, 2048> `copy` among them; WGSL allows 8192 bytes of function memory per function',
    );
    expect(diagnostic.span).toMatchObject(position(text, 'copy = table.value'));
  });

  test('locals add up, in a device function too, and the one that passes the limit is named', () => {
    const source = `export const table = deviceGlobal(array(u32, 1024));
const f = deviceFunction({ args: [u32], returns: u32 }, (i) => {
  const a = table.value;
  let b = table.value;
  b[0] = i;
  const c = [i, i];
  return a[i]! + b[i]! + c[0]!;
});
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  out[0] = f(item.getId(0));
});\n`;
    const { diagnostic, text } = refusedWith(source, 'SYCL1050');
    expect(diagnostic.message).toContain('the locals of device function `f` take 8200 bytes');
    expect(diagnostic.message).toContain('`c` among them');
    expect(diagnostic.span).toMatchObject(position(text, 'c = [i, i]'));
  });
});

describe('array value constructors: 2047 elements', () => {
  test('a 2047-element literal builds and runs', async () => {
    const values = randomU32(2047, 202);
    const source = `export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  const i = item.getId(0);
  const t = [${list(2047, (i) => `u32(${values[i]})`)}];
  out[i] = t[i * 31]!;
});\n`;
    const program = buildProgram({ [MODULE]: HEADER + source });
    const out = new Uint32Array(66).fill(POISON);
    const result = await runKernel(program, { kernel: id('k'), range: [66], args: { out } });
    const expected = Array.from({ length: 66 }, (_, i) => values[i * 31]!);
    expect(Array.from(new Uint32Array(result.accessors.out!))).toEqual(expected);
  });

  test('2048 elements are SYCL1051 at the literal', () => {
    const source = `export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  const t = [${list(2048, (i) => `${i}`)}];
  out[0] = u32(t[item.getId(0)]!);
});\n`;
    const { diagnostic, text } = refusedWith(source, 'SYCL1051');
    expect(diagnostic.message).toBe(
      'this array has 2048 elements; a WGSL array value constructor takes at most 2047',
    );
    expect(diagnostic.span).toMatchObject(position(text, '[0, 1, 2'));
  });

  test('a top-level constant table of 2048 elements is SYCL1051 where device code uses it', () => {
    const source = `const TABLE = [${list(2048, (i) => `${i}`)}];
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, _kh, { out }) => {
  out[0] = u32(TABLE[item.getId(0)]!);
});\n`;
    const { diagnostic, text } = refusedWith(source, 'SYCL1051');
    expect(diagnostic.span).toMatchObject(position(text, 'TABLE[item'));
  });
});

describe('struct members: 1023', () => {
  const withFields = (n: number) => `const Wide = struct({ ${list(n, (i) => `f${i}: u32`)} });
export const wide = deviceGlobal(Wide);
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), x: u32 } }, (item, _kh, { out, x }) => {
  wide.value.f${n - 1} = x;
  out[0] = wide.value.f${n - 1} + wide.value.f0;
  out[1] = wide.value.f${n - 2};
});\n`;

  test('a struct of 1023 fields builds and runs', async () => {
    const program = buildProgram({ [MODULE]: HEADER + withFields(1023) });
    const [x, ...initial] = randomU32(1024, 203);
    const out = new Uint32Array(2).fill(POISON);
    const result = await runKernel(program, {
      kernel: id('k'),
      range: [1],
      args: { out, x: x! },
      deviceGlobals: { [id('wide')]: Uint32Array.from(initial) },
    });
    expect(Array.from(new Uint32Array(result.accessors.out!, 0, 2))).toEqual([
      (x! + initial[0]!) >>> 0,
      initial[1021]!,
    ]);
    expect(new Uint32Array(result.deviceGlobals[id('wide')]!)[1022]).toBe(x);
  });

  test('1024 fields are SYCL1052 at the struct', () => {
    const { diagnostic, text } = refusedWith(withFields(1024), 'SYCL1052');
    expect(diagnostic.message).toBe('this struct has 1024 fields; WGSL allows at most 1023');
    expect(diagnostic.span).toMatchObject(position(text, 'struct({ f0'));
  });
});

describe('function parameters: 255', () => {
  const withParams = (
    n: number,
  ) => `const f = deviceFunction({ args: [${list(n, () => 'u32')}], returns: u32 },
  (${list(n, (i) => `p${i}`)}) => p0 * 3 + p${n - 1});
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), x: u32 } }, (item, _kh, { out, x }) => {
  const i = item.getId(0);
  out[i] = f(i, ${list(n - 2, () => '0')}, x);
});\n`;

  test('a device function of 255 parameters builds and runs', async () => {
    const program = buildProgram({ [MODULE]: HEADER + withParams(255) });
    const x = randomU32(1, 204)[0]!;
    const out = new Uint32Array(8).fill(POISON);
    const result = await runKernel(program, { kernel: id('k'), range: [8], args: { out, x } });
    const expected = Array.from({ length: 8 }, (_, i) => (i * 3 + x) >>> 0);
    expect(Array.from(new Uint32Array(result.accessors.out!))).toEqual(expected);
  });

  test('256 parameters are SYCL1053 at the function spec', () => {
    const { diagnostic, text } = refusedWith(withParams(256), 'SYCL1053');
    expect(diagnostic.message).toBe('`f` takes 256 parameters; a WGSL function takes at most 255');
    expect(diagnostic.span).toMatchObject(position(text, '{ args: [u32'));
  });
});

describe('a function at the parameter limit that reads a specialization constant', () => {
  const source = `export const bias = specializationId(u32, 5);
const f = deviceFunction({ args: [kernelHandler, ${list(255, () => 'u32')}], returns: u32 },
  (kh, ${list(255, (i) => `p${i}`)}) => p0 * 3 + p254 + kh.getSpecializationConstant(bias));
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), x: u32 } }, (item, kh, { out, x }) => {
  const i = item.getId(0);
  out[i] = f(kh, i, ${list(253, () => '0')}, x);
});\n`;
  const header = `import { accessor, deviceFunction, kernel, kernelHandler, specializationId, u32 } from '@syclts/dsl';\n`;

  test('builds and runs natively', async () => {
    const program = buildProgram({ [MODULE]: header + source });
    const [x, bias] = randomU32(2, 205);
    const out = new Uint32Array(8).fill(POISON);
    const result = await runKernel(program, {
      kernel: id('k'),
      range: [8],
      args: { out, x: x! },
      specConstants: { [id('bias')]: bias! },
    });
    const expected = Array.from({ length: 8 }, (_, i) => (i * 3 + x! + bias!) >>> 0);
    expect(Array.from(new Uint32Array(result.accessors.out!))).toEqual(expected);
  });

  test("is SYCL2023 at the function under specConstants 'emulated', where it takes the launch slot too", () => {
    const text = header + source;
    const { program, diagnostics } = build([{ module: MODULE, source: text }], {
      specConstants: 'emulated',
    });
    expect(program).toBeNull();
    expect(diagnostics.map((d) => [d.code, d.message, d.span])).toEqual([
      [
        'SYCL2023',
        `device function '${MODULE}#f' takes 255 parameters and reads specialization constants, so its emulated variant takes the launch slot as one more, past WGSL's 255`,
        expect.objectContaining(position(text, 'f = deviceFunction')),
      ],
    ]);
  });
});

describe('native composite specialization constants: rebuilt with array constructors', () => {
  const withTable = (
    length: number,
  ) => `import { accessor, array, kernel, specializationId, u32 } from '@syclts/dsl';
export const table = specializationId(array(u32, ${length}));
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
  const i = item.getId(0);
  out[i] = kh.getSpecializationConstant(table)[i * 29]!;
});\n`;

  test('an array of 2047 builds and runs natively', async () => {
    const program = buildProgram({ [MODULE]: withTable(2047) });
    const values = randomU32(2047, 206);
    const out = new Uint32Array(70).fill(POISON);
    const result = await runKernel(program, {
      kernel: id('k'),
      range: [70],
      args: { out },
      specConstants: { [id('table')]: Array.from(values) },
    });
    const expected = Array.from({ length: 70 }, (_, i) => values[i * 29]!);
    expect(Array.from(new Uint32Array(result.accessors.out!))).toEqual(expected);
  });

  test('an array of 2048 (8192 bytes, within private memory) is SYCL2009 natively', () => {
    const text = withTable(2048);
    const { program, diagnostics } = build([{ module: MODULE, source: text }]);
    expect(program).toBeNull();
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        'SYCL2009',
        `the composite specialization constants of kernel '${MODULE}#k' hold an array of 2048 elements, which the native variant builds with a WGSL array value constructor of at most 2047; build with specConstants 'emulated' or 'both'`,
      ],
    ]);
    expect(
      build([{ module: MODULE, source: text }], { specConstants: 'both' }).diagnostics,
    ).toEqual([]);
  });
});

describe('composite nesting depth: 15', () => {
  const nested = (depth: number) =>
    Array.from({ length: depth - 1 }).reduce<string>((t) => `array(${t}, 1)`, 'array(u32, 2)');
  const withDepth = (depth: number) => `export const deep = deviceGlobal(${nested(depth)});
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write'), x: u32 } }, (item, _kh, { out, x }) => {
  deep.value${'[0]'.repeat(depth - 1)}[1] = x + deep.value${'[0]'.repeat(depth)};
  out[0] = deep.value${'[0]'.repeat(depth - 1)}[1]!;
});\n`;

  test('a type 15 levels deep builds and runs', async () => {
    const program = buildProgram({ [MODULE]: HEADER + withDepth(15) });
    const [x, first] = randomU32(2, 207);
    const out = new Uint32Array(1).fill(POISON);
    const result = await runKernel(program, {
      kernel: id('k'),
      range: [1],
      args: { out, x: x! },
      deviceGlobals: { [id('deep')]: new Uint32Array([first!, POISON]) },
    });
    expect(new Uint32Array(result.accessors.out!)[0]).toBe((x! + first!) >>> 0);
  });

  test('16 levels are SYCL1054 at the level that passes the limit', () => {
    const { diagnostic, text } = refusedWith(withDepth(16), 'SYCL1054');
    expect(diagnostic.message).toBe(
      'this type nests 16 levels deep (arrays, structs, vectors 1 and matrices 2 each); WGSL allows 15',
    );
    expect(diagnostic.span).toMatchObject(position(text, 'array(array'));
  });
});
