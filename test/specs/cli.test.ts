/**
 * The `syclts` command of this repository resolves to the compiler's own bin after `npm ci`
 * (never to a package of that name in the registry), and runs the built compiler.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

test('node_modules/.bin/syclts is the compiler package bin, which is checked in', () => {
  const link = readlinkSync(join(repoRoot, 'node_modules/.bin/syclts'));
  expect(link).toBe('../@syclts/compiler/bin/syclts.js');
  const manifest = JSON.parse(
    readFileSync(join(repoRoot, 'packages/compiler/package.json'), 'utf8'),
  ) as { bin: Record<string, string>; files: string[] };
  expect(manifest.bin).toEqual({ syclts: './bin/syclts.js' });
  expect(manifest.files).toContain('bin');
});

test('npm exec --no syclts: help, build and inspect, without the registry', () => {
  const run = (...args: string[]) =>
    execFileSync('npm', ['exec', '--no', '--offline', '--', 'syclts', ...args], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9' },
    });
  expect(run('--help')).toContain('syclts build <files...> --out-dir DIR');
  const out = mkdtempSync(join(tmpdir(), 'syclts-cli-'));
  try {
    expect(run('build', 'examples/hello/src/scale.sycl.ts', '--out-dir', out)).toContain(
      '1 device image written',
    );
    expect(run('inspect', out)).toContain('examples/hello/src/scale.sycl.ts#factor');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
