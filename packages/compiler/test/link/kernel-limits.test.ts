/**
 * WebGPU's default limits per kernel (workgroup size, invocations, workgroup memory, storage
 * buffers): a kernel at a limit builds and runs on the adapter; one past it is SYCL2021 at the
 * size, array or kernel that needs it, unless its spec declares `requiredLimits`.
 */
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/build.js';
import type { Diagnostic } from '../../src/index.js';
import { buildProgram, runKernel } from '../frontend/gpu.js';

const MODULE = 'src/limits.sycl.ts';
const HEADER = `import { accessor, kernel, specializationId, u32, workgroupArray } from '@syclts/dsl';\n`;
const POISON = 0xdeadbeef;

function refused(source: string): readonly Diagnostic[] {
  const { program, diagnostics } = build([{ module: MODULE, source: HEADER + source }]);
  expect(program).toBeNull();
  return diagnostics;
}

/** Line and column (1-based) of the first occurrence of `needle` in the module's text. */
function at(source: string, needle: string): { line: number; column: number } {
  const text = HEADER + source;
  const index = text.indexOf(needle);
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

function only(diagnostics: readonly Diagnostic[], code: string): Diagnostic[] {
  const found = diagnostics.filter((d) => d.code === code);
  expect(found, diagnostics.map((d) => `${d.code} ${d.message}`).join('\n')).not.toHaveLength(0);
  return found;
}

describe('workgroup size', () => {
  test('256 items in one dimension build and run', async () => {
    const source = `export const wide = kernel(
  { ndRange: 1, workgroupSize: [256], args: { out: accessor(u32, 'write'), x: u32 } },
  (item, _kh, { out, x }) => { out[item.getGlobalId(0)] = item.getLocalId(0) * 3 + x; });\n`;
    const program = buildProgram({ [MODULE]: HEADER + source });
    const x = randomU32(1, 101)[0]!;
    const out = new Uint32Array(512).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#wide`,
      range: [512],
      args: { out, x },
    });
    const expected = Array.from({ length: 512 }, (_, i) => ((i % 256) * 3 + x) >>> 0);
    expect(Array.from(new Uint32Array(result.accessors.out!))).toEqual(expected);
  });

  test('64 items in WGSL z (SYCL dimension 0) build and run; 65 are refused there', async () => {
    const ok = `export const deep = kernel(
  { ndRange: 3, workgroupSize: [64, 2, 2], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[item.getGlobalLinearId()] = item.getLocalId(0) + 100; });\n`;
    const program = buildProgram({ [MODULE]: HEADER + ok });
    const out = new Uint32Array(256).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#deep`,
      range: [64, 2, 2],
      args: { out },
    });
    const got = new Uint32Array(result.accessors.out!);
    expect(Array.from(got)).toEqual(Array.from({ length: 256 }, (_, i) => (i >> 2) + 100));

    const bad = `export const deep = kernel(
  { ndRange: 3, workgroupSize: [65, 1, 1], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const [d] = only(refused(bad), 'SYCL2021');
    expect(d!.message).toContain('maxComputeWorkgroupSizeZ 65');
    expect(d!.message).toContain('over 64');
    expect(d!.span).toMatchObject(at(bad, '65, 1, 1'));
  });

  test('a specialization constant whose default sizes a dimension at 0 is refused at the size', () => {
    const source = `export const block = specializationId(u32, 0);
export const empty = kernel(
  { ndRange: 2, workgroupSize: [4, block], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const [d] = only(refused(source), 'SYCL2021');
    expect(d!.message).toBe(
      "kernel 'src/limits.sycl.ts#empty' has a work-group size of 0 in dimension 1 (with the specialization constants at their default values): WebGPU needs at least 1",
    );
    expect(d!.span).toMatchObject(at(source, 'block]'));
  });

  test('257 items are refused at the size, naming both limits', () => {
    const source = `export const wide = kernel(
  { ndRange: 1, workgroupSize: [257], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const found = only(refused(source), 'SYCL2021');
    expect(found.map((d) => d.message.match(/needs (\w+ \d+)/)?.[1])).toEqual([
      'maxComputeWorkgroupSizeX 257',
      'maxComputeInvocationsPerWorkgroup 257',
    ]);
    for (const d of found) {
      expect(d.message).toContain("over 256, WebGPU's default limit");
      expect(d.message).toContain('requiredLimits');
      expect(d.span).toMatchObject(at(source, '257]'));
    }
  });

  test('16 x 32 items are refused: 512 invocations', () => {
    const source = `export const square = kernel(
  { ndRange: 2, workgroupSize: [16, 32], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const [d] = only(refused(source), 'SYCL2021');
    expect(d!.message).toContain('needs maxComputeInvocationsPerWorkgroup 512');
    expect(d!.message).toContain('32 x 16 x 1');
  });

  test('a size from a specialization constant is checked at its default value, and says so', () => {
    const source = `export const tile = specializationId(u32, 300);
export const tiled = kernel(
  { ndRange: 1, workgroupSize: [tile], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const [d] = only(refused(source), 'SYCL2021');
    expect(d!.message).toContain('maxComputeWorkgroupSizeX 300');
    expect(d!.message).toContain('default values');
    expect(d!.span).toMatchObject(at(source, 'tile]'));
  });

  test('requiredLimits lets the build accept more, and the program carries it', () => {
    const source = `export const wide = kernel(
  { ndRange: 1, workgroupSize: [1024], requiredLimits: { maxComputeWorkgroupSizeX: 1024, maxComputeInvocationsPerWorkgroup: 1024 }, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const { program, diagnostics } = build([{ module: MODULE, source: HEADER + source }]);
    expect(diagnostics).toEqual([]);
    expect(program!.images[0]!.kernels[`${MODULE}#wide`]!.requiredLimits).toEqual({
      maxComputeWorkgroupSizeX: 1024,
      maxComputeInvocationsPerWorkgroup: 1024,
    });
  });

  test('a declared value below what the kernel needs is refused', () => {
    const source = `export const wide = kernel(
  { ndRange: 1, workgroupSize: [1024], requiredLimits: { maxComputeWorkgroupSizeX: 1024, maxComputeInvocationsPerWorkgroup: 512 }, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const [d] = only(refused(source), 'SYCL2021');
    expect(d!.message).toContain('needs maxComputeInvocationsPerWorkgroup 1024');
    expect(d!.message).toContain('over 512, the value its requiredLimits declares; raise it');
  });
});

describe('workgroup memory', () => {
  test('16384 bytes build and run', async () => {
    const source = `export const shared = kernel(
  { ndRange: 1, workgroupSize: [256], args: { out: accessor(u32, 'write'), x: u32 }, local: { tile: workgroupArray(u32, 4096) } },
  (item, _kh, { out, x }, { tile }) => {
    const l = item.getLocalId(0);
    for (let k = u32(0); k < 16; k++) { tile[l * 16 + k] = l + k + x; }
    item.barrier();
    out[item.getGlobalId(0)] = tile[(255 - l) * 16 + 15]!;
  });\n`;
    const program = buildProgram({ [MODULE]: HEADER + source });
    const x = randomU32(1, 102)[0]!;
    const out = new Uint32Array(256).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#shared`,
      range: [256],
      args: { out, x },
    });
    const expected = Array.from({ length: 256 }, (_, l) => (255 - l + 15 + x) >>> 0);
    expect(Array.from(new Uint32Array(result.accessors.out!))).toEqual(expected);
  });

  test('16400 bytes are refused at the array that crosses the limit', () => {
    const source = `export const shared = kernel(
  { ndRange: 1, workgroupSize: [64], args: { out: accessor(u32, 'write') }, local: { small: workgroupArray(u32, 4), big: workgroupArray(u32, 4096) } },
  (item, _kh, { out }, { small, big }) => { small[0] = 1; big[0] = 2; out[0] = small[0]! + big[0]!; });\n`;
    const [d] = only(refused(source), 'SYCL2021');
    expect(d!.message).toContain('needs maxComputeWorkgroupStorageSize 16400');
    expect(d!.message).toContain('over 16384');
    expect(d!.span).toMatchObject(at(source, 'big: workgroupArray'));
  });

  test('each array counts rounded up to 16 bytes, as WebGPU counts it', () => {
    const source = `export const shared = kernel(
  { ndRange: 1, workgroupSize: [64], args: { out: accessor(u32, 'write') }, local: { a: workgroupArray(u32, 1), b: workgroupArray(u32, 4093) } },
  (item, _kh, { out }, { a, b }) => { a[0] = 1; b[0] = 2; out[0] = a[0]! + b[0]!; });\n`;
    const [d] = only(refused(source), 'SYCL2021');
    expect(d!.message).toContain('needs maxComputeWorkgroupStorageSize 16400');
  });

  test('requiredLimits accepts more workgroup memory', () => {
    const source = `export const shared = kernel(
  { ndRange: 1, workgroupSize: [64], requiredLimits: { maxComputeWorkgroupStorageSize: 32768 }, args: { out: accessor(u32, 'write') }, local: { big: workgroupArray(u32, 8192) } },
  (item, _kh, { out }, { big }) => { big[0] = 2; out[0] = big[0]!; });\n`;
    const { program, diagnostics } = build([{ module: MODULE, source: HEADER + source }]);
    expect(diagnostics).toEqual([]);
    expect(program).not.toBeNull();
  });
});

describe('storage buffers', () => {
  const kernelWith = (n: number) => {
    const names = Array.from({ length: n }, (_, i) => `a${i}`);
    return `export const many = kernel(
  { range: 1, args: { ${names.map((a) => `${a}: accessor(u32, 'read_write')`).join(', ')} } },
  (item, _kh, { ${names.join(', ')} }) => { const i = item.getId(0); ${names.map((a, k) => `${a}[i] = ${a}[i]! + ${k + 1};`).join(' ')} });\n`;
  };

  test('8 accessors build and run', async () => {
    const program = buildProgram({ [MODULE]: HEADER + kernelWith(8) });
    const inputs = Array.from({ length: 8 }, (_, k) => randomU32(16, 110 + k));
    const result = await runKernel(program, {
      kernel: `${MODULE}#many`,
      range: [16],
      args: Object.fromEntries(inputs.map((a, k) => [`a${k}`, Uint32Array.from(a)])),
    });
    for (const [k, input] of inputs.entries()) {
      const got = Array.from(new Uint32Array(result.accessors[`a${k}`]!));
      expect(got).toEqual(Array.from(input, (v) => (v + k + 1) >>> 0));
    }
  });

  test('9 accessors are refused at the kernel', () => {
    const source = kernelWith(9);
    const [d] = only(refused(source), 'SYCL2021');
    expect(d!.message).toContain('needs maxStorageBuffersPerShaderStage 9');
    expect(d!.message).toContain('over 8');
    expect(d!.span).toMatchObject(at(source, 'many = kernel'));
  });
});

describe('requiredLimits in the spec', () => {
  test('a misspelt limit is SYCL1006 with a suggestion, at the entry', () => {
    const source = `export const k = kernel(
  { range: 1, requiredLimits: { maxComputeInvocationPerWorkgroup: 512 }, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const [d] = only(refused(source), 'SYCL1006');
    expect(d!.message).toContain(
      '`maxComputeInvocationPerWorkgroup` is not a limit a kernel can require',
    );
    expect(d!.hint).toBe('did you mean `maxComputeInvocationsPerWorkgroup`?');
    expect(d!.span).toMatchObject(at(source, 'maxComputeInvocationPerWorkgroup'));
  });

  test('a value that is not a positive integer is SYCL1006 at the value', () => {
    const source = `export const k = kernel(
  { range: 1, requiredLimits: { maxComputeInvocationsPerWorkgroup: 1.5 }, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const [d] = only(refused(source), 'SYCL1006');
    expect(d!.message).toBe(
      'requiredLimits.maxComputeInvocationsPerWorkgroup must be a positive integer constant (a u32)',
    );
    expect(d!.span).toMatchObject(at(source, '1.5'));
  });

  test('a misspelt spec key suggests requiredLimits', () => {
    const source = `export const k = kernel(
  { range: 1, requiredLimit: {}, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = 1; });\n`;
    const [d] = only(refused(source), 'SYCL1006');
    expect(d!.hint).toBe('did you mean `requiredLimits`?');
  });
});
