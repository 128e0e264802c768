import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sycltsVite from 'unplugin-syclts/vite';
import { build } from 'vite';

/** A production build for browsers (minified), as `vite build` makes it. */
export async function buildForBrowser(root: string, outDir: string): Promise<void> {
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [sycltsVite()],
    build: { outDir, emptyOutDir: true, target: 'esnext' },
  });
}

/** The JavaScript files of a build, by name. */
export function scripts(outDir: string): Map<string, string> {
  const assets = join(outDir, 'assets');
  return new Map(
    readdirSync(assets)
      .filter((name) => name.endsWith('.js'))
      .map((name) => [name, readFileSync(join(assets, name), 'utf8')]),
  );
}
