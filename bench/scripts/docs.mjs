// Writes generated sections into docs/benchmarks.md, between
// <!-- bench:NAME:begin --> and <!-- bench:NAME:end --> (the rest of the page is kept).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchmarksPage = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'docs',
  'benchmarks.md',
);

export function writeSection(name, body) {
  const page = readFileSync(benchmarksPage, 'utf8');
  const begin = `<!-- bench:${name}:begin -->`;
  const end = `<!-- bench:${name}:end -->`;
  const from = page.indexOf(begin);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/benchmarks.md has no ${begin} ... ${end}`);
  writeFileSync(
    benchmarksPage,
    `${page.slice(0, from + begin.length)}\n${body.trim()}\n${page.slice(to)}`,
  );
  console.log(`docs/benchmarks.md: section '${name}' updated`);
}
