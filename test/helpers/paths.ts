import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const fixtures = join(import.meta.dirname, '..', 'fixtures');

/** The repository's root. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/**
 * Output lives inside the repository so that Node resolves the bundles' package imports
 * (`@syclts/runtime`, `webgpu`) from the workspace's node_modules.
 */
export const outRoot = join(import.meta.dirname, '..', 'out');

/** A fresh copy of a fixture app under out/, with `packages` copied into its node_modules. */
export function stageApp(
  fixture: string,
  name: string,
  packages: Record<string, string> = {},
): string {
  const root = join(outRoot, name);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  cpSync(join(fixtures, fixture), root, { recursive: true });
  for (const [packageName, packageFixture] of Object.entries(packages)) {
    cpSync(join(fixtures, packageFixture), join(root, 'node_modules', packageName), {
      recursive: true,
    });
  }
  return root;
}
