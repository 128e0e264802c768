/**
 * Front-end compile time per module over a generated corpus of 1,000 modules (random kernels
 * from the property-test generator, with specialization constants, a device global and device
 * functions around them). Run from packages/compiler:
 *
 *   npx esbuild bench/frontend.ts --bundle --platform=node --format=esm \
 *     --conditions=@syclts/source --packages=external --outfile=bench/out/frontend.mjs \
 *   && node bench/out/frontend.mjs
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { compileModule } from '../src/index.js';
import { generateCase, Rand, T, type Type } from '../test/frontend/property/generator.js';

const MODULES = 1000;
const WARMUP = 100;

const INPUTS = new Map<string, Type>([
  ['a0', T('i32')],
  ['a1', T('i32')],
  ['b0', T('u32')],
  ['b1', T('u32')],
  ['c0', T('f32')],
  ['c1', T('f32')],
  ['p0', T('bool')],
]);

function moduleSource(index: number): string {
  const rand = new Rand(index * 7919 + 1);
  const cases = 4 + rand.int(24);
  const body: string[] = [];
  for (let k = 0; k < cases; k++) {
    const c = generateCase(rand, INPUTS, 3);
    const store =
      c.type.s === 'f32'
        ? 'bitcastU32'
        : c.type.s === 'bool'
          ? ''
          : c.type.s === 'i32'
            ? 'u32'
            : '';
    const value = c.type.n === 1 ? 'r' : 'r.x';
    const stored = c.type.s === 'bool' ? `${value} ? 1 : 0` : `${store}(${value})`;
    body.push(
      `    {\n${c.text.replace(/^/gm, '      ')}\n      out[${k}] = ${stored} + scale(u32(${k}));\n    }`,
    );
  }
  return `import { accessor, add, all, any, atomic, atomicAdd, bitcastU32, deviceFunction, deviceGlobal, eq, f32, ge, gt, i32, kernel, le, lt, mul, ne, select, specializationId, sub, u32, vec2b, vec2f, vec2i, vec2u, vec3b, vec3f, vec3i, vec3u, vec4b, vec4f, vec4i, vec4u } from '@syclts/dsl';

export const factor = specializationId(u32, ${index % 17});
export const weights = specializationId(vec4f, [0.5, 1, 1.5, ${index}]);
export const hits = deviceGlobal(atomic(u32), { hostAccess: 'read' });

export const scale = deviceFunction({ args: [u32], returns: u32 }, (x) => {
  atomicAdd(hits, 1);
  return x * 3 + 1;
});

export const k${index} = kernel(
  { range: 1, args: { ai: accessor(i32, 'read'), bu: accessor(u32, 'read'), cf: accessor(f32, 'read'), out: accessor(u32, 'write') } },
  (item, kh, { ai, bu, cf, out }) => {
    const a0 = ai[0]!;
    const a1 = ai[1]! + i32(kh.getSpecializationConstant(factor));
    const b0 = bu[0]!;
    const b1 = bu[item.getId(0)]!;
    const c0 = cf[0]! * kh.getSpecializationConstant(weights).w;
    const c1 = cf[1]!;
    const p0 = b0 > b1;
${body.join('\n')}
  },
);
`;
}

const sources = Array.from({ length: MODULES }, (_, i) => moduleSource(i));
const lines = sources.reduce((n, s) => n + s.split('\n').length, 0);
const bytes = sources.reduce((n, s) => n + s.length, 0);

for (let i = 0; i < WARMUP; i++)
  compileModule(sources[i % MODULES]!, { module: `bench/m${i}.sycl.ts` });

const times: number[] = [];
let failures = 0;
const cpuStart = process.cpuUsage();
const start = performance.now();
for (const [i, source] of sources.entries()) {
  const t0 = performance.now();
  const { object } = compileModule(source, { module: `bench/m${i}.sycl.ts` });
  times.push(performance.now() - t0);
  if (!object) failures++;
}
const total = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
const ms = (x: number) => `${x.toFixed(3)} ms`;

console.log(
  `front end: ${MODULES} modules, ${lines} lines, ${(bytes / 1024).toFixed(0)} KiB of source`,
);
if (failures > 0) throw new Error(`${failures} generated modules did not compile`);
console.log(
  `  per module: median ${ms(at(0.5))}, mean ${ms(total / MODULES)}, p95 ${ms(at(0.95))}, max ${ms(at(1))}`,
);
console.log(`  total ${ms(total)} wall, ${ms(cpuMs)} CPU (${ms(cpuMs / MODULES)} CPU per module)`);
console.log(
  `  ${((lines / total) * 1000).toFixed(0)} lines/s wall, ${((lines / cpuMs) * 1000).toFixed(0)} lines/s CPU`,
);
console.log(
  `  node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), load average ${loadavg()[0]!.toFixed(1)}`,
);
