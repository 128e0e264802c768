/**
 * Hostile inputs: what a careless or malicious user may write. Deep nesting, very long
 * expressions, numbers at and past every type's limits, names that exist on Object.prototype or
 * look like the compiler's own, WGSL keywords as names, odd module paths and line endings,
 * sizes past WebGPU's default limits, `?:` over composites and with effects, barriers under
 * non-uniform conditions, constant folds that overflow, and specialization constants read by
 * void device functions, in every constants mode.
 */
import type { Rand } from '../frontend/property/generator.js';
import { MODES } from './corpus-inputs.js';
import type { FuzzInput, Size } from './input.js';

const IMPORTS =
  "import { accessor, array, atomic, atomicAdd, bool, clamp, deviceFunction, deviceGlobal, f16, f32, i32, kernel, kernelHandler, select, specializationId, struct, u32, vec2f, vec3f, vec4f, vec4u, workgroupArray } from '@syclts/dsl';";

interface KernelShape {
  readonly args?: string;
  readonly shape?: string;
  readonly local?: string;
  readonly params?: string;
}

/** A module of one kernel with `out` (u32, write) and `inp` (u32, read); `i` is the item's id. */
function kernelModule(body: string, top = '', k: KernelShape = {}): string {
  const args = k.args ?? "out: accessor(u32, 'write'), inp: accessor(u32, 'read')";
  const local = k.local ? `, local: { ${k.local} }` : '';
  const params =
    k.params ?? `item, kh, { ${argNames(args)} }${k.local ? `, { ${argNames(k.local)} }` : ''}`;
  const shape = k.shape ?? 'range: 1';
  const id = shape.startsWith('nd') ? 'item.getGlobalId(0)' : 'item.getId(0)';
  return `${IMPORTS}\n${top}\nexport const k = kernel(\n  { ${shape}, args: { ${args} }${local} },\n  (${params}) => {\n    const i = ${id};\n    ${body}\n  },\n);\n`;
}

function argNames(decls: string): string {
  return [...decls.matchAll(/([\w$]+)\s*:\s*(?:accessor|workgroupArray|u32|i32|f32|bool|vec)/g)]
    .map((m) => m[1])
    .join(', ');
}

function input(
  family: string,
  source: string,
  r: Rand,
  module = 'fuzz/hostile.sycl.ts',
): FuzzInput {
  return { family, sources: [{ module, source }], specConstants: r.pick(MODES) };
}

const DEPTHS = [50, 200, 500, 989, 990, 991, 1000, 2000, 5000];

function deep(r: Rand, size: Size): FuzzInput {
  const n = r.pick(size === 'full' ? DEPTHS : [20, 100, 200, 989, 990]);
  const kind = r.int(9);
  const body = [
    () => `out[0] = ${'('.repeat(n)}i${')'.repeat(n)};`,
    () => `${'{'.repeat(n)}out[0] = i;${'}'.repeat(n)}`,
    () => `${'if (i > 0) {'.repeat(n)}out[0] = 1;${'}'.repeat(n)}`,
    () =>
      `${'for (let j = 0; j < 2; j++) {'.repeat(Math.min(n, 300))}out[0] = i;${'}'.repeat(Math.min(n, 300))}`,
    () => `let v = i;\n${'while (v < 3) { v++;'.repeat(n)}${'}'.repeat(n)}\nout[0] = v;`,
    () => `out[0] = ${'Math.max(1, '.repeat(n)}i${')'.repeat(n)};`,
    () => `out[0] = u32(${'-'.repeat(n)}i32(i));`,
    () => `out[0] = ${'i > 1 ? 2 : '.repeat(n)}3;`,
    () => `out[0] = ${'inp['.repeat(n)}0${']!'.repeat(n)};`,
  ][kind]!();
  return input(`deep-${kind}`, kernelModule(body), r);
}

