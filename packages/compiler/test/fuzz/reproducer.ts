/** A finding's reproducer: the input's modules and how to replay it, in one readable file. */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Size } from './input.js';
import { inputAt } from './inputs.js';
import type { Finding } from './tally.js';

export function reproducerText(seed: number, size: Size, finding: Finding): string {
  const input = inputAt(seed, finding.index, size);
  const header = [
    `// ${finding.kind}: ${finding.signature}`,
    `// seen ${finding.count} times; this is input ${finding.index} of seed ${seed} (${input.family})`,
    `// replay: npm run fuzz -- --seed ${seed} --first ${finding.index} --count 1${size === 'quick' ? ' --quick' : ''}`,
    `// build options: { specConstants: '${input.specConstants}', validateIr: true }`,
    ...finding.detail
      .split('\n')
      .slice(0, 12)
      .map((l) => `// | ${l}`),
  ];
  const modules = input.sources.map(
    (s) => `// ---- module ${JSON.stringify(s.module)}\n${s.source}`,
  );
  return `${header.join('\n')}\n${modules.join('\n')}\n`;
}

/** Writes one file per finding under `dir`; returns the files, in the order of `findings`. */
export function writeReproducers(
  dir: string,
  seed: number,
  size: Size,
  findings: readonly Finding[],
): string[] {
  mkdirSync(dir, { recursive: true });
  // A previous run's reproducers would read as this run's.
  for (const old of readdirSync(dir)) if (old.endsWith('.sycl.txt')) rmSync(join(dir, old));
  return findings.map((f, i) => {
    const slug = f.signature
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 60)
      .replace(/^-|-$/g, '');
    const file = join(dir, `${f.kind}-${String(i + 1).padStart(2, '0')}-${slug}.sycl.txt`);
    writeFileSync(file, reproducerText(seed, size, f));
    return file;
  });
}
