/**
 * One namer: every WGSL identifier is chosen once, so two source names never meet in one WGSL
 * name, whatever they look like: names WGSL reserves, names the compiler generates (`gid`,
 * `slot`, `sc_...`), names with `$` or unicode letters, and names that spell what another name
 * would be mangled to. Each kernel writes values only its own names can produce, on Dawn.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { buildProgram, type Program, runKernel } from './gpu.js';

const POISON = 0xdeadbeef;
const HEADER = `import { accessor, deviceFunction, kernel, struct, u32 } from '@syclts/dsl';\n`;

describe('a source name and the name it would be mangled to stay apart', () => {
  const MODULE = 'names/dollar.sycl.ts';
  let program: Program;
  beforeAll(() => {
    program = buildProgram({
      [MODULE]: `${HEADER}
const mix = deviceFunction({ args: [u32, u32], returns: u32 }, ($a, l__24_a) => $a * 3 + l__24_a);
export const shadow = kernel({ range: 1, args: { out: accessor(u32, 'write'), x: u32 } },
  (item, _kh, { out, x }) => { let $a = x; { let l__24_a = x + 100; out[item.getId(0)] = $a; } });
export const sameScope = kernel({ range: 1, args: { out: accessor(u32, 'write'), x: u32 } },
  (item, _kh, { out, x }) => { let $a = x; let l__24_a = x + 100; out[0] = $a; out[1] = l__24_a; });
export const twoParams = kernel({ range: 1, args: { out: accessor(u32, 'write'), x: u32 } },
  (item, _kh, { out, x }) => { out[item.getId(0)] = mix(x, 7); });
`,
    });
  });
  const [x] = randomU32(1, 3301).map((v) => v % 1_000_000);

  test('a local `$a` is not the inner local `l__24_a`', async () => {
    const out = new Uint32Array(1).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#shadow`,
      range: [1],
      args: { out, x: x! },
    });
    expect(new Uint32Array(result.accessors.out!)[0]).toBe(x);
  });

  test('`$a` and `l__24_a` in one scope are two locals', async () => {
    const out = new Uint32Array(2).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#sameScope`,
      range: [1],
      args: { out, x: x! },
    });
    expect([...new Uint32Array(result.accessors.out!)].slice(0, 2)).toEqual([x, x! + 100]);
  });

  test('a device function with parameters `$a` and `l__24_a` builds and runs', async () => {
    const out = new Uint32Array(1).fill(POISON);
    const result = await runKernel(program, {
      kernel: `${MODULE}#twoParams`,
      range: [1],
      args: { out, x: x! },
    });
    expect(new Uint32Array(result.accessors.out!)[0]).toBe(x! * 3 + 7);
  });
});

/**
 * Names device code may spell (JavaScript identifiers that are not DSL names of the module):
 * WGSL keywords, reserved words and built-ins, the compiler's generated names and prefixes,
 * `$` and `_` forms, `Object.prototype` members and unicode letters.
 */
const POOL = [
  'fn',
  'loop',
  'override',
  'alias',
  'enable',
  'requires',
  'diagnostic',
  'struct_',
  'select',
  'min',
  'max',
  'dot',
  'bitcast',
  'array',
  'vec4',
  'vec3u',
  'ptr',
  'atomic',
  'private',
  'storage',
  'workgroup',
  'uniform',
  'read_write',
  'NULL',
  'Self',
  'sampler',
  'mat2x2f',
  'gid',
  'lid',
  'wid',
  'wgid',
  'lindex',
  'slot',
  'global_range',
  'slot_mode',
  'group_offset',
  '_',
  '__',
  '__x',
  '___y',
  '_1',
  '$',
  '$$',
  '$a',
  '_$',
  'a$b',
  'l__24_a',
  'l_24_a',
  'l_a',
  'l_l_a',
  'v_',
  'v__',
  'sc_x',
  'sc_buffer',
  'dg_y',
  'fn_z',
  'k_k0',
  'a_k0_out',
  'launch_k0',
  'Launch_k0',
  'S_value',
  'S_x',
  'l_S_x',
  'wg_k',
  'x_2',
  'x2',
  'y_2',
  'SpecConstants',
  'constructor',
  'hasOwnProperty',
  'valueOf',
  'toString',
  'isPrototypeOf',
  'ä',
  'é1',
  'π',
  'ℵ0',
  '_é',
  'ａ',
  'Δx',
  'q',
];

/** Pairs of names that spell each other's escaped form. */
const TWINS = [
  ['$a', 'l__24_a'],
  ['π', 'l__3c0_'],
  ['é1', 'l__e9_1'],
  ['$', 'l__24_'],
  ['a$b', 'a_b'],
  ['__x', '_x'],
] as const;

