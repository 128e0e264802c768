/**
 * The joint group algorithms (jointReduce, jointExclusiveScan, jointInclusiveScan, jointAnyOf,
 * jointAllOf, jointNoneOf) on the adapter, in both lowerings, against a CPU model of SYCL's
 * definitions, on fresh random inputs: every operator on i32, u32 and f32 (f32 inputs signed
 * powers of two, so every result is exact), bool arrays with the logical operators, arrays of
 * length 1, shorter than the work-group (24 items), as long as it, longer and not a multiple
 * of it, and sized by a specialization constant set to a fresh value each run; with and
 * without init, into a second array and in place; every comparison of the predicates.
 */
import { readFileSync } from 'node:fs';
import type { CollectiveLowering } from '@syclts/dsl';
import { describe, expect, test } from 'vitest';
import { randomU32 } from '../../../../test-inputs.ts';
import { build } from '../../src/index.js';
import { runKernel } from '../support/gpu.js';
import { combine, identity, OPS, type Op, type Scalar } from '../support/group-model.js';

const M = 'src/joint.sycl.ts';
const WG = [2, 12] as const;
const ITEMS = WG[0] * WG[1];
const GROUPS = 3;

const COMPARISONS = ['==', '!=', '<', '<=', '>', '>='] as const;

/** The arrays: shorter than the work-group, length 1, as long, longer, the constant's length. */
const ARRAYS = ['a1', 'a5', 'a24', 'a53', 'an'] as const;
type ArrayName = (typeof ARRAYS)[number];
const FIXED: Record<Exclude<ArrayName, 'an'>, number> = { a1: 1, a5: 5, a24: 24, a53: 53 };

/** What one record of the output holds. */
type Record_ =
  | { kind: 'reduce'; array: ArrayName; op: Op; init: boolean }
  | {
      kind: 'exclusive' | 'inclusive';
      array: ArrayName;
      op: Op;
      init: boolean;
      inPlace: boolean;
    }
  | { kind: 'predicate'; array: ArrayName; comparison: (typeof COMPARISONS)[number]; at: number };

/**
 * Each operator meets every kind of call; the arrays rotate between operators, so each kind
 * meets every array (f32's four operators included) without the whole product.
 */
function records(s: Scalar): Record_[] {
  const out: Record_[] = [];
  OPS[s].forEach((op, k) => {
    const pick = (j: number) => ARRAYS[(k * 2 + j) % ARRAYS.length]!;
    const scan = (
      kind: 'exclusive' | 'inclusive',
      array: ArrayName,
      init: boolean,
      inPlace: boolean,
    ) => out.push({ kind, array, op, init, inPlace });
    out.push({ kind: 'reduce', array: pick(0), op, init: false });
    out.push({ kind: 'reduce', array: pick(1), op, init: false });
    out.push({ kind: 'reduce', array: pick(3), op, init: true });
    scan('exclusive', pick(1), false, false);
    scan('exclusive', pick(2), false, false);
    scan('inclusive', pick(2), false, false);
    scan('inclusive', pick(3), false, false);
    scan('exclusive', pick(4), true, false);
    scan('inclusive', pick(0), true, false);
    scan('exclusive', pick(2), k % 2 === 1, true);
    scan('inclusive', pick(4), k % 2 === 0, true);
  });
  COMPARISONS.forEach((comparison, c) => {
    for (const j of [0, 1]) {
      const array = ARRAYS[(c * 2 + j) % ARRAYS.length]!;
      out.push({ kind: 'predicate', array, comparison, at: c * 3 + j * 7 });
    }
  });
  return out;
}

/** The bool part (in the u32 kernel): flags arrays of length 1, 5 and 53. */
const FLAGS = ['f1', 'f5', 'f53'] as const;
type FlagName = (typeof FLAGS)[number];
const FLAG_LENGTHS: Record<FlagName, number> = { f1: 1, f5: 5, f53: 53 };
type BoolRecord =
  | { kind: 'reduce'; array: FlagName; op: 'logicalAnd' | 'logicalOr'; init: boolean }
  | {
      kind: 'exclusive' | 'inclusive';
      array: FlagName;
      op: 'logicalAnd' | 'logicalOr';
      init: boolean;
    }
  | { kind: 'predicate'; array: FlagName };

