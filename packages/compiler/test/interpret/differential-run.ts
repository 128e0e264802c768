/**
 * The differential check outside the test runner, for long runs and machines with a GPU:
 * rounds of random kernels on whatever adapter Dawn finds and on the interpreter, compared.
 * Not a test. Bundle and run:
 *   npx esbuild packages/compiler/test/interpret/differential-run.ts --bundle --platform=node \
 *     --format=esm --external:webgpu --conditions=@syclts/source --outfile=out/differential.mjs
 *   node out/differential.mjs --count 100000 [--seed S]
 * Prints each round and a summary line; exits 1 on any disagreement.
 */
import { differentialRound } from './differential.js';

const KERNELS = 8;
const CASES_PER_KERNEL = 130;

const option = (name: string): number | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
};
const count = option('count') ?? 10_400;
const first = option('seed') ?? Math.floor(Math.random() * 2 ** 31);
const rounds = Math.ceil(count / (KERNELS * CASES_PER_KERNEL));

let cases = 0;
let checked = 0;
let indeterminate = 0;
let disagreements = 0;
const started = performance.now();
for (let round = 0; round < rounds; round++) {
  const seed = (first + round * 0x9e3779b1) >>> 0;
  const r = await differentialRound(seed, KERNELS, CASES_PER_KERNEL);
  cases += r.cases;
  checked += r.checked;
  indeterminate += r.indeterminate;
  disagreements += r.disagreements.length;
  for (const d of r.disagreements.slice(0, 3)) {
    console.log(
      `DISAGREEMENT round ${round} (seed ${seed}): kernel ${d.kernel}, case ${d.case}, item ${d.item}, component ${d.component} (${d.type}): gpu ${d.gpu}, cpu ${d.cpu}\n${d.text}`,
    );
  }
  console.log(`[differential] seed ${first} round ${round + 1}/${rounds}: ${cases} cases`);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `[differential] seed ${first}: ${cases} cases, ${checked} results compared, ${indeterminate} indeterminate, ${disagreements} disagreements, ${seconds} s`,
);
process.exit(disagreements > 0 ? 1 : 0);
