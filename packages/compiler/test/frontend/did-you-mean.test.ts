/** Unknown names in device code come with the nearest name in scope as a hint. */
import { expect, test } from 'vitest';
import { compileModule } from '../../src/index.js';

const HEADER = "import { accessor, f32, kernel, u32, workgroupArray } from '@syclts/dsl';\n";

function only(source: string) {
  const { diagnostics } = compileModule(HEADER + source, { module: 'hint.sycl.ts' });
  expect(diagnostics).toHaveLength(1);
  return diagnostics[0]!;
}

test('a misspelt local names the local', () => {
  const d =
    only(`export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
  const total = u32(3);
  out[item.getId(0)] = totl;
});`);
  expect(d).toMatchObject({
    code: 'SYCL1011',
    message: '`totl` is not defined in device code',
    hint: 'did you mean `total`?',
  });
});

test('a misspelt top-level const names it', () => {
  const d = only(`const scale = 3;
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
  out[item.getId(0)] = u32(scael);
});`);
  expect(d.hint).toBe('did you mean `scale`?');
});

test('a misspelt kernel argument names the argument', () => {
  const d =
    only(`export const k = kernel({ range: 1, args: { output: accessor(u32, 'write') } }, (item, kh, a) => {
  a.outptu[item.getId(0)] = 1;
});`);
  expect(d).toMatchObject({
    message: 'the kernel has no argument `outptu`',
    hint: 'did you mean `output`?',
  });
});

test('a name far from everything in scope gets no guess', () => {
  const d =
    only(`export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
  out[item.getId(0)] = zebra;
});`);
  expect(d.message).toBe('`zebra` is not defined in device code');
  expect(d.hint).toBeUndefined();
});