function boolRecords(): BoolRecord[] {
  return FLAGS.flatMap((array): BoolRecord[] => [
    { kind: 'reduce', array, op: 'logicalAnd', init: false },
    { kind: 'reduce', array, op: 'logicalOr', init: true },
    { kind: 'exclusive', array, op: 'logicalOr', init: array === 'f53' },
    { kind: 'inclusive', array, op: 'logicalAnd', init: array === 'f5' },
    { kind: 'predicate', array },
  ]);
}

/** Where each array's inputs start in a group's block of `xs`, and the block's length. */
function inputLayout(n: number): {
  offset: Record<ArrayName, number>;
  init: number;
  block: number;
} {
  const offset = {} as Record<ArrayName, number>;
  let at = 0;
  for (const a of ARRAYS) {
    offset[a] = at;
    at += a === 'an' ? n : FIXED[a];
  }
  return { offset, init: at, block: at + 1 };
}

const lengthOf = (a: ArrayName, n: number) => (a === 'an' ? n : FIXED[a]);

/** How many output values a record holds: one per item, or one per element. */
function width(r: Record_, n: number): number {
  return r.kind === 'reduce' || r.kind === 'predicate' ? ITEMS : lengthOf(r.array, n);
}
function boolWidth(r: BoolRecord): number {
  return r.kind === 'reduce' || r.kind === 'predicate' ? ITEMS : FLAG_LENGTHS[r.array];
}

/** The spec-constant length the build assumes (its default); runs set another. */
const DEFAULT_N = 37;

/**
 * The module: one kernel per operator, and one for the predicates and the bool arrays (smaller
 * pipelines build much faster on the software adapter than one that holds every call).
 */