/** Struct fields take plain names only (letters, digits, underscores, a letter first). */
const FIELD_POOL = POOL.filter((n) => /^[A-Za-z][A-Za-z0-9_]*$/.test(n));

/** `count` distinct names of `pool` chosen by `draws`, none of `taken`. */
function pick(
  pool: readonly string[],
  draws: Uint32Array,
  count: number,
  taken: readonly string[] = [],
): string[] {
  const names: string[] = [];
  for (const d of draws) {
    const name = pool[d % pool.length]!;
    if (!names.includes(name) && !taken.includes(name)) names.push(name);
    if (names.length === count) break;
  }
  return names;
}

describe('random sets of identifiers always give WGSL Dawn accepts, one name each', () => {
  const MODULE = 'names/random.sycl.ts';
  const KERNELS = 12;
  const LOCALS = 8;
  const cases = Array.from({ length: KERNELS }, (_, k) => {
    // Each set holds one pair of names a character-escaping scheme would merge, one outside
    // and one inside the inner block (where the second would hide the first).
    const [outer, inner] = TWINS[k % TWINS.length]!;
    const names = pick(POOL, randomU32(64, 4000 + k), LOCALS, [outer, inner]);
    const half = LOCALS / 2;
    return {
      locals: [outer, ...names.slice(0, half - 1), inner, ...names.slice(half - 1, LOCALS - 2)],
      params: names.slice(LOCALS - 2, LOCALS),
      fields: pick(FIELD_POOL, randomU32(64, 4100 + k), 4),
      salts: randomU32(LOCALS, 5000 + k).map((v) => v % 65536),
    };
  });
  const source = cases
    .map(({ locals, params, fields, salts }, k) => {
      const [p, q] = params;
      const [f, g, h, i] = fields;
      const half = LOCALS / 2;
      const declare = (i: number) => `let ${locals[i]} = x + ${salts[i]};`;
      const outer = locals.slice(0, half).map((_, i) => declare(i));
      const inner = locals.slice(half).map((_, i) => declare(half + i));
      const writes = locals.map((n, i) => `out[${i}] = ${n};`);
      return `
const F${k} = struct({ ${f}: u32, ${g}: u32, ${h}: u32, ${i}: u32 });
const fn${k} = deviceFunction({ args: [u32, F${k}], returns: u32 }, (${p}, ${q}) => ${p} * 3 + ${q}.${g});
export const k${k} = kernel({ range: 1, args: { s: F${k}, out: accessor(u32, 'write'), x: u32 } },
  (item, _kh, { out, x, s }) => {
    ${outer.join(' ')}
    {
      ${inner.join(' ')}
      ${writes.join(' ')}
      const t = F${k}({ ${f}: x, ${g}: s.${f} + s.${g}, ${h}: s.${h}, ${i}: 0 });
      out[${LOCALS}] = fn${k}(t.${f}, t);
    }
  });`;
    })
    .join('\n');
  const MODULE_SOURCE = `${HEADER}${source}\n`;
  let program: Program;
  beforeAll(() => {
    program = buildProgram({ [MODULE]: MODULE_SOURCE });
  });
  const [x] = randomU32(1, 3302).map((v) => v % 1_000_000);
  const [a, b] = randomU32(2, 3303).map((v) => v % 1_000_000);

  test.each(cases.map((c, k) => [k, c.locals.join(' ')] as const))('k%i: %s', async (k) => {
    const { locals, fields, salts } = cases[k]!;
    const out = new Uint32Array(LOCALS + 1).fill(POISON);
    const s = Object.fromEntries(fields.map((f, i) => [f, [a!, b!, 1, 2][i]!]));
    const result = await runKernel(program, {
      kernel: `${MODULE}#k${k}`,
      range: [1],
      args: { out, x: x!, s },
    });
    const expected = [...locals.map((_, i) => x! + salts[i]!), x! * 3 + a! + b!];
    expect([...new Uint32Array(result.accessors.out!)]).toEqual(expected);
  });

  test('every function of the WGSL declares each of its names once', () => {
    const wgsl = program.images[0]!.wgsl.native!;
    const functions = wgsl.split(/\nfn |\n@compute/).slice(1);
    expect(functions.length).toBeGreaterThanOrEqual(2 * KERNELS);
    for (const text of functions) {
      const declared = [...text.matchAll(/\b(?:let|var) ([A-Za-z_][A-Za-z0-9_]*)/g)].map(
        (m) => m[1],
      );
      expect(new Set(declared).size).toBe(declared.length);
    }
  });
});
