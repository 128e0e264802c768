/**
 * Property: random well-typed device code compiles with no diagnostic, passes Dawn's
 * validation, runs, and every result equals what the generator computes for the same tree
 * with WGSL semantics. Integers must match exactly; an f32 result r of a case whose largest
 * intermediate magnitude is M must satisfy |r - expected| <= 2^-16 * max(1, M) (the GPU may
 * fuse multiply-adds, so results can differ from step-by-step rounding by a few ULPs of M).
 *
 * Cases are batched: CASES_PER_KERNEL blocks per kernel, KERNELS kernels in one module.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { buildProgram, runKernel } from './gpu.js';
import {
  type Case,
  dslImport,
  generateCase,
  INPUTS,
  Rand,
  type Type,
  tolerance,
  type Value,
} from './property/generator.js';

const KERNELS = 10;
const CASES_PER_KERNEL = 110;
const DEPTH = 3;
const MODULE = 'prop/cases.sycl.ts';

interface Batch {
  readonly cases: Case[];
  readonly ints: number[];
  readonly uints: number[];
  readonly floats: number[];
  readonly flags: number[];
}

function store(type: Type, component: string): string {
  const v = type.n === 1 ? 'r' : `r.${component}`;
  if (type.s === 'i32') return `u32(${v})`;
  if (type.s === 'f32') return `bitcastU32(${v})`;
  if (type.s === 'bool') return `${v} ? 1 : 0`;
  return v;
}

function kernelSource(name: string, batch: Batch): string {
  const lines = [
    `export const ${name} = kernel(`,
    "  { range: 1, args: { ai: accessor(i32, 'read'), bu: accessor(u32, 'read'), cf: accessor(f32, 'read'), fl: accessor(u32, 'read'), out: accessor(u32, 'write') } },",
    '  (_item, _kh, { ai, bu, cf, fl, out }) => {',
    ...[0, 1, 2, 3].map(
      (i) =>
        `    const a${i} = ai[${i}]!;\n    const b${i} = bu[${i}]!;\n    const c${i} = cf[${i}]!;`,
    ),
    '    const p0 = fl[0]! !== 0;',
    '    const p1 = fl[1]! !== 0;',
  ];
  for (const [k, c] of batch.cases.entries()) {
    lines.push('    {');
    lines.push(...c.text.split('\n').map((l) => `      ${l}`));
    for (let j = 0; j < c.type.n; j++)
      lines.push(`      out[${k * 4 + j}] = ${store(c.type, 'xyzw'[j]!)};`);
    lines.push('    }');
  }
  lines.push('  },', ');');
  return lines.join('\n');
}

const IMPORTS = `${dslImport('accessor', 'kernel')}\n`;

const batchArb = fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed): Batch => {
  const rand = new Rand(seed);
  const int = () =>
    rand.pick([0, 1, -1, 2, 7, -7, 100, 2 ** 31 - 1, -(2 ** 31), rand.int(2 ** 32) | 0]);
  const uint = () => rand.pick([0, 1, 2, 31, 32, 255, 2 ** 32 - 1, 2 ** 31, rand.int(2 ** 32)]);
  return {
    ints: [int(), int(), int(), rand.int(2 ** 32) | 0],
    uints: [uint(), uint(), uint(), rand.int(2 ** 32)],
    floats: [0, 1, 2, 3].map(() => Math.fround((rand.next() - 0.5) * 20)),
    flags: [rand.int(2), rand.int(2)],
    cases: Array.from({ length: CASES_PER_KERNEL }, () => generateCase(rand, INPUTS, DEPTH)),
  };
});

function bitsOf(type: Type, x: number): number {
  if (type.s === 'f32') return new Uint32Array(Float32Array.of(x).buffer)[0]!;
  return x >>> 0;
}

// Fresh cases every run; a failure names the seed, and SYCLTS_PROPERTY_SEED replays it.
const SEED = Number(process.env.SYCLTS_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));

// SwiftShader compiles each 110-case kernel on the CPU: minutes, not seconds, when CI runs every
// package's tests at once on two cores.
const TIMEOUT_MS = 300_000;

test(
  `${KERNELS * CASES_PER_KERNEL} random kernels' cases compile, validate, run and match the model (seed ${SEED})`,
  async () => {
    const batches = fc.sample(batchArb, { numRuns: KERNELS, seed: SEED });
    const source = IMPORTS + batches.map((b, i) => kernelSource(`k${i}`, b)).join('\n\n');
    const program = buildProgram({ [MODULE]: source });
    let checked = 0;
    for (const [i, batch] of batches.entries()) {
      const n = batch.cases.length * 4;
      const r = await runKernel(program, {
        kernel: `${MODULE}#k${i}`,
        range: [1],
        args: {
          ai: Int32Array.from(batch.ints),
          bu: Uint32Array.from(batch.uints),
          cf: Float32Array.from(batch.floats),
          fl: Uint32Array.from(batch.flags),
          out: new Uint32Array(n).fill(0xdeadbeef),
        },
      });
      const out = new Uint32Array(r.accessors.out!);
      const outF = new Float32Array(r.accessors.out!);
      const inputs = new Map<string, Value>([
        ...batch.ints.map((v, k): [string, Value] => [`a${k}`, [v]]),
        ...batch.uints.map((v, k): [string, Value] => [`b${k}`, [v]]),
        ...batch.floats.map((v, k): [string, Value] => [`c${k}`, [v]]),
        ...batch.flags.map((v, k): [string, Value] => [`p${k}`, [v]]),
      ]);
      for (const [k, c] of batch.cases.entries()) {
        const expected = c.run(inputs);
        // A rounded f32 next to a jump (a comparison, a truncation) may go either way.
        if (expected.fragile) continue;
        for (let j = 0; j < c.type.n; j++) {
          const at = k * 4 + j;
          const want = expected.v[j]!;
          const ok =
            c.type.s === 'f32'
              ? Math.abs(outF[at]! - want) <= tolerance(expected.mag, expected.err)
              : out[at] === bitsOf(c.type, want);
          if (!ok) {
            expect.fail(
              `kernel k${i}, case ${k}, component ${j}: got ${c.type.s === 'f32' ? outF[at] : out[at]}, expected ${want} (${c.type.s})\ninputs: ${JSON.stringify(Object.fromEntries(inputs))}\n${c.text}`,
            );
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(KERNELS * CASES_PER_KERNEL);
  },
  TIMEOUT_MS,
);