function source(
  s: Scalar,
  n: number,
): { text: string; kernels: string[]; out: number; flags: number } {
  const list = records(s);
  const lay = inputLayout(n);
  const bodies = new Map<string, string[]>();
  let lines: string[] = [];
  const copyOut = (array: string, len: string, at: number) =>
    `    for (let j = li; j < ${len}; j += ${ITEMS}) { out[gl * OUT + ${at} + j] = local.${array}[j]!; }`;
  const len = (a: ArrayName) => (a === 'an' ? 'n' : String(FIXED[a]));
  let at = 0;
  let flagAt = 0;
  for (const r of list) {
    const a = `local.${r.array}`;
    const b = `local.${r.array.replace('a', 'b')}`;
    const kernel = r.kind === 'predicate' ? 'predicates' : r.op;
    if (!bodies.has(kernel)) bodies.set(kernel, []);
    lines = bodies.get(kernel)!;
    switch (r.kind) {
      case 'reduce':
        lines.push(
          `    out[gl * OUT + ${at} + li] = jointReduce(g, ${a}, ${r.init ? 'y, ' : ''}${r.op});`,
        );
        break;
      case 'exclusive':
      case 'inclusive': {
        const fn = r.kind === 'exclusive' ? 'jointExclusiveScan' : 'jointInclusiveScan';
        if (r.inPlace) {
          // The copy waits until every item has read the last record out of b.
          lines.push('    groupBarrier(g);');
          lines.push(
            `    for (let j = li; j < ${len(r.array)}; j += ${ITEMS}) { ${b}[j] = ${a}[j]!; }`,
          );
        }
        const src = r.inPlace ? b : a;
        const rest =
          r.kind === 'exclusive'
            ? `${r.init ? 'y, ' : ''}${r.op}`
            : `${r.op}${r.init ? ', y' : ''}`;
        lines.push(`    ${fn}(g, ${src}, ${b}, ${rest});`);
        lines.push(copyOut(r.array.replace('a', 'b'), len(r.array), at));
        break;
      }
      case 'predicate': {
        const v = `xs[gl * BLOCK + ${lay.offset[r.array]} + (${r.at} + gl) % ${len(r.array)}]!`;
        const args = `${a}, '${r.comparison}', v${flagAt}`;
        lines.push(`    const v${flagAt} = ${v};`);
        lines.push(
          `    flags[gl * FLAGS + ${flagAt} + li] = u32(jointAnyOf(g, ${args})) + 2 * u32(jointAllOf(g, ${args})) + 4 * u32(jointNoneOf(g, ${args}));`,
        );
        flagAt += ITEMS;
        break;
      }
    }
    if (r.kind !== 'predicate') at += width(r, n);
  }
  // The bool part: flags from the low bits of ks, read into bool arrays.
  const boolLines = bodies.get('predicates')!;
  if (s === 'u32') {
    let ks = 0;
    for (const f of FLAGS) {
      const L = FLAG_LENGTHS[f];
      boolLines.push(
        `    for (let j = li; j < ${L}; j += ${ITEMS}) { local.${f}[j] = (ks[gl * KS + ${ks} + j]! & 3) != 0; }`,
      );
      ks += L;
    }
    boolLines.push(`    const p = (ks[gl * KS + ${ks}]! & 1) != 0;`);
    for (const r of boolRecords()) {
      const a = `local.${r.array}`;
      const b = `local.${r.array.replace('f', 'h')}`;
      switch (r.kind) {
        case 'reduce':
          boolLines.push(
            `    flags[gl * FLAGS + ${flagAt} + li] = u32(jointReduce(g, ${a}, ${r.init ? 'p, ' : ''}${r.op}));`,
          );
          break;
        case 'exclusive':
        case 'inclusive': {
          const fn = r.kind === 'exclusive' ? 'jointExclusiveScan' : 'jointInclusiveScan';
          const rest =
            r.kind === 'exclusive'
              ? `${r.init ? 'p, ' : ''}${r.op}`
              : `${r.op}${r.init ? ', p' : ''}`;
          boolLines.push(`    ${fn}(g, ${a}, ${b}, ${rest});`);
          boolLines.push(
            `    for (let j = li; j < ${FLAG_LENGTHS[r.array]}; j += ${ITEMS}) { flags[gl * FLAGS + ${flagAt} + j] = u32(${b}[j]!); }`,
          );
          break;
        }
        case 'predicate':
          boolLines.push(
            `    flags[gl * FLAGS + ${flagAt} + li] = u32(jointAnyOf(g, ${a})) + 2 * u32(jointAllOf(g, ${a})) + 4 * u32(jointNoneOf(g, ${a}));`,
          );
          break;
      }
      flagAt += boolWidth(r);
    }
  }
  const locals = [
    ...ARRAYS.flatMap((a) => {
      const length = a === 'an' ? 'length' : FIXED[a];
      return [
        `${a}: workgroupArray(${s}, ${length})`,
        `${a.replace('a', 'b')}: workgroupArray(${s}, ${length})`,
      ];
    }),
    ...(s === 'u32'
      ? FLAGS.flatMap((f) => [
          `${f}: workgroupArray(bool, ${FLAG_LENGTHS[f]})`,
          `${f.replace('f', 'h')}: workgroupArray(bool, ${FLAG_LENGTHS[f]})`,
        ])
      : []),
  ];
  const loads = ARRAYS.map(
    (a) =>
      `    for (let j = li; j < ${len(a)}; j += ${ITEMS}) { local.${a}[j] = xs[gl * BLOCK + ${lay.offset[a]} + j]!; }`,
  );
  // OUT and BLOCK depend on n: the kernel reads them as arguments.
  const text = `
import { accessor, bool, ${s}, u32, kernel, specializationId, workgroupArray, groupBarrier,
  jointReduce, jointExclusiveScan, jointInclusiveScan, jointAnyOf, jointAllOf, jointNoneOf,
  plus, multiplies, minimum, maximum, bitAnd, bitOr, bitXor, logicalAnd, logicalOr } from '@syclts/dsl';

export const length = specializationId(u32, ${DEFAULT_N});
const FLAGS = ${flagAt};
const KS = 128;

${[...bodies]
  .map(
    ([name, body]) => `export const joint_${name} = kernel(
  { ndRange: 2, workgroupSize: [${WG[0]}, ${WG[1]}],
    args: { xs: accessor(${s}, 'read'), ks: accessor(u32, 'read'), out: accessor(${s}, 'write'),
      flags: accessor(u32, 'write'), OUT: u32, BLOCK: u32 },
    local: { ${locals.join(', ')} } },
  (item, kh, { xs, ks, out, flags, OUT, BLOCK }, local) => {
    const g = item.getGroup();
    const gl = g.getGroupLinearId();
    const li = g.getLocalLinearId();
    const n = kh.getSpecializationConstant(length);
${loads.join('\n')}
    const y = xs[gl * BLOCK + ${lay.init}]!;
${body.join('\n')}
  },
);`,
  )
  .join('\n\n')}
`;
  return { text, kernels: [...bodies.keys()], out: at, flags: flagAt };
}

