// `npm run bench`: the CPU-side suites (toolchain scaling, runtime size in a production bundle),
// printed and written into docs/benchmarks.md with the date and machine.
import { execFileSync } from 'node:child_process';
import { cpus, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSection } from './docs.mjs';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = (command) =>
  `_${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${hostname()} (${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}: \`${command}\`._`;
const run = (script, args = []) =>
  execFileSync(process.execPath, [join(bench, script), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });

const sizes = process.env.BENCH_MODULES?.split(',') ?? ['500', '1000', '5000'];
const toolchain = run('out/toolchain.mjs', sizes);
console.log(toolchain);
writeSection('toolchain', `${stamp('npm run bench')}\n\n${toolchain}`);
const size = run('scripts/bundle-size.mjs');
console.log(size);
writeSection('bundle-size', `${stamp('npm run bench')}\n\n${size}`);
