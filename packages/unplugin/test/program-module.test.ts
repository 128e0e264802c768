import { PROGRAM_FORMAT_VERSION, type Program } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { rootRelativePath } from '../src/module-path.js';
import { findPlaceholders, PROGRAM_MODULE_CODE, programLiteral } from '../src/program-module.js';

const program: Program = {
  version: PROGRAM_FORMAT_VERSION,
  images: [
    {
      id: 'src/a.sycl.ts',
      wgsl: { native: '@id(0) override sc_0: u32 = 7u;\n// "quotes", `ticks` and \\ backslashes' },
      specConstants: {},
      emulation: null,
      launchSlots: null,
      deviceGlobals: {},
      imageGlobalsSize: 0,
      kernels: {},
    },
  ],
  programGlobals: { size: 0, globals: {} },
};

test('the placeholder is found in any quoting a minifier may choose', () => {
  const literal = PROGRAM_MODULE_CODE.match(/JSON\.parse\((.*)\)/)![1]!;
  const body = literal.slice(1, -1);
  for (const quote of ['"', "'", '`']) {
    const code = `const a = 1;var p=JSON.parse(${quote}${body}${quote});f(p);`;
    const [place, ...rest] = findPlaceholders(code);
    expect(rest).toEqual([]);
    expect(code.slice(place!.start, place!.end)).toBe(`${quote}${body}${quote}`);
  }
  expect(findPlaceholders(`x = "${body}'`)).toEqual([]);
});

test('the replacement is a JavaScript string literal that parses back to the program', () => {
  const literal = programLiteral(program);
  expect(literal).not.toContain('\n');
  const evaluated = new Function(`return JSON.parse(${literal});`)() as Program;
  expect(evaluated).toEqual(program);
});

test('module paths are root-relative with forward slashes and no query', () => {
  expect(rootRelativePath('/work/app', '/work/app/src/k.sycl.ts?v=123')).toBe('src/k.sycl.ts');
  expect(rootRelativePath('/work/app', '/work/lib/k.sycl.ts')).toBe('../lib/k.sycl.ts');
  expect(rootRelativePath('/work/app', 'src/k.sycl.ts')).toBe('src/k.sycl.ts');
});
