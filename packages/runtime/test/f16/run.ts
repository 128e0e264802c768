/**
 * The f16 checks outside the test runner, for a machine with a GPU that offers `shader-f16`
 * (through Dawn's toggles on NVIDIA). Not a test. Bundle and run, from packages/runtime:
 *   npx esbuild test/f16/run.ts --bundle --platform=node --format=esm --external:webgpu \
 *     --conditions=@syclts/source --outfile=out/f16.mjs
 *   node out/f16.mjs test/fixtures/compiled/half.sycl.ts [--seed S]
 * Elsewhere the bundle needs `webgpu` and oxc-parser's native binding in a node_modules beside
 * it, and the fixture's path. Prints each check, with the seeds that replay it
 * (SYCLTS_TEST_SEED, --seed), and exits 1 on any mismatch.
 */
import { readFileSync } from 'node:fs';
import { Queue } from '../../src/index.js';
import * as half from '../fixtures/compiled/half.sycl.js';
import { compileSources } from '../support/compile.js';
import { F16_CHECKS } from './checks.js';

const [source] = process.argv.slice(2);
if (!source) throw new Error('usage: node f16.mjs <path of half.sycl.ts> [--seed S]');
const at = process.argv.indexOf('--seed');
const seed = at >= 0 ? Number(process.argv[at + 1]) : Math.floor(Math.random() * 2 ** 31);
compileSources([
  { module: 'src/half.sycl.ts', source: readFileSync(source, 'utf8'), exports: half },
]);

let failures = 0;
for (const mode of ['native', 'emulated'] as const) {
  const q = await Queue.create({
    specConstants: mode,
    requiredFeatures: ['shader-f16'],
    dawnToggles: { enable: ['vulkan_enable_f16_on_nvidia'] },
  });
  console.log(`${q.adapterDescription}, ${mode} constants, seed ${seed}`);
  for (const [i, check] of F16_CHECKS.entries()) {
    const bad = await check.run(q, seed + i);
    failures += bad.length;
    console.log(`${bad.length === 0 ? 'ok  ' : 'FAIL'} ${check.name}`);
    for (const line of bad) console.log(`  ${line}`);
  }
  await q.destroy();
  q.device.destroy();
}
process.exit(failures === 0 ? 0 : 1);
