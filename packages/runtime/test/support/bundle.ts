/**
 * Node programs for tests that need a process of their own: a test fixture bundled with the
 * runtime's sources into a folder inside the package (ignored by git, `.tmp-*`), where the bundle
 * still finds Dawn and SwiftShader in node_modules.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

export interface Bundled {
  readonly dir: string;
  /** The bundle of each fixture, by its name (`fixtures/<name>.ts` becomes `<dir>/<name>.mjs`). */
  path(name: string): string;
  remove(): Promise<void>;
}

export async function bundleFixtures(names: readonly string[]): Promise<Bundled> {
  const dir = await mkdtemp(join(packageDir, '.tmp-bundle-'));
  const path = (name: string) => join(dir, `${name}.mjs`);
  for (const name of names) {
    await build({
      entryPoints: [join(packageDir, `test/fixtures/${name}.ts`)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['@syclts/source'],
      outfile: path(name),
      logLevel: 'silent',
    });
  }
  return { dir, path, remove: () => rm(dir, { recursive: true, force: true }) };
}
