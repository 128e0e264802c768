// Bundles the benchmark entry points with esbuild and the syclts plugin (device code compiled
// and linked at bundle time, both specialization-constant variants), `webgpu` left external.
// Output: bench/out/*.mjs; with --gpu also copied to .gpu/app/ for the GPU machine.
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import syclts from 'unplugin-syclts/esbuild';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const entries = ['gpu-suite', 'storm', 'toolchain', 'matmul-variants'];
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
if (process.argv.includes('--gpu')) {
  const app = join(bench, '..', '.gpu', 'app');
  mkdirSync(app, { recursive: true });
  for (const e of entries) cpSync(join(bench, 'out', `${e}.mjs`), join(app, `${e}.mjs`));
  cpSync(join(bench, 'gpu'), app, { recursive: true });
  console.log(`bundled ${entries.join(', ')} and bench/gpu/*.mjs into .gpu/app/`);
}