function long(r: Rand, size: Size): FuzzInput {
  const n = r.pick(size === 'full' ? [1000, 3000, 10_000, 30_000, 100_000] : [300, 1000, 3000]);
  const kind = r.int(4);
  const ops = ['+', '*', '^', '|', '-'];
  const body = [
    () => `out[0] = ${Array.from({ length: n }, () => 'i').join(' + ')};`,
    () =>
      `out[0] = ${Array.from({ length: n }, (_, j) => `${j % 7}`).join(` ${r.pick(ops)} `)} + i;`,
    () =>
      `let v = i;\n${'v = v * 3 + 1;\n'.repeat(Math.min(n, size === 'full' ? 20_000 : 300))}out[0] = v;`,
    () => `out[0] = inp[${Array.from({ length: n }, () => 'i').join(' & ')}]!;`,
  ][kind]!();
  return input(`long-${kind}`, kernelModule(body), r);
}

/** Numbers at and beyond each type's limits, in several spellings. */
const NUMBERS = [
  '0',
  '-0',
  '0.0',
  '-0.0',
  '1e39',
  '-1e39',
  '1e-46',
  '3.4028234663852886e38',
  '3.4028235e38',
  '3.4028236e38',
  '3.40282357e38',
  '1.1754943508222875e-38',
  '1e-45',
  '65504',
  '65505',
  '65520',
  '-65504',
  '6.1e-5',
  '5.96e-8',
  '2147483647',
  '2147483648',
  '-2147483648',
  '-2147483649',
  '4294967295',
  '4294967296',
  '-1',
  '0xFFFFFFFF',
  '0x100000000',
  '0x7FFFFFFF',
  '0x80000000',
  '0b11111111111111111111111111111111',
  '0o37777777777',
  '1_000_000',
  '9007199254740993',
  '1e308',
  '1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '0 / 0',
  '1 / 0',
  '-1 / 0',
  'Number.NaN',
  'Number.POSITIVE_INFINITY',
  'Number.MAX_VALUE',
  'Number.MIN_VALUE',
  'Number.MAX_SAFE_INTEGER',
  'Number.EPSILON',
  '.5',
  '5.',
  '1e+3',
  '1E3',
  '0.1',
  '123456789012345678901234567890',
  `1${'0'.repeat(400)}`,
  `0.${'0'.repeat(400)}1`,
  '2 ** 32',
  '2 ** 31',
  '2 ** 128',
  '-(2 ** 31)',
];
const SCALARS = ['u32', 'i32', 'f32', 'f16', 'bool'];

function numbers(r: Rand): FuzzInput {
  const n = r.pick(NUMBERS);
  const t = r.pick(SCALARS);
  const store = (e: string) => (t === 'bool' ? `out[0] = ${e} ? 1 : 0;` : `out[0] = u32(${e});`);
  const kind = r.int(8);
  const [body, top] = [
    () => [store(`${t}(${n})`), ''],
    () => [store(`K`), `const K = ${n};`],
    () => [
      store(`kh.getSpecializationConstant(sc)`),
      `export const sc = specializationId(${t}, ${n});`,
    ],
    () => [`out[0] = u32(G.value.length);`, `const G = deviceGlobal(array(${t}, ${n}));`],
    () => [`const v: ${t} = ${n};\n    ${store('v')}`, ''],
    () => [store(`${t}(${n}) + ${t}(${r.pick(NUMBERS)})`), ''],
    () => [`out[0] = u32(f32(${n}) * f32(i));`, ''],
    () => [store(`${t}(inp[0]!) * ${n}`), ''],
  ][kind]!() as [string, string];
  return input(`numbers-${kind}`, kernelModule(body, top), r);
}

/** Names that are Object.prototype members, look generated, or are WGSL words. */
const NAMES = [
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  'prototype',
  'length',
  'name',
  '$',
  '$a',
  '_',
  '__',
  '___',
  '_0',
  'a$b',
  'ä',
  'π',
  'ℵ',
  'x\u0301',
  'ǅ',
  'l_',
  'l__1_a',
  'sc_',
  'sc_0',
  'fn_',
  'fn_k',
  'k_',
  'k_0',
  'slot',
  'gid',
  'lid',
  'wid',
  'launch',
  'globals',
  'emul',
  'main',
  'fn',
  'var',
  'let',
  'const',
  'loop',
  'struct',
  'array',
  'ptr',
  'override',
  'enable',
  'bitcast',
  'discard',
  'texture',
  'sampler',
  'vec4',
  'mat2x2',
  'f64',
  'i64',
  'u8',
  'atomic',
  'workgroup',
  'storage',
  'uniform',
  'private',
  'function',
  'select',
  'min',
  'max',
  'abs',
  'sin',
  'arrayLength',
  'workgroupBarrier',
  'self',
  'this',
  'super',
  'static',
  'async',
  'await',
  'of',
  'target',
  'demote',
  'handle',
  'precision',
  'common',
  'asm',
  'switch',
  'fallthrough',
];

