/**
 * Large device globals: a 16 MiB global given a few values builds, and its program and
 * property sets describe its value and layout in space that follows its source and type, not its
 * length; globals past WebGPU's default binding size are SYCL2022 at the declaration, found
 * without any work per element.
 */
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Program } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { build } from '../../src/build.js';
import { runCli } from '../../src/cli/index.js';

const MODULE = 'src/big.sycl.ts';
const MIB16 = (16 * 1024 * 1024) / 4;

const source = (length: number | string, initial = ', {}, [5, 6, 7]') =>
  `import { accessor, array, deviceGlobal, kernel, struct, u32 } from '@syclts/dsl';
export const big = deviceGlobal(array(u32, ${length})${initial});
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[item.getId(0)] = big.value[item.getId(0)]!; });
`;

function at(text: string, needle: string) {
  const before = text.slice(0, text.indexOf(needle)).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

test('syclts build of a 16 MiB global writes its initial value and layout, not its elements', async () => {
  const root = await mkdtemp(join(tmpdir(), 'syclts-big-'));
  await writeFile(join(root, 'big.sycl.ts'), source(MIB16));
  const output: string[] = [];
  const code = await runCli(['build', 'big.sycl.ts', '--out-dir', 'out'], {
    cwd: root,
    stdout: (s) => output.push(s),
    stderr: (s) => output.push(s),
  });
  expect({ code, output: output.join('') }).toEqual({
    code: 0,
    output: 'syclts: 1 device image written to out\n',
  });
  const properties = JSON.parse(
    await readFile(join(root, 'out', '0-big.sycl.ts.properties.json'), 'utf8'),
  );
  const global = properties['SYCL/device globals']['big.sycl.ts#big'];
  expect(global.size).toBe(16 * 1024 * 1024);
  expect(global.initialValue).toEqual([5, 6, 7]);
  expect(global.layout).toEqual([
    { offset: 0, size: 4, scalar: 'u32', path: ['*'], repeat: [{ count: MIB16, stride: 4 }] },
  ]);
  expect((await stat(join(root, 'out', '0-big.sycl.ts.properties.json'))).size).toBeLessThan(16384);
  const program = JSON.parse(await readFile(join(root, 'out', 'program.json'), 'utf8')) as Program;
  expect(program.programGlobals.globals['big.sycl.ts#big']!.initialValue).toEqual([5, 6, 7]);
});

test('a struct and array initial value keeps only what the source gives', () => {
  const text = `import { array, deviceGlobal, kernel, struct, u32, accessor } from '@syclts/dsl';
const Cell = struct({ a: u32, b: array(u32, 1000) });
export const cells = deviceGlobal(array(Cell, 4096), {}, [{ b: [0, 9] }, {}, { a: 4 }]);
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[0] = cells.value[item.getId(0)]!.a; });
`;
  const { program, diagnostics } = build([{ module: MODULE, source: text }]);
  expect(diagnostics).toEqual([]);
  expect(program!.programGlobals.globals[`${MODULE}#cells`]!.initialValue).toEqual([
    { b: [0, 9] },
    {},
    { a: 4 },
  ]);
});

test('128 MiB builds; 16 bytes more is SYCL2022 at the declaration, naming both limits', () => {
  const limit = 134217728 / 4;
  expect(build([{ module: MODULE, source: source(limit) }]).diagnostics).toEqual([]);
  const text = source(limit + 4);
  const { program, diagnostics } = build([{ module: MODULE, source: text }]);
  expect(program).toBeNull();
  expect(diagnostics.map((d) => [d.code, d.message, d.span])).toEqual([
    [
      'SYCL2022',
      `device global '${MODULE}#big' takes 134217744 bytes; WebGPU's default maxStorageBufferBindingSize is 134217728 bytes (and maxBufferSize 268435456)`,
      expect.objectContaining(at(text, 'big = deviceGlobal')),
    ],
  ]);
});

test('globals that fill the program buffer past the limit are refused at the one that crosses it', () => {
  const text = `import { array, deviceGlobal, u32 } from '@syclts/dsl';
export const first = deviceGlobal(array(u32, ${(100 * 1024 * 1024) / 4}));
export const second = deviceGlobal(array(u32, ${(30 * 1024 * 1024) / 4}));
`;
  const { program, diagnostics } = build([{ module: MODULE, source: text }]);
  expect(program).toBeNull();
  expect(diagnostics.map((d) => [d.code, d.message, d.span])).toEqual([
    [
      'SYCL2022',
      `device global '${MODULE}#second' ends at byte ${130 * 1024 * 1024} of the program's buffer of device globals, which kernels bind whole; WebGPU's default maxStorageBufferBindingSize is 134217728 bytes (and maxBufferSize 268435456)`,
      expect.objectContaining(at(text, 'second = deviceGlobal')),
    ],
  ]);
});

test('a 2^31-element global with an initial value is refused in well under a second', () => {
  const text = source(2 ** 31, ', {}, [1]');
  const started = performance.now();
  const { program, diagnostics } = build([{ module: MODULE, source: text }]);
  const elapsed = performance.now() - started;
  expect(program).toBeNull();
  expect(diagnostics.map((d) => d.code)).toEqual(['SYCL2022']);
  expect(diagnostics[0]!.message).toContain(`takes ${2 ** 33} bytes`);
  expect(elapsed).toBeLessThan(500);
});
