/**
 * `npm run fuzz`: builds generated inputs (well-typed kernels, mutated corpus modules, token
 * soup, hostile inputs) and checks every program on Dawn. Prints progress and a summary, writes
 * one reproducer per crash or rejection signature, and exits non-zero if there was any.
 *
 *   npm run fuzz -- [--count N] [--seed S] [--jobs J] [--first I] [--quick] [--timeout SECONDS]
 *                   [--out DIR]
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runPool } from './pool.js';
import { writeReproducers } from './reproducer.js';
import { Tally } from './tally.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    seed: { type: 'string' },
    jobs: { type: 'string', default: String(Math.max(1, availableParallelism() - 1)) },
    first: { type: 'string', default: '0' },
    quick: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '30' },
    out: { type: 'string', default: 'out/fuzz' },
  },
});

const seed = values.seed === undefined ? (Math.random() * 2 ** 32) >>> 0 : Number(values.seed);
const count = Number(values.count);
const first = Number(values.first);
const out = resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
const size = values.quick ? 'quick' : 'full';
const tally = new Tally(seed, size);
const started = performance.now();

console.log(`fuzz: seed ${seed}, inputs ${first}..${first + count - 1}, jobs ${values.jobs}`);
const line = () => {
  const s = (performance.now() - started) / 1000;
  return `${tally.inputs}/${count} inputs (${(tally.inputs / s).toFixed(0)}/s): ${tally.built} built, ${tally.refused} refused, ${tally.count('crash')} crashes, ${tally.count('rejected')} rejected`;
};
const progress = setInterval(() => console.log(line()), 10_000);
// Ctrl-C ends the run early with its summary and reproducers.
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
});
await runPool({
  seed,
  size,
  first,
  count,
  jobs: Number(values.jobs),
  timeoutMs: Number(values.timeout) * 1000,
  onReply: (reply, ms) => tally.add(reply, ms),
  stop: () => interrupted,
});
clearInterval(progress);

const findings = [...tally.findings.values()].sort(
  (a, b) => a.kind.localeCompare(b.kind) || b.count - a.count,
);
const files = writeReproducers(out, seed, size, findings);
console.log(`\n${line()}`);
console.log(
  `built: ${tally.built} (${tally.builtRaw} with raw-WGSL bodies, not checked on Dawn; ${tally.pipelines} pipelines created; ${tally.skippedF16} f16 modules not checked: the adapter has no shader-f16)`,
);
console.log('by family: built / refused / crash / rejected, mean time per input');
for (const [family, c] of [...tally.byFamily].sort()) {
  const n = c.built + c.refused + c.crash + c.rejected;
  console.log(
    `  ${family}: ${c.built} / ${c.refused} / ${c.crash} / ${c.rejected}, ${(c.ms / n).toFixed(1)} ms`,
  );
}
for (const kind of ['crash', 'rejected'] as const) {
  const list = findings.filter((f) => f.kind === kind);
  console.log(`\n${kind === 'crash' ? 'crashes' : 'Dawn rejections'} by signature: ${list.length}`);
  for (const f of list)
    console.log(`  ${f.count}x ${f.signature}\n     ${files[findings.indexOf(f)]}`);
}
console.log(`\nseed ${seed}; replay with --seed ${seed}${values.quick ? ' --quick' : ''}`);
process.exitCode = findings.length > 0 ? 1 : 0;