function names(r: Rand): FuzzInput {
  const n = r.pick(NAMES);
  const kind = r.int(12);
  const lit = /^[A-Za-z_$][\w$]*$/.test(n) || /^\p{L}/u.test(n);
  if (!lit) return input('names-skip', kernelModule('out[0] = i;'), r);
  const [body, top, shape] = [
    () => [`const ${n} = i + 1;\n    out[0] = ${n};`, '', {}],
    () => [`let ${n} = u32(1);\n    ${n} += i;\n    out[0] = ${n};`, '', {}],
    () => [
      `out[0] = ${n}(i);`,
      `const ${n} = deviceFunction({ args: [u32], returns: u32 }, (${n === 'length' ? 'x' : 'v'}) => ${n === 'length' ? 'x' : 'v'} + 1);`,
      {},
    ],
    () => [
      `out[0] = f(i);`,
      `const f = deviceFunction({ args: [u32], returns: u32 }, (${n}) => ${n} * 2);`,
      {},
    ],
    () => [
      `const s = S({ ${n}: i, other: 2 });\n    out[0] = s.${n};`,
      `const S = struct({ ${n}: u32, other: u32 });`,
      {},
    ],
    () => [`out[0] = u32(Math.${n}(f32(i)));`, '', {}],
    () => [`out[0] = u32(item.${n}(0));`, '', {}],
    () => [
      `out[0] = ${n}[0]!;`,
      '',
      {
        args: `out: accessor(u32, 'write'), ${n}: accessor(u32, 'read')`,
        params: `item, kh, { out, ${n} }`,
      },
    ],
    () => [
      `out[0] = ${n} + i;`,
      '',
      { args: `out: accessor(u32, 'write'), ${n}: u32`, params: `item, kh, { out, ${n} }` },
    ],
    () => [
      `out[0] = kh.getSpecializationConstant(${n});`,
      `export const ${n} = specializationId(u32, 3);`,
      {},
    ],
    () => [
      `${n}.value[0] = i;\n    out[0] = ${n}.value[0]!;`,
      `const ${n} = deviceGlobal(array(u32, 4));`,
      {},
    ],
    () => [`out[0] = inp.${n} as unknown as u32;`, '', {}],
  ][kind]!() as [string, string, KernelShape];
  return input(`names-${kind}`, kernelModule(body, top, shape), r);
}

const ODD_PATHS = [
  'fuzz/a\nb.sycl.ts',
  'fuzz/a*/b.sycl.ts',
  'fuzz/*/x.sycl.ts',
  "fuzz/it's.sycl.ts",
  'fuzz/"q".sycl.ts',
  'fuzz/ünï/cödé.sycl.ts',
  'fuzz/a\r\nfn evil() {}\n//.sycl.ts',
  'fuzz/a\u2028b.sycl.ts',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a module path that looks like a template
  'fuzz/`x${y}`.sycl.ts',
  'fuzz/a b/c d.sycl.ts',
  'fuzz/#x?.sycl.ts',
  'fuzz/\\back\\slash.sycl.ts',
  'fuzz/..sycl.ts',
  'fuzz/con.sycl.ts',
  'fuzz/😀.sycl.ts',
  'fuzz/a\u0000b.sycl.ts',
  `fuzz/${'long'.repeat(200)}.sycl.ts`,
];

function paths(r: Rand): FuzzInput {
  const module = r.pick(ODD_PATHS);
  const body = r.chance(0.5)
    ? 'out[0] = i + u32(kh.getSpecializationConstant(sc));'
    : 'out[0] = G + i;';
  const top = 'export const sc = specializationId(u32, 2);\nexport const G = 5;';
  return input('paths', kernelModule(body, top), r, module);
}

