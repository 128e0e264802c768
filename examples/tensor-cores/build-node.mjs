// Bundles the Node version into one file, dist/node/main.mjs. The runtime imports Dawn (`webgpu`)
// and finds the optional software adapter at run time, from node_modules: the file runs wherever
// those resolve, with no `external` setting here.
import * as esbuild from 'esbuild';
import syclts from 'unplugin-syclts/esbuild';

await esbuild.build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/node/main.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [syclts()],
});
