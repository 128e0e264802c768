/**
 * The invalid corpus (test/corpus/invalid.txt): each input is reported with one diagnostic,
 * whose code, position, highlighted source and message are asserted, and never makes the
 * compiler throw. Every case is compiled below the same import line.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compileModule, formatDiagnostic } from '../../src/index.js';

const HEADER =
  "import { accessor, array, atomic, atomicAdd, atomicAnd, atomicOr, atomicStore, atomicXor, bool, deviceFunction, deviceGlobal, f16, f32, i32, kernel, kernelHandler, specializationId, struct, u32, vec2f, vec3f, wgsl, workgroupArray } from '@syclts/dsl';\n";

const text = readFileSync(new URL('../corpus/invalid.txt', import.meta.url), 'utf8');
const sources = new Map(
  text
    .split(/^=== /m)
    .filter(Boolean)
    .map((c) => {
      const nl = c.indexOf('\n');
      return [c.slice(0, nl), HEADER + c.slice(nl + 1)] as const;
    }),
);

/** [case, code, line:column, highlighted source, message]. */
const expectations: readonly (readonly [string, string, string, string, string])[] = [
  ['syntax error', 'SYCL1001', '2:69', ';', 'Unexpected token'],
  [
    'declaration inside a function',
    'SYCL1002',
    '3:10',
    'specializationId(u32, 1)',
    'specializationId(...) must initialise a top-level const',
  ],
  [
    'declaration with let',
    'SYCL1002',
    '2:16',
    'specializationId(u32)',
    'specializationId(...) must initialise a top-level const',
  ],
  ['type that is not a DSL type', 'SYCL1003', '2:35', 'Number', '`Number` is not a DSL type'],
  [
    'negative default for u32',
    'SYCL1004',
    '2:40',
    '-1',
    'the default of `s` -1 does not fit u32: out of range 0..4294967295',
  ],
  [
    'float default for i32',
    'SYCL1004',
    '2:40',
    '1.5',
    'the default of `s` 1.5 does not fit i32: expected an integer',
  ],
  [
    'array default longer than the array',
    'SYCL1004',
    '2:50',
    '[1, 2, 3, 4]',
    'the default of `s` [1, 2, 3, 4] does not fit array<f32, 3>: expected at most 3 values, found 4',
  ],
  [
    'struct default with an unknown field',
    'SYCL1004',
    '2:63',
    '{ a: 1, c: 2 }',
    'the default of `s` { a: 1, c: 2 } does not fit struct { a: u32, b: f32 }: no field `c`',
  ],
  [
    'number default for bool',
    'SYCL1004',
    '2:41',
    '1',
    'the default of `s` 1 does not fit bool: expected true or false',
  ],
  [
    'atomic specialization constant',
    'SYCL1003',
    '2:35',
    'atomic(u32)',
    'a specialization constant cannot be atomic',
  ],
  [
    'empty array type',
    'SYCL1003',
    '2:35',
    'array(f32, 0)',
    'an array needs at least one element, not 0',
  ],
  [
    'unknown hostAccess',
    'SYCL1005',
    '2:38',
    "hostAccess: 'readonly'",
    "hostAccess is one of 'read', 'write', 'read_write', 'none'",
  ],
  [
    'unknown device global property',
    'SYCL1005',
    '2:38',
    'scope: true',
    'unknown device global property `scope`',
  ],
  [
    'kernel spec without a range',
    'SYCL1006',
    '2:25',
    '{ args: {} }',
    'a kernel spec needs exactly one of `range` (basic) or `ndRange` (with workgroupSize)',
  ],
  ['four dimensions', 'SYCL1006', '2:34', '4', 'the number of dimensions must be 1, 2 or 3'],
  [
    'accessor access mode',
    'SYCL1006',
    '2:62',
    "'rw'",
    "an accessor's access mode is 'read', 'write' or 'read_write'",
  ],
  [
    'accessor of bool',
    'SYCL1003',
    '2:57',
    'bool',
    'accessor elements must be host-shareable, and bool holds a bool',
  ],
  [
    'workgroup size of the wrong length',
    'SYCL1006',
    '2:54',
    '[8]',
    'an nd-range kernel needs workgroupSize: a list of 2 sizes',
  ],
  [
    'workgroup size from a float specialization constant',
    'SYCL1006',
    '3:55',
    'w',
    'a workgroup size must be an integer literal or an i32/u32 specializationId',
  ],
  [
    'workgroup arrays in a basic kernel',
    'SYCL1006',
    '2:47',
    'local: { t: workgroupArray(f32, 4) }',
    'workgroup arrays need an nd-range kernel',
  ],
  ['unknown name', 'SYCL1011', '3:24', 'missing', '`missing` is not defined in device code'],
  [
    'float literal into u32',
    'SYCL1013',
    '3:24',
    '1.5',
    '1.5 is a float literal and does not convert to u32 implicitly',
  ],
  ['negative literal into u32', 'SYCL1013', '3:24', '-1', '-1 does not fit in u32'],
  [
    'i32 plus u32',
    'SYCL1012',
    '4:24',
    'a + item.getId(0)',
    '`+` needs numbers of one type, not i32 + u32',
  ],
  [
    'shift by an i32',
    'SYCL1012',
    '4:24',
    'item.getId(0) << s',
    'the shift amount must be u32, not i32',
  ],
  [
    'logical shift of an i32',
    'SYCL1012',
    '4:12',
    'a >>> 1',
    '`>>>` is a logical shift of a u32, not of i32',
  ],
  ['assignment to a const', 'SYCL1015', '4:3', 'x', '`x` is a const'],
  [
    'write to a read accessor',
    'SYCL1015',
    '3:3',
    'src[item.getId(0)]',
    'accessor `src` is read-only',
  ],
  [
    'assignment to a value argument',
    'SYCL1015',
    '3:3',
    'n',
    'kernel argument `n` cannot be assigned to',
  ],
  [
    'assignment to a function parameter',
    'SYCL1015',
    '3:3',
    'x',
    'parameter `x` cannot be assigned to (WGSL parameters are immutable)',
  ],
  [
    'multi-component swizzle assignment',
    'SYCL1015',
    '4:3',
    'v.xy',
    'WGSL assigns one vector component at a time',
  ],
  ['unknown struct field', 'SYCL1016', '4:18', 'z', 'struct { x: f32, y: f32 } has no field `z`'],
  ['swizzle past the end', 'SYCL1016', '4:14', 'w', '`.w` reads past the end of a vec3<f32>'],
  [
    'constant index out of bounds',
    'SYCL1017',
    '4:14',
    '2',
    'index 2 is out of bounds for array<i32, 2>',
  ],
  [
    'index out of bounds through a const local',
    'SYCL1017',
    '5:14',
    'j',
    'index 3 is out of bounds for array<i32, 2>',
  ],
  ['float index', 'SYCL1017', '4:7', 'x', 'an index must be i32 or u32, not f32'],
  ['kernel returning a value', 'SYCL1018', '3:10', '1', 'a kernel returns no value'],
  [
    'missing return on a path',
    'SYCL1018',
    '2:71',
    '{\n  if (x > 0) {\n    return x;\n  }\n}',
    '`f` must return f32 on every path',
  ],
  [
    'recursion',
    'SYCL1022',
    '2:89',
    'f(n - 1)',
    '`f` is called recursively, which WGSL does not allow',
  ],
  ['wrong argument count', 'SYCL1014', '4:12', 'f(1)', '`f` takes 2 argument(s), not 1'],
  [
    'switch statement',
    'SYCL1010',
    '3:3',
    'switch (n) {\n    default:\n  }',
    '`switch` is not supported in device code',
  ],
  [
    'for-of loop',
    'SYCL1033',
    '3:19',
    '[1, 2]',
    'device code loops `for ... of` over `unroll(...)` only, not `[1, 2]`',
  ],
  ['exponent operator', 'SYCL1010', '3:12', 'out[1] ** 2', '`**` is not supported in device code'],
  ['new expression', 'SYCL1010', '3:13', 'new Date()', '`new` is not supported in device code'],
  [
    'device global without .value',
    'SYCL1016',
    '4:12',
    'g',
    '`g` is a device global: use its `.value`',
  ],
  [
    'specialization constant read directly',
    'SYCL1016',
    '4:12',
    's',
    '`s` is a specialization constant: read it through the kernel handler',
  ],
  [
    'getSpecializationConstant of something else',
    'SYCL1014',
    '3:42',
    'n',
    'getSpecializationConstant takes a specializationId declared at top level',
  ],
  [
    'nd-item query on a basic item',
    'SYCL1016',
    '3:12',
    'item.getGlobalId',
    'an item has no method `getGlobalId`',
  ],
  [
    'dimension out of range',
    'SYCL1014',
    '3:23',
    '1',
    'getId takes a constant dimension from 0 to 0',
  ],
  [
    'barrier in a basic kernel',
    'SYCL1021',
    '3:3',
    'item.barrier()',
    'barriers need an nd-range kernel',
  ],
  [
    'atomic function on a plain u32',
    'SYCL1020',
    '3:13',
    'out[0]',
    'atomic functions need an atomic(i32), atomic(u32) or atomic(f32) place, not u32',
  ],
  [
    'atomic read without atomicLoad',
    'SYCL1020',
    '3:12',
    'c[0]',
    '`c[0]` is atomic: read it with atomicLoad',
  ],
  [
    'a function that returns nothing used as a value',
    'SYCL1012',
    '4:12',
    'count()',
    '`count()` returns nothing',
  ],
  [
    'atomicStore used as a value',
    'SYCL1012',
    '3:18',
    'atomicStore(c[0]!, 1)',
    '`atomicStore(c[0]!, 1)` returns nothing',
  ],
  [
    'atomicOr on an f32 atomic accessor element',
    'SYCL1025',
    '3:3',
    'atomicOr(flags[0]!, 1)',
    'atomicOr works on the bits of an integer: `flags[0]!` is an atomic(f32), which has add, sub, min, max, load, store, exchange and compare-exchange',
  ],
  [
    'atomicXor on an f32 atomic device global, as a value',
    'SYCL1025',
    '4:12',
    'atomicXor(bits, 2)',
    'atomicXor works on the bits of an integer: `bits` is an atomic(f32), which has add, sub, min, max, load, store, exchange and compare-exchange',
  ],
  [
    'atomicAnd on an f32 atomic workgroup array',
    'SYCL1025',
    '3:3',
    'atomicAnd(w[item.getLocalId(0)]!, 0)',
    'atomicAnd works on the bits of an integer: `w[item.getLocalId(0)]!` is an atomic(f32), which has add, sub, min, max, load, store, exchange and compare-exchange',
  ],
  ['atomic of f16', 'SYCL1003', '2:31', 'atomic(f16)', 'atomics hold i32, u32 or f32'],
  [
    'WGSL interpolation of a host value',
    'SYCL1019',
    '2:92',
    'Math.PI',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the message quotes a template placeholder
    '${Math.PI} must name a parameter, a specializationId or a deviceGlobal',
  ],
  [
    'imported type without a loader',
    'SYCL1008',
    '3:35',
    'Params',
    'cannot resolve the type `Params`: `./types.sycl.ts` cannot be read at build time (no import loader was given to the compiler)',
  ],
  [
    'imported function without a loader',
    'SYCL1008',
    '4:12',
    'helper',
    '`helper` cannot be called in device code: `./lib.sycl.ts` cannot be read at build time (no import loader was given to the compiler)',
  ],
  [
    'let without an initial value',
    'SYCL1010',
    '3:7',
    'x',
    '`x` needs an initial value (its WGSL type comes from it)',
  ],
  ['var declaration', 'SYCL1010', '3:3', 'var x = 1;', '`var` is not supported in device code'],
  [
    'object literal without a struct type',
    'SYCL1012',
    '3:13',
    '{ a: 1 }',
    'an object literal needs a struct type from its context',
  ],
  [
    'ternary branches of different types',
    'SYCL1012',
    '3:41',
    'item.getId(0)',
    'both branches must be f32, not u32',
  ],
  [
    'non-bool condition',
    'SYCL1012',
    '3:7',
    'item.getId(0)',
    'an if condition must be bool, not u32',
  ],
  ['atomic value argument', 'SYCL1003', '2:48', 'atomic(u32)', 'a value argument cannot be atomic'],
  [
    'destructuring declaration',
    'SYCL1010',
    '3:9',
    '[a, b]',
    'destructuring is not supported in device code',
  ],
  [
    'deviceFunction args as an object',
    'SYCL1007',
    '2:41',
    '{ a: f32 }',
    '`args` must be an array literal of DSL types, one per parameter',
  ],
  [
    'deviceFunction parameter count',
    'SYCL1007',
    '2:69',
    '(a) => a',
    'args lists 2 type(s) but the function has 1 parameter(s)',
  ],
  [
    'Math function without a WGSL equivalent',
    'SYCL1014',
    '3:12',
    'Math.random',
    'Math.random has no WGSL equivalent',
  ],
  [
    'string in device code',
    'SYCL1010',
    '3:12',
    "'one'",
    "`'one'` is not a device value (numbers and booleans only)",
  ],
  [
    'assignment inside an expression',
    'SYCL1010',
    '4:7',
    'i++',
    '`i++` changes a value inside an expression, which WGSL cannot do',
  ],
  [
    'integer division by a constant zero',
    'SYCL1024',
    '3:28',
    '0',
    'integer division by a constant zero is invalid in WGSL',
  ],
  [
    'shift by a constant of 32',
    'SYCL1024',
    '4:9',
    '32',
    'a shift by 32 is invalid in WGSL: the amount must be less than 32',
  ],
  [
    'recursion through another function',
    'SYCL1022',
    '3:92',
    'even(n - 1)',
    '`even` is called recursively, which WGSL does not allow',
  ],
  ['duplicate local', 'SYCL1023', '4:7', 'a', '`a` is already declared in this scope'],
  [
    'args from a const holding a call',
    'SYCL1006',
    '2:14',
    'makeSpec()',
    '`args` must be an object literal of argument types, or a top-level const holding one',
  ],
  [
    'args naming an import',
    'SYCL1006',
    '3:43',
    'spec',
    '`spec` must be a top-level const of this module holding an object literal of argument types',
  ],
  [
    'args spreading a call',
    'SYCL1006',
    '2:48',
    'makeSpec()',
    '`args` must be an object literal of argument types, or a top-level const holding one',
  ],
  [
    'handler passed as a value',
    'SYCL1012',
    '3:118',
    'kh',
    "`kh` is the kernel's handler, not a value",
  ],
  [
    'value passed as the handler',
    'SYCL1014',
    '3:117',
    'item',
    'argument 1 of `read` is the kernel handler',
  ],
  [
    'kernel handler listed twice',
    'SYCL1007',
    '2:53',
    'kernelHandler',
    'a device function takes the kernel handler once',
  ],
  [
    'device global initial value not constant',
    'SYCL1004',
    '2:40',
    'Date.now()',
    'the initial value of `g` must be a constant expression (the build folds it)',
  ],
  [
    'device global initial value that does not fit',
    'SYCL1004',
    '2:50',
    '[1, 2, 3]',
    'the initial value of `g` [1, 2, 3] does not fit array<u32, 2>: expected at most 2 values, found 3',
  ],
  [
    'raw WGSL closing its function',
    'SYCL1019',
    '2:82',
    '}',
    '`}` closes the function early: a raw WGSL body holds the statements of one function',
  ],
  [
    'raw WGSL with an attribute',
    'SYCL1019',
    '2:69',
    '@must_use',
    'attributes belong to module-scope declarations, not to a raw WGSL function body',
  ],
  [
    'raw WGSL declaring a function',
    'SYCL1019',
    '2:83',
    'fn',
    '`fn` declares at module scope: a raw WGSL body holds statements only',
  ],
  [
    'raw WGSL declaring storage',
    'SYCL1019',
    '2:69',
    'var<storage>',
    'a `var<storage>` cannot be declared in a function body',
  ],
  [
    'raw WGSL naming an undeclared variable',
    'SYCL1019',
    '3:14',
    'offset',
    '`offset` is not declared in the raw WGSL body',
  ],
  ['raw WGSL leaving a brace open', 'SYCL1019', '2:85', '{', '`{` is not closed in the body'],
];

test('the invalid corpus has a expectation per case, and at least 40 cases', () => {
  expect(expectations.map(([name]) => name)).toEqual([...sources.keys()]);
  expect(expectations.length).toBeGreaterThanOrEqual(40);
});

test.each(expectations)('%s', (name, code, at, highlighted, message) => {
  const source = sources.get(name)!;
  const { object, diagnostics } = compileModule(source, { module: 'src/invalid.sycl.ts' });
  expect(object).toBeNull();
  expect(diagnostics).toHaveLength(1);
  const d = diagnostics[0]!;
  expect(d.code).toBe(code);
  expect(d.severity).toBe('error');
  expect(d.message).toBe(message);
  expect(`${d.span?.line}:${d.span?.column}`).toBe(at);
  expect(source.slice(d.span!.start, d.span!.end)).toBe(highlighted);
  const formatted = formatDiagnostic(d, source);
  expect(formatted.startsWith(`src/invalid.sycl.ts:${at}: error: ${message} [${code}]`)).toBe(true);
  expect(formatted).toContain('^');
});
