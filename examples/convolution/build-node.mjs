// Bundles the Node version into one file, dist/node/main.mjs: everything but `webgpu` (Dawn's
// native binding) and the optional software adapter is inside, so the file runs wherever those
// two resolve.
import * as esbuild from 'esbuild';
import syclts from 'unplugin-syclts/esbuild';

await esbuild.build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/node/main.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['webgpu', '@sparticuz/chromium'],
  // Bundled CommonJS code may call require().
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
  plugins: [syclts({ specConstants: 'both' })],
});