function lineEndings(r: Rand): FuzzInput {
  const body = r.pick([
    'out[0] = i;\n    let x = u32(1);\n    out[1] = x + undefinedName;',
    'let x = u32(1);\n    // note\n    out[0] = x + i;',
    '/* a\n b */ out[0] = i;\n    out[1] = f32(1) + true;',
  ]);
  const src = kernelModule(body);
  const eol = r.pick(['\r', '\r\n', '\u2028', '\u2029', 'mixed']);
  const text = src.replace(/\n/g, () => (eol === 'mixed' ? r.pick(['\r', '\n', '\r\n']) : eol));
  return input(
    `line-endings-${eol === 'mixed' ? 'mixed' : eol.charCodeAt(0).toString(16)}`,
    text,
    r,
  );
}

const SIZES = [
  255,
  256,
  257,
  1024,
  1025,
  4096,
  16384,
  16385,
  65535,
  65536,
  2 ** 31,
  2 ** 32,
  2 ** 32 + 1,
  1e10,
];

function limits(r: Rand): FuzzInput {
  const kind = r.int(6);
  const s = r.pick(SIZES);
  const [body, top, shape] = [
    () => ['out[0] = i;', '', { shape: `ndRange: 1, workgroupSize: [${s}]` }],
    () => [
      'out[0] = i;',
      '',
      {
        shape: `ndRange: 3, workgroupSize: [${r.pick([1, 2, 16, 64])}, ${r.pick([1, 4, 16, 64])}, ${r.pick([1, 2, 64, 65])}]`,
      },
    ],
    () => [
      'w[0] = i;\n    item.barrier();\n    out[0] = w[0]!;',
      '',
      {
        shape: 'ndRange: 1, workgroupSize: [64]',
        local: `w: workgroupArray(${r.pick(['u32', 'f32', 'vec4f', 'f16'])}, ${s})`,
      },
    ],
    () => [
      'w[0] = i;\n    v[0] = 1;\n    out[0] = w[0]! + v[0]!;',
      '',
      {
        shape: 'ndRange: 1, workgroupSize: [64]',
        local: `w: workgroupArray(u32, ${r.pick([2048, 4096, 4097])}), v: workgroupArray(u32, ${r.pick([1, 4096])})`,
      },
    ],
    () => {
      const e = r.pick(['u32', 'vec4f', 'f16']);
      const v = e === 'vec4f' ? ['vec4f(1)', '.x'] : ['1', ''];
      return [
        `G.value[i] = ${v[0]};\n    out[0] = u32(G.value[0]!${v[1]});`,
        `const G = deviceGlobal(array(${e}, ${s}));`,
        {},
      ];
    },
    () => [
      'out[0] = u32(A[0]!);',
      `const A = specializationId(array(u32, ${r.pick([4, 1000, 65536])}), ${r.chance(0.5) ? '[]' : '[1, 2]'});`,
      {},
    ],
  ][kind]!() as [string, string, KernelShape];
  return input(`limits-${kind}`, kernelModule(body, top, shape), r);
}

function ternary(r: Rand): FuzzInput {
  const kind = r.int(9);
  const top =
    'const S = struct({ a: u32, b: f32 });\nconst bump = deviceFunction({ args: [u32], returns: u32 }, (x) => { atomicAdd(C, 1); return x; });\nconst C = deviceGlobal(atomic(u32));';
  const body = [
    'const s = i > 0 ? S({ a: 1, b: 2 }) : S({ a: 3, b: 4 });\n    out[0] = s.a;',
    'const a = inp[0]! > 3 ? [u32(1), 2] : [u32(3), 4];\n    out[0] = a[1]!;',
    'out[0] = i > 0 ? atomicAdd(C, 1) : 0;',
    'let n = u32(0);\n    out[0] = inp[0]! > 3 ? n++ : n--;\n    out[1] = n;',
    'out[0] = i > 0 ? bump(i) : 7;',
    'out[0] = (inp[0]! > 3 ? vec4u(1, 2, 3, 4) : vec4u(i)).w;',
    'out[0] = select(S({ a: 1, b: 2 }), S({ a: 3, b: 4 }), i > 0).a;',
    'out[0] = i > 0 ? (inp[0]! > 1 ? bump(1) : bump(2)) : bump(3);',
    'const s = S({ a: 1, b: 2 });\n    const t = S({ a: i, b: 4 });\n    out[0] = (i > 0 ? s : t).a;',
  ][kind]!;
  return input(`ternary-${kind}`, kernelModule(body, top), r);
}

