// The GPU suite on this machine's GPU: `npm run bench:gpu` (root) builds the packages, bundles the
// suite into bench/out/ and runs this script, which runs the bundles in bench/out/ on the hardware
// adapter and writes their tables to a folder (default bench/results/<date>-<gpu>/):
//   gpu.txt           nvidia-smi's name, clock and power limit, where nvidia-smi exists
//   tune.txt          hand-written matmul tile sweep (the baseline's best tile)
//   gpu-suite.md      the suite's tables
//   variants-4096.txt matmul WGSL variants at n = 4096
// `node bench/scripts/merge-gpu.mjs <folder>` writes them into docs/benchmarks.md.
// Usage: node bench/scripts/gpu-bench.mjs [--out <folder>] [--bundles <folder>]
//        node bench/out/gpu-bench.mjs [--out <folder>]   (the bundled folder, anywhere)
// Selection (environment, passed on to the suite): BENCH_SECTIONS=kernels,costs,collectives
// (default all; the matmul tile sweep and variants run only with kernels), BENCH_COLLECTIVES=
// reduce,scan,sort,group and BENCH_COLLECTIVES_LOG2 (see bench/src/gpu/collective-rows.ts).
// A quick run of the collectives beside the copy ceiling:
//   BENCH_SECTIONS=collectives npm run bench:gpu
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// bundle.mjs copies this script into bench/out/, so that folder runs on its own (with `webgpu`).
const here = dirname(fileURLToPath(import.meta.url));
const option = (name) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const bundles = resolve(
  option('--bundles') ?? (existsSync(join(here, 'gpu-suite.mjs')) ? here : join(here, '..', 'out')),
);
if (!existsSync(join(bundles, 'gpu-suite.mjs'))) {
  throw new Error(
    `gpu-bench: no gpu-suite.mjs in ${bundles}; run \`npm run bench:gpu\` from the repository root`,
  );
}

let gpu = '';
try {
  gpu = execFileSync(
    'nvidia-smi',
    ['--query-gpu=name,clocks.max.sm,power.limit', '--format=csv,noheader'],
    { encoding: 'utf8' },
  );
} catch {
  // Not an NVIDIA machine: the adapter line in each table names the GPU.
}
const date = new Date().toISOString().slice(0, 10);
const slug = (gpu.split(',')[0] || 'gpu')
  .trim()
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '-');
const out = resolve(option('--out') ?? join(here, '..', 'results', `${date}-${slug}`));
mkdirSync(out, { recursive: true });
if (gpu) writeFileSync(join(out, 'gpu.txt'), gpu);

// The hardware adapter with timestamp quantization off (see bench/src/gpu/device.ts), every step.
const env = { ...process.env, SYCLTS_ADAPTER: 'hardware' };
const step = (file, args, extra = {}) => {
  console.log(`gpu-bench: node ${file} ${args.join(' ')}`);
  return execFileSync(process.execPath, [join(bundles, file), ...args], {
    cwd: bundles,
    env: { ...env, ...extra },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
};
const kernels = (process.env.BENCH_SECTIONS ?? 'kernels')
  .split(',')
  .map((s) => s.trim())
  .includes('kernels');
if (kernels) {
  writeFileSync(
    join(out, 'tune.txt'),
    step('matmul-tune.mjs', ['2048', '4096'], { VARIANTS: 'literal' }),
  );
}
process.stdout.write(step('gpu-suite.mjs', ['--out', join(out, 'gpu-suite.md')]));
if (kernels) {
  const variants = step('matmul-variants.mjs', ['4096']).trimEnd().split('\n').slice(-8).join('\n');
  writeFileSync(join(out, 'variants-4096.txt'), `${variants}\n`);
  console.log(variants);
}
console.log(`gpu-bench: tables in ${out}`);
