import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sycltsVite from 'unplugin-syclts/vite';
import { build, createServer, type ViteDevServer } from 'vite';
import { repoRoot } from './paths.js';

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

/** Vite's dev server over the app at `root`, listening on 127.0.0.1 (the next free port from `port`). */
export async function startDevServer(root: string, port: number): Promise<ViteDevServer> {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [sycltsVite()],
    server: {
      host: '127.0.0.1',
      port,
      strictPort: false,
      // The page loads the workspace packages' build output (packages/*/dist), which the dev
      // server watches as files outside its root: a write there by anything else running (a
      // build of the workspace, by hand or by another test file) is a full reload, which loses
      // the page's state and its count of updates.
      watch: { ignored: [`${repoRoot.split('\\').join('/')}/packages/*/dist/**`] },
    },
    // A dependency discovered on first load would reload the page under the test's feet.
    optimizeDeps: { noDiscovery: true },
  });
  await server.listen();
  return server;
}
