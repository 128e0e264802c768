/**
 * Prepares the front end's check on a hardware GPU: compiles the f16 corpus module and a batch of
 * property-test kernels here, and writes them with inputs and expected results to
 * test/out/frontend-jobs.json; run.ts executes them on the GPU. From packages/compiler:
 *
 *   npx esbuild test/frontend/device/prepare.ts --bundle --platform=node --format=esm \
 *     --conditions=@syclts/source --packages=external --outfile=test/out/prepare.mjs \
 *   && node test/out/prepare.mjs
 *   npx esbuild test/frontend/device/run.ts --bundle --platform=node --format=esm \
 *     --conditions=@syclts/source --external:webgpu --outfile=test/out/frontend-check.mjs
 *   node test/out/frontend-check.mjs     # on a machine with a GPU
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildProgram } from '../gpu.js';
import {
  tolerance as caseTolerance,
  dslImport,
  generateCase,
  INPUTS,
  Rand,
  type Type,
  type Value,
} from '../property/generator.js';
import type { Job, JobFile } from './jobs.js';

// Paths are relative to packages/compiler, where the bundled script runs.
const half = readFileSync('test/corpus/device/half.sycl.ts', 'utf8');
const f16bits = (x: number) => {
  // Inputs are small multiples of 1/4: exact in f16.
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0]!;
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  const mant = (u >>> 13) & 0x3ff;
  return x === 0 ? 0 : sign | (exp << 10) | mant;
};

const xs = Array.from({ length: 32 }, (_, i) => (i - 16) * 0.25);
const k = 1.5;
const jobs: Job[] = [
  {
    name: 'f16 arithmetic and vectors',
    requires: 'shader-f16',
    kernel: 'device/half.sycl.ts#halves',
    range: [xs.length],
    accessors: { x: ['f16bits', xs.map(f16bits)], out: ['f32', xs.map(() => Number.NaN)] },
    values: { k },
    output: 'out',
    expected: xs.map((x) => {
      const h = x * 2 + k;
      return h + h * 0.5 - h + 1 + Math.max(h, 3);
    }),
    tolerance: xs.map(() => 1e-2),
  },
];

// Property-test kernels, as in property.test.ts, with expected words computed here.
const store = (type: Type, c: string) => {
  const v = type.n === 1 ? 'r' : `r.${c}`;
  return type.s === 'i32'
    ? `u32(${v})`
    : type.s === 'f32'
      ? `bitcastU32(${v})`
      : type.s === 'bool'
        ? `${v} ? 1 : 0`
        : v;
};
const kernels: string[] = [];
for (let b = 0; b < 10; b++) {
  const rand = new Rand(7777 + b);
  const ints = [1, -1, 2 ** 31 - 1, rand.int(2 ** 32) | 0];
  const uints = [0, 31, 2 ** 32 - 1, rand.int(2 ** 32)];
  const floats = [0, 1, 2, 3].map(() => Math.fround((rand.next() - 0.5) * 20));
  const flags = [rand.int(2), rand.int(2)];
  const cases = Array.from({ length: 110 }, () => generateCase(rand, INPUTS, 3));
  const inputs = new Map<string, Value>([
    ...ints.map((v, i): [string, Value] => [`a${i}`, [v]]),
    ...uints.map((v, i): [string, Value] => [`b${i}`, [v]]),
    ...floats.map((v, i): [string, Value] => [`c${i}`, [v]]),
    ...flags.map((v, i): [string, Value] => [`p${i}`, [v]]),
  ]);
  const body = cases.map((c, i) => {
    const writes = Array.from(
      { length: c.type.n },
      (_, j) => `out[${i * 4 + j}] = ${store(c.type, 'xyzw'[j]!)};`,
    );
    return `{\n${c.text}\n${writes.join('\n')}\n}`;
  });
  kernels.push(
    `export const k${b} = kernel({ range: 1, args: { ai: accessor(i32, 'read'), bu: accessor(u32, 'read'), cf: accessor(f32, 'read'), fl: accessor(u32, 'read'), out: accessor(u32, 'write') } }, (_item, _kh, { ai, bu, cf, fl, out }) => {\n${[0, 1, 2, 3].map((i) => `const a${i} = ai[${i}]!; const b${i} = bu[${i}]!; const c${i} = cf[${i}]!;`).join('\n')}\nconst p0 = fl[0]! !== 0; const p1 = fl[1]! !== 0;\n${body.join('\n')}\n});`,
  );
  const expected: number[] = [];
  const tolerance: (number | null)[] = [];
  for (const c of cases) {
    const e = c.run(inputs);
    for (let j = 0; j < 4; j++) {
      const v = j < c.type.n ? e.v[j]! : 0xdeadbeef;
      expected.push(c.type.s === 'f32' && j < c.type.n ? v : v >>> 0);
      const inCase = j < c.type.n;
      // A fragile case's words may take either side of its jump: any value is right.
      tolerance.push(
        inCase && e.fragile
          ? Infinity
          : c.type.s === 'f32' && inCase
            ? caseTolerance(e.mag, e.err)
            : null,
      );
    }
  }
  jobs.push({
    name: `property batch ${b}`,
    kernel: `prop/cases.sycl.ts#k${b}`,
    range: [1],
    accessors: {
      ai: ['i32', ints],
      bu: ['u32', uints],
      cf: ['f32', floats],
      fl: ['u32', flags],
      out: ['u32', Array(cases.length * 4).fill(0xdeadbeef)],
    },
    values: {},
    output: 'out',
    expected,
    tolerance,
  });
}
const imports = `${dslImport('accessor', 'kernel')}\n`;
const program = buildProgram({
  'device/half.sycl.ts': half,
  'prop/cases.sycl.ts': imports + kernels.join('\n\n'),
});
const file: JobFile = { program, jobs };
const out = 'test/out/frontend-jobs.json';
writeFileSync(out, JSON.stringify(file));
console.log(`wrote ${jobs.length} jobs to ${out}`);
