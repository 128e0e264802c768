/**
 * A first-time user's `npm run build` (what `npm start` and `npm test` begin with) prints no
 * telemetry notice: the repository turns Turborepo's telemetry off for its own commands.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

const exec = promisify(execFile);

test('npm run build on a machine that never ran Turborepo prints no telemetry notice', async () => {
  const home = await mkdtemp(join(tmpdir(), 'syclts-home-'));
  try {
    const inherited = Object.entries(process.env).filter(
      ([name]) => name !== 'TURBO_TELEMETRY_DISABLED' && name !== 'DO_NOT_TRACK',
    );
    const env = {
      ...Object.fromEntries(inherited),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
    };
    const { stdout, stderr } = await exec('npm', ['run', 'build'], { cwd: repoRoot, env });
    expect(`${stdout}${stderr}`).toContain('Tasks:');
    expect(`${stdout}${stderr}`).not.toMatch(/Attention:|collects .*telemetry/i);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
