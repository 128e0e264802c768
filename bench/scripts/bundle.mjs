// Bundles the benchmark entry points with esbuild and the syclts plugin (device code compiled
// and linked at bundle time, both specialization-constant variants), `webgpu` left external.
// Output: bench/out/, with bench/gpu/*.mjs (raw WebGPU baselines) and the GPU suite's runner
// (scripts/gpu-bench.mjs) beside the bundles.
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import syclts from 'unplugin-syclts/esbuild';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const entries = [
  'gpu-suite',
  'cold-path',
  'conv-variants',
  'storm',
  'toolchain',
  'matmul-variants',
  'matmul-values',
  'tensor-cores',
];
await esbuild.build({
  absWorkingDir: bench,
  entryPoints: Object.fromEntries(entries.map((e) => [e, `src/${e}.ts`])),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@syclts/source'],
  external: ['webgpu'],
  outdir: 'out',
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
  plugins: [syclts({ specConstants: 'both' })],
});
cpSync(join(bench, 'gpu'), join(bench, 'out'), { recursive: true });
cpSync(join(bench, 'scripts', 'gpu-bench.mjs'), join(bench, 'out', 'gpu-bench.mjs'));
