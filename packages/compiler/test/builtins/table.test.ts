/**
 * The built-in table is the one source: docs/device-code.md's list, the DSL's exports, the
 * compiler's overloads and reserved names and the interpreter's implementations all agree with
 * it. Overload resolution and its messages are checked on refused builds.
 */
import { readFileSync } from 'node:fs';
import * as dsl from '@syclts/dsl';
import { BUILTIN_TABLE, MATH_FORMS } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { build } from '../../src/build.js';
import { BUILTINS, MATH_BUILTINS } from '../../src/builtins/overloads.js';
import { WGSL_FUNCTIONS } from '../../src/builtins/wgsl-functions.js';
import { INTERPRETED_BUILTINS } from '../../src/interpret/index.js';
import { Namer } from '../../src/link/wgsl-names.js';

const entries = Object.entries(BUILTIN_TABLE) as [string, dsl.BuiltinEntry][];
const dslNames = entries.filter(([, e]) => e.dsl !== false).map(([n]) => n);
const mathNames = entries.flatMap(([, e]) => (e.math ? [e.math] : []));

/** Names in `a` and not in `b`. */
const missing = (a: Iterable<string>, b: Iterable<string>) => {
  const has = new Set(b);
  return [...a].filter((x) => !has.has(x));
};

test('the docs, the DSL, the compiler and the interpreter list the same built-ins as the table', () => {
  const docs = readFileSync(new URL('../../../../docs/device-code.md', import.meta.url), 'utf8');
  const paragraph = docs.slice(docs.indexOf('- Built-ins, one line each'));
  // The code spans of the paragraph that list several names.
  const lists = paragraph
    .slice(0, paragraph.indexOf('\n- '))
    .split('`')
    .filter((text, i) => i % 2 === 1 && /^[a-zA-Z0-9]+(\s+[a-zA-Z0-9]+)+$/.test(text))
    .map((text) => text.split(/\s+/));
  const [docsMath, docsForms, docsDsl] = lists;
  const exported = Object.entries(dsl).flatMap(([n, v]) => (typeof v === 'function' ? [n] : []));
  const interpreted = [...BUILTINS.values()].map((b) => b.wgsl);
  const reserved = [...BUILTINS.values()]
    .filter((b) => !b.entry.helper)
    .map((b) => b.wgsl.replace(/<.*/, ''))
    .filter((n) => Namer.module().call(n) === n);
  expect({
    'in the table, not in docs/device-code.md (Math)': missing(mathNames, docsMath ?? []),
    'in docs/device-code.md (Math), not in the table': missing(docsMath ?? [], mathNames),
    'Math forms in the table, not in docs/device-code.md': missing(
      Object.keys(MATH_FORMS),
      docsForms ?? [],
    ),
    'in the table, not in docs/device-code.md (DSL)': missing(dslNames, docsDsl ?? []),
    'in docs/device-code.md (DSL), not in the table': missing(docsDsl ?? [], dslNames),
    'in the table, not exported by @syclts/dsl': missing(dslNames, exported),
    'in the table, not in the compiler': missing(
      entries.map(([n]) => n),
      BUILTINS.keys(),
    ),
    'in the table, not under Math in the compiler': missing(mathNames, MATH_BUILTINS.keys()),
    'in the table, not in the interpreter': missing(interpreted, INTERPRETED_BUILTINS),
    'WGSL functions of the table a generated name may take': reserved,
    'WGSL functions of the table missing from WGSL_FUNCTIONS': missing(
      [...BUILTINS.values()].filter((b) => !b.entry.helper).map((b) => b.wgsl.replace(/<.*/, '')),
      WGSL_FUNCTIONS,
    ),
  }).toEqual({
    'in the table, not in docs/device-code.md (Math)': [],
    'in docs/device-code.md (Math), not in the table': [],
    'Math forms in the table, not in docs/device-code.md': [],
    'in the table, not in docs/device-code.md (DSL)': [],
    'in docs/device-code.md (DSL), not in the table': [],
    'in the table, not exported by @syclts/dsl': [],
    'in the table, not in the compiler': [],
    'in the table, not under Math in the compiler': [],
    'in the table, not in the interpreter': [],
    'WGSL functions of the table a generated name may take': [],
    'WGSL functions of the table missing from WGSL_FUNCTIONS': [],
  });
});

/** Builds `body` in a kernel; the single diagnostic, and no program. */
function refused(body: string) {
  const line = `export const k = kernel({ range: 1, args: { out: accessor(f32, 'write'), n: i32 } }, (item, _kh, { out, n }) => { ${body} });`;
  const source = [
    "import { accessor, clamp, cross, dot, f32, i32, kernel, vec2f, vec3f, vec3i } from '@syclts/dsl';",
    line,
  ].join('\n');
  const { program, diagnostics } = build([{ module: 'b.sycl.ts', source }]);
  expect(program).toBeNull();
  expect(diagnostics).toHaveLength(1);
  const d = diagnostics[0]!;
  return {
    code: d.code,
    message: d.message,
    at: d.span && `${d.span.line}:${d.span.column}`,
    line,
  };
}

test('a call no overload takes is refused, listing the overloads', () => {
  const r = refused('out[0] = clamp(out[0]!, n, out[0]!);');
  expect(r.code).toBe('SYCL1012');
  expect(r.message).toBe(
    'no overload of clamp takes (f32, i32, f32): clamp(T, T, T) -> T, clamp(vecN<T>, vecN<T>, vecN<T>) -> vecN<T> where T is f32, f16, i32 or u32',
  );
  expect(r.at).toBe(`2:${r.line.indexOf('clamp(') + 1}`);
});

test('vector sizes and element types must agree', () => {
  const sizes = refused('out[0] = dot(vec2f(1, 2), vec3f(1, 2, 3));');
  expect(sizes.code).toBe('SYCL1012');
  expect(sizes.message).toContain('no overload of dot takes (vec2<f32>, vec3<f32>)');
  const cross = refused('out[0] = cross(vec3i(1, 2, 3), vec3i(1, 2, 3)).x;');
  expect(cross.message).toContain('where T is f32 or f16');
  expect(cross.at).toBe(`2:${cross.line.indexOf('cross(') + 1}`);
});

test('Math.clz32 and a wrong argument count name the call as written', () => {
  const r = refused('out[0] = f32(Math.clz32(1, 2));');
  expect(r).toMatchObject({ code: 'SYCL1014', message: 'Math.clz32 takes 1 argument(s), not 2' });
});