function compare(c: (typeof COMPARISONS)[number], a: number, b: number): boolean {
  switch (c) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

/**
 * Random values that keep every f32 result exact: signed powers of two from 1/2 to 8 (few
 * distinct values, so `==` holds for several elements). Integers: small ones half the time, so
 * comparisons and products meet equal values and no overflow too, full-range ones otherwise.
 */
function inputs(s: Scalar, count: number, seed: number): Float32Array | Int32Array | Uint32Array {
  const raw = randomU32(count, seed);
  if (s === 'f32') {
    return Float32Array.from(raw, (r) => (r & 1 ? -1 : 1) * 2 ** (((r >>> 1) % 5) - 1));
  }
  const small = Uint32Array.from(raw, (r) => (r & 1 ? (r >>> 1) % 7 : r));
  return s === 'u32'
    ? small
    : new Int32Array(Uint32Array.from(raw, (r) => (r & 1 ? ((r >>> 1) % 9) - 4 : r)).buffer);
}

function expected(
  s: Scalar,
  n: number,
  xs: ArrayLike<number>,
  ks: Uint32Array,
  sizes: { out: number; flags: number },
): { out: number[]; flags: number[] } {
  const lay = inputLayout(n);
  const out: number[] = [];
  const flags: number[] = [];
  for (let gl = 0; gl < GROUPS; gl++) {
    const base = gl * lay.block;
    const arr = (a: ArrayName) =>
      Array.from({ length: lengthOf(a, n) }, (_, j) => xs[base + lay.offset[a] + j]!);
    const y = xs[base + lay.init]!;
    for (const r of records(s)) {
      const values = arr(r.array);
      switch (r.kind) {
        case 'reduce': {
          let v = r.init ? y : identity(s, r.op);
          for (const x of values) v = combine(s, r.op, v, x);
          for (let i = 0; i < ITEMS; i++) out.push(v);
          break;
        }
        case 'exclusive':
        case 'inclusive': {
          let v = r.init ? y : identity(s, r.op);
          for (const x of values) {
            if (r.kind === 'exclusive') out.push(v);
            v = combine(s, r.op, v, x);
            if (r.kind === 'inclusive') out.push(v);
          }
          break;
        }
        case 'predicate': {
          const v = values[(r.at + gl) % values.length]!;
          const hits = values.map((x) => compare(r.comparison, x, v));
          const any = hits.some(Boolean);
          const all = hits.every(Boolean);
          const bits = Number(any) + 2 * Number(all) + 4 * Number(!any);
          for (let i = 0; i < ITEMS; i++) flags.push(bits);
          break;
        }
      }
    }
    if (s === 'u32') {
      let at = gl * 128;
      const flagValues = {} as Record<FlagName, boolean[]>;
      for (const f of FLAGS) {
        flagValues[f] = Array.from({ length: FLAG_LENGTHS[f] }, (_, j) => (ks[at + j]! & 3) !== 0);
        at += FLAG_LENGTHS[f];
      }
      const p = (ks[at]! & 1) !== 0;
      for (const r of boolRecords()) {
        const values = flagValues[r.array];
        const f = (a: boolean, b: boolean, op: 'logicalAnd' | 'logicalOr') =>
          op === 'logicalAnd' ? a && b : a || b;
        switch (r.kind) {
          case 'reduce': {
            let v = r.init ? p : r.op === 'logicalAnd';
            for (const x of values) v = f(v, x, r.op);
            for (let i = 0; i < ITEMS; i++) flags.push(Number(v));
            break;
          }
          case 'exclusive':
          case 'inclusive': {
            let v = r.init ? p : r.op === 'logicalAnd';
            for (const x of values) {
              if (r.kind === 'exclusive') flags.push(Number(v));
              v = f(v, x, r.op);
              if (r.kind === 'inclusive') flags.push(Number(v));
            }
            break;
          }
          case 'predicate': {
            const any = values.some(Boolean);
            const all = values.every(Boolean);
            const bits = Number(any) + 2 * Number(all) + 4 * Number(!any);
            for (let i = 0; i < ITEMS; i++) flags.push(bits);
            break;
          }
        }
      }
    }
    expect(out.length).toBe((gl + 1) * sizes.out);
    expect(flags.length).toBe((gl + 1) * sizes.flags);
  }
  return { out, flags };
}

describe.each(['subgroups', 'workgroup'] as const)(
  'joint group algorithms (%s lowering)',
  (lowering: CollectiveLowering) => {
    test.each(['f32', 'i32', 'u32'] as const)(
      'every operator on %s arrays against the CPU model',
      async (s) => {
        // The constant's length for this run: 25 to 72, fresh each run.
        const n = 25 + (randomU32(1, 0x70 + s.length)[0]! % 48);
        const { text, kernels, out: OUT, flags: FLAGS_ } = source(s, n);
        const { program, diagnostics } = build([{ module: M, source: text }], {
          specConstants: 'both',
          validateIr: true,
        });
        expect(diagnostics).toEqual([]);
        const image = program!.images[0]!;
        expect(image.wgsl.native).toContain('enable subgroups;');
        expect(image.workgroupLowering!.wgsl.native).not.toMatch(
          /enable subgroups|subgroup[A-Z]|@builtin\(subgroup/,
        );
        const lay = inputLayout(n);
        const xs = inputs(s, lay.block * GROUPS, 0x7a0 + s.length);
        const ks = randomU32(128 * GROUPS, 0x7b1);
        // Each kernel writes its records; the next starts from what the last left.
        let accessors: Record<string, ArrayBuffer> = {
          out: new Uint32Array(OUT * GROUPS).fill(0x7fc0dead).buffer,
          flags: new Uint32Array(FLAGS_ * GROUPS).fill(0xdeadbeef).buffer,
        };
        for (const name of kernels) {
          ({ accessors } = await runKernel(image, `${M}#joint_${name}`, {
            mode: 'native',
            lowering,
            range: [WG[0], WG[1] * GROUPS],
            specConstants: { [`${M}#length`]: n },
            values: { OUT, BLOCK: lay.block },
            accessors: {
              xs,
              ks,
              out: new Uint32Array(accessors.out!),
              flags: new Uint32Array(accessors.flags!),
            },
          }));
        }
        const want = expected(s, n, xs, ks, { out: OUT, flags: FLAGS_ });
        const got =
          s === 'f32'
            ? new Float32Array(accessors.out!)
            : s === 'i32'
              ? new Int32Array(accessors.out!)
              : new Uint32Array(accessors.out!);
        const where = (i: number): string => {
          let at = i % OUT;
          for (const r of records(s)) {
            if (r.kind === 'predicate') continue;
            const w = width(r, n);
            if (at < w) return `group ${Math.floor(i / OUT)} ${JSON.stringify(r)} [${at}]`;
            at -= w;
          }
          return `${i}`;
        };
        const wrong: string[] = [];
        for (let i = 0; i < OUT * GROUPS && wrong.length < 10; i++) {
          if (!Object.is(got[i], want.out[i]) && !(got[i] === 0 && want.out[i] === 0)) {
            wrong.push(`${where(i)}: got ${got[i]}, want ${want.out[i]}`);
          }
        }
        expect(wrong).toEqual([]);
        expect([...new Uint32Array(accessors.flags!)]).toEqual(want.flags);
      },
    );
  },
);

describe('docs/device-code.md, "Joint algorithms"', () => {
  const docs = readFileSync(new URL('../../../../docs/device-code.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('### Joint algorithms'));
  const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!;

  test.each(['subgroups', 'workgroup'] as const)(
    "the example's prefix sums and peaks are the CPU's (%s lowering)",
    async (lowering) => {
      const module = 'src/prefix.sycl.ts';
      const { program, diagnostics } = build([{ module, source: example }], { validateIr: true });
      expect(diagnostics).toEqual([]);
      const groups = 3;
      // Small integers as f32: every sum is exact in any order.
      const xs = Float32Array.from(randomU32(200 * groups, 0x7c2), (r) => (r % 201) - 100);
      const { accessors } = await runKernel(program!.images[0]!, `${module}#prefix`, {
        mode: 'native',
        lowering,
        range: [64 * groups],
        accessors: { xs, peaks: new Float32Array(groups).fill(Number.NaN) },
      });
      const sums: number[] = [];
      const peaks: number[] = [];
      for (let g = 0; g < groups; g++) {
        let sum = 0;
        for (let j = 0; j < 200; j++) {
          sum += xs[g * 200 + j]!;
          sums.push(sum);
        }
        peaks.push(Math.max(...xs.subarray(g * 200, g * 200 + 200)));
      }
      expect([...new Float32Array(accessors.xs!)]).toEqual(sums);
      expect([...new Float32Array(accessors.peaks!)].slice(0, groups)).toEqual(peaks);
    },
  );
});

describe.each(['subgroups', 'workgroup'] as const)(
  'joint algorithms over vector arrays (%s lowering)',
  (lowering: CollectiveLowering) => {
    test.each(['native', 'emulated'] as const)(
      'vec2i and vec4f elements combine component by component (%s specialization constants)',
      async (mode) => {
        const module = 'src/joint-vectors.sycl.ts';
        const source = `
import { accessor, f32, i32, jointExclusiveScan, jointInclusiveScan, jointReduce, kernel, bitXor,
  maximum, minimum, multiplies, plus, vec2i, vec4f, workgroupArray } from '@syclts/dsl';
export const vectors = kernel(
  { ndRange: 1, workgroupSize: [12], args: { ns: accessor(i32, 'read'), fs: accessor(f32, 'read'),
      outI: accessor(i32, 'write'), outF: accessor(f32, 'write') },
    local: { vs: workgroupArray(vec2i, 29), ws: workgroupArray(vec2i, 29), qs: workgroupArray(vec4f, 7) } },
  (item, _kh, { ns, fs, outI, outF }, local) => {
    const g = item.getGroup();
    const li = g.getLocalLinearId();
    for (let j = li; j < 29; j += 12) { local.vs[j] = vec2i(ns[2 * j]!, ns[2 * j + 1]!); }
    for (let j = li; j < 7; j += 12) { local.qs[j] = vec4f(fs[4 * j]!, fs[4 * j + 1]!, fs[4 * j + 2]!, fs[4 * j + 3]!); }
    const init = vec2i(ns[58]!, ns[59]!);
    const sum = jointReduce(g, local.vs, plus);
    const peak = jointReduce(g, local.vs, init, maximum);
    const product = jointReduce(g, local.qs, multiplies);
    outI[li * 4] = sum.x; outI[li * 4 + 1] = sum.y; outI[li * 4 + 2] = peak.x; outI[li * 4 + 3] = peak.y;
    outF[li * 4] = product.x; outF[li * 4 + 1] = product.y; outF[li * 4 + 2] = product.z; outF[li * 4 + 3] = product.w;
    jointExclusiveScan(g, local.vs, local.ws, init, minimum);
    for (let j = li; j < 29; j += 12) { outI[48 + 2 * j] = local.ws[j]!.x; outI[48 + 2 * j + 1] = local.ws[j]!.y; }
    jointInclusiveScan(g, local.vs, local.vs, bitXor);
    jointInclusiveScan(g, local.qs, local.qs, plus);
    for (let j = li; j < 29; j += 12) { outI[106 + 2 * j] = local.vs[j]!.x; outI[106 + 2 * j + 1] = local.vs[j]!.y; }
    for (let j = li; j < 7; j += 12) { outF[48 + 4 * j] = local.qs[j]!.x; outF[48 + 4 * j + 1] = local.qs[j]!.y; outF[48 + 4 * j + 2] = local.qs[j]!.z; outF[48 + 4 * j + 3] = local.qs[j]!.w; }
  });
`;
        const { program, diagnostics } = build([{ module, source }], {
          specConstants: 'both',
          validateIr: true,
        });
        expect(diagnostics).toEqual([]);
        const ns = new Int32Array(randomU32(60, 0x7d3).buffer);
        const fs = Float32Array.from(
          randomU32(28, 0x7e4),
          (r) => (r & 1 ? -1 : 1) * 2 ** (((r >>> 1) % 5) - 1),
        );
        const { accessors } = await runKernel(program!.images[0]!, `${module}#vectors`, {
          mode,
          lowering,
          range: [12],
          accessors: {
            ns,
            fs,
            outI: new Int32Array(164).fill(0x7eadbeef),
            outF: new Float32Array(76).fill(Number.NaN),
          },
        });
        const v = (c: number) => Array.from({ length: 29 }, (_, j) => ns[2 * j + c]!);
        const q = (c: number) => Array.from({ length: 7 }, (_, j) => fs[4 * j + c]!);
        const init = [ns[58]!, ns[59]!];
        const wantI: number[] = [];
        const sum = [0, 1].map((c) => v(c).reduce((a, b) => (a + b) | 0, 0));
        const peak = [0, 1].map((c) => Math.max(init[c]!, ...v(c)));
        for (let i = 0; i < 12; i++) wantI.push(sum[0]!, sum[1]!, peak[0]!, peak[1]!);
        const mins = [0, 1].map((c) => {
          let m = init[c]!;
          return v(c).map((x) => {
            const before = m;
            m = Math.min(m, x);
            return before;
          });
        });
        for (let j = 0; j < 29; j++) wantI.push(mins[0]![j]!, mins[1]![j]!);
        const xors = [0, 1].map((c) => {
          let m = 0;
          return v(c).map((x) => {
            m ^= x;
            return m;
          });
        });
        for (let j = 0; j < 29; j++) wantI.push(xors[0]![j]!, xors[1]![j]!);
        const product = [0, 1, 2, 3].map((c) => q(c).reduce((a, b) => Math.fround(a * b), 1));
        const wantF: number[] = [];
        for (let i = 0; i < 12; i++) wantF.push(...product);
        const sums = [0, 1, 2, 3].map((c) => {
          let m = 0;
          return q(c).map((x) => {
            m += x;
            return m;
          });
        });
        for (let j = 0; j < 7; j++) wantF.push(...[0, 1, 2, 3].map((c) => sums[c]![j]!));
        expect([...new Int32Array(accessors.outI!)]).toEqual(wantI);
        expect([...new Float32Array(accessors.outF!)]).toEqual(wantF);
      },
    );
  },
);
