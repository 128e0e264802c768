// Writes the GPU suite's output (gpu-suite.md, and tune.txt and variants-4096.txt where present,
// as `npm run bench:gpu` writes them) into docs/benchmarks.md.   node bench/scripts/merge-gpu.mjs <folder>
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSection } from './docs.mjs';

const folder = process.argv[2];
if (!folder) throw new Error('usage: merge-gpu.mjs <folder with gpu-suite.md and tune.txt>');
writeSection('gpu', readFileSync(join(folder, 'gpu-suite.md'), 'utf8'));
const tune = join(folder, 'tune.txt');
if (existsSync(tune)) {
  const lines = readFileSync(tune, 'utf8').split('\n');
  // nvidia-smi's name, where the run saved it (gpu.txt): Vulkan adapters name only the driver.
  const gpu = join(folder, 'gpu.txt');
  const name = existsSync(gpu) ? `${readFileSync(gpu, 'utf8').split(',')[0].trim()}, ` : '';
  const adapter = (lines.find((l) => l.startsWith('adapter:')) ?? '').replace(
    'adapter: ',
    `adapter: ${name}`,
  );
  const header = lines.findIndex((l) => l.startsWith('N | config'));
  const rows = lines.slice(header + 1).filter((l) => /^\d+ \|/.test(l));
  const cells = rows.map((r) => r.split(' | ').map((c) => c.trim()));
  writeSection(
    'tune',
    [
      `${adapter.replace('adapter:', 'Adapter:')}. GPU timestamps, median of 15 launches. Command: \`(cd bench/out && VARIANTS=literal node matmul-tune.mjs 2048 4096)\`.`,
      '',
      '| n | tile (BM, BN, BK, TM, TN) | median | rate | pipeline creation | max rel. error |',
      '| ---: | --- | ---: | ---: | ---: | ---: |',
      ...cells.map((c) => {
        const cfg = JSON.parse(c[1]);
        return `| ${c[0]} | ${cfg.BM}, ${cfg.BN}, ${cfg.BK}, ${cfg.TM}, ${cfg.TN} | ${c[3]} | ${c[4]} | ${c[5].replace('compile ', '')} | ${c[6].replace('err ', '')} |`;
      }),
    ].join('\n'),
  );
}
const variants = join(folder, 'variants-4096.txt');
if (existsSync(variants)) {
  const lines = readFileSync(variants, 'utf8').split('\n');
  writeSection(
    'variants',
    [
      'Command: `node bench/out/matmul-variants.mjs 4096` (same device and date as the suite above).',
      '',
      ...lines.filter((l) => l.startsWith('|')),
    ].join('\n'),
  );
}
