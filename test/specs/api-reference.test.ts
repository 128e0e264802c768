/**
 * docs/api, the API reference TypeDoc generates from the packages' declarations and JSDoc, is
 * current: generated again, it is the same. TypeDoc fails on a warning (typedoc.json), so a
 * public type that names an unexported one, or a broken link, fails here too.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

const exec = promisify(execFile);

async function files(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const found = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return found;
}

test('docs/api is what `npm run docs:api` generates from the sources', async () => {
  const out = await mkdtemp(join(tmpdir(), 'syclts-api-'));
  try {
    await exec('npx', ['typedoc', '--out', out], { cwd: repoRoot });
    const generated = await files(out);
    const committed = await files(join(repoRoot, 'docs/api'));
    expect([...committed.keys()].sort()).toEqual([...generated.keys()].sort());
    for (const [path, text] of generated) {
      expect(committed.get(path), `docs/api/${path} is stale: run npm run docs:api`).toBe(text);
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
