import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sycltsVite from 'unplugin-syclts/vite';
import { build, createServer, type ViteDevServer } from 'vite';

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
    server: { host: '127.0.0.1', port, strictPort: false },
    // A dependency discovered on first load would reload the page under the test's feet.
    optimizeDeps: { noDiscovery: true },
  });
  await server.listen();
  return server;
}
