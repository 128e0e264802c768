// Side by side: two toolchain benchmark bundles (bench/out/toolchain.mjs as `npm run bench`
// builds it, one from each compiler to compare), run alternated in fresh Node processes, several
// times per size. Prints each run's CPU ms (transform + link, the process's user + system time)
// and, per size, the medians and their ratio (second / first). CPU time rather than wall time:
// on a shared machine it moves less with the load.
//
//   node bench/scripts/toolchain-compare.mjs BEFORE.mjs AFTER.mjs [--runs N] [--sizes 500,5000]
//
// A bundle imports oxc-parser's native binding at run time, so leave each where it was built
// (inside a checkout with node_modules) rather than copying it elsewhere.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const runs = Number(option('--runs', '5'));
const sizes = option('--sizes', '500,5000').split(',').map(Number);
if (args.length !== 2 || !(runs >= 1) || sizes.some((n) => !(n >= 1))) {
  console.error(
    'usage: node toolchain-compare.mjs BEFORE.mjs AFTER.mjs [--runs N] [--sizes 500,5000]',
  );
  process.exit(2);
}
const bundles = args.map((a) => resolve(a));

const sample = (bundle, modules) => {
  const s = JSON.parse(
    execFileSync(process.execPath, [bundle, '--child', String(modules)], { encoding: 'utf8' }),
  );
  return { cpu: s.transformCpuMs + s.linkCpuMs, wgslKiB: s.wgslKiB };
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

console.log(`before: ${bundles[0]}\nafter:  ${bundles[1]}\n${runs} runs per size, alternated`);
const summary = [];
for (const modules of sizes) {
  const cpu = [[], []];
  const ratios = [];
  for (let r = 0; r < runs; r++) {
    // Alternate which bundle goes first, so neither always runs on a warmer (or busier) machine.
    const order = r % 2 ? [1, 0] : [0, 1];
    const pair = [];
    for (const b of order) {
      const s = sample(bundles[b], modules);
      pair[b] = s;
      cpu[b].push(s.cpu);
    }
    if (pair[0].wgslKiB !== pair[1].wgslKiB) {
      console.warn(`  note: WGSL sizes differ (${pair[0].wgslKiB} / ${pair[1].wgslKiB} KiB)`);
    }
    ratios.push(pair[1].cpu / pair[0].cpu);
    console.log(
      `${modules} modules, run ${r + 1}: ${pair[0].cpu.toFixed(0)} / ${pair[1].cpu.toFixed(0)} CPU ms (${ratios.at(-1).toFixed(2)}x)`,
    );
  }
  const [a, b] = cpu.map(median);
  summary.push(
    `${modules} modules: median CPU ms ${a.toFixed(0)} / ${b.toFixed(0)}, ratio of medians ${(b / a).toFixed(3)}x, median of run ratios ${median(ratios).toFixed(3)}x`,
  );
}
console.log(`\n${summary.join('\n')}`);