function barriers(r: Rand): FuzzInput {
  const kind = r.int(7);
  const local = 'w: workgroupArray(u32, 64)';
  const top = 'const sync = deviceFunction({ args: [] }, () => { });';
  const body = [
    'if (inp[i]! > 3) {\n      item.barrier();\n    }\n    out[i] = i;',
    'for (let j = u32(0); j < inp[i]!; j++) {\n      item.barrier();\n    }\n    out[i] = i;',
    'if (item.getLocalId(0) === 0) {\n      return;\n    }\n    item.barrier();\n    out[i] = i;',
    'w[item.getLocalId(0)] = i;\n    if (i > 3) {\n      item.barrier("global");\n    }\n    out[i] = w[0]!;',
    'const c = inp[i]! > 3 ? 1 : 0;\n    while (c > 0) {\n      item.barrier();\n      break;\n    }\n    out[i] = i;',
    'if (inp[0]! > 3) {\n      item.barrier();\n    }\n    out[i] = i;',
    'if (item.getGroup(0) > 0) {\n      item.barrier();\n    }\n    sync();\n    out[i] = i;',
  ][kind]!;
  return input(
    `barrier-${kind}`,
    kernelModule(body, top, { shape: 'ndRange: 1, workgroupSize: [64]', local }),
    r,
  );
}

function folds(r: Rand): FuzzInput {
  const kind = r.int(12);
  const [body, top] = [
    () => ['out[0] = u32(Z);', 'const Z = 0 / 0;'],
    () => ['out[0] = u32(f32(3.4e38) * 2 + f32(i));', ''],
    () => ['out[0] = i32(2147483647) + 1 + i32(i) as unknown as u32;', ''],
    () => ['out[0] = clamp(i, 5, 2);', ''],
    () => ['out[0] = u32(clamp(f32(i), 1.5, -1.5));', ''],
    () => ['out[0] = i / D;', 'const D = 0;'],
    () => ['out[0] = i % D;', 'const D = 1 - 1;'],
    () => ['out[0] = (0xFFFF0000 | 0xFF) + i;', ''],
    () => ['out[0] = (0xFFFFFFFF & 0x80000000) ^ (0xF0F0F0F0 >>> 0) + i;', ''],
    () => ['out[0] = u32(A[0]!) + i;', 'const A = [1, true, 2.5];'],
    () => ['out[0] = u32(i32(-2147483648) / -1) + i;', ''],
    () => ['out[0] = (u32(1) << 32) + (u32(4294967295) * 4294967295) + i;', ''],
  ][kind]!() as [string, string];
  return input(`folds-${kind}`, kernelModule(body, top), r);
}

function specVoid(r: Rand): FuzzInput {
  const kind = r.int(5);
  const top = [
    'export const sc = specializationId(u32, 3);',
    'export const bias = specializationId(f32, 0.5);',
    'const G = deviceGlobal(array(u32, 4));',
    'const kh2 = deviceFunction({ args: [kernelHandler], returns: u32 }, (h) => h.getSpecializationConstant(sc));',
    'const touch = deviceFunction({ args: [kernelHandler, u32] }, (h, x) => { G.value[0] = x + h.getSpecializationConstant(sc); });',
    'const pass = deviceFunction({ args: [kernelHandler, u32] }, (h, x) => { touch(h, x); });',
  ].join('\n');
  const body = [
    'touch(kh, i);\n    out[0] = G.value[0]!;',
    'const v = kh2(kh);\n    touch(kh, v);\n    out[0] = v;',
    'if (i > 0) {\n      touch(kh, i);\n    }\n    out[0] = kh.getSpecializationConstant(sc);',
    'for (let j = u32(0); j < 2; j++) {\n      pass(kh, j);\n    }\n    out[0] = G.value[0]!;',
    'out[0] = kh2(kh) + u32(kh.getSpecializationConstant(bias));',
  ][kind]!;
  return input(`spec-void-${kind}`, kernelModule(body, top), r);
}

export const HOSTILE: readonly ((r: Rand, size: Size) => FuzzInput)[] = [
  deep,
  long,
  numbers,
  names,
  paths,
  lineEndings,
  limits,
  ternary,
  barriers,
  folds,
  specVoid,
];
