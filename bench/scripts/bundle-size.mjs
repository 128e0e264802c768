// Runtime size in a production bundle: esbuild (minified, browser, ES modules) with the syclts
// plugin, gzip level 9. Prints a Markdown section.
//   app:      bench/src/size/app.ts, one kernel with one specialization constant
//   runtime:  everything @syclts/runtime exports (the upper bound of what an app pulls in)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build as buildDevice } from '@syclts/compiler';
import * as esbuild from 'esbuild';
import syclts from 'unplugin-syclts/esbuild';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const version = esbuild.version;

async function bundle(entry, contents, options = {}) {
  const result = await esbuild.build({
    absWorkingDir: bench,
    ...(contents
      ? { stdin: { contents, resolveDir: bench, loader: 'ts', sourcefile: entry } }
      : { entryPoints: [entry] }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@syclts/source'],
    outdir: 'out/size',
    write: false,
    logLevel: 'warning',
    plugins: [syclts(options)],
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js')).text;
  return js;
}

const sizes = (text) => ({ min: Buffer.byteLength(text), gz: gzipSync(text, { level: 9 }).length });

const app = await bundle('src/size/app.ts');
const appNoMaps = await bundle('src/size/app.ts', undefined, { lineMaps: false });
// The linked program is inlined as a JSON string: measure the bundle without it too.
const { program } = buildDevice(
  [
    {
      module: 'src/size/scale.sycl.ts',
      source: readFileSync(join(bench, 'src/size/scale.sycl.ts'), 'utf8'),
    },
  ],
  {},
);
const programJson = JSON.stringify(JSON.stringify(program));
const at = app.indexOf(programJson.slice(1, 40));
const appWithout =
  at >= 0 ? `${app.slice(0, at - 1)}""${app.slice(at - 1 + programJson.length)}` : null;
const runtime = await bundle('runtime.ts', "export * from '@syclts/runtime';");

const rows = [
  ['minimal app: whole bundle', sizes(app)],
  ['minimal app: whole bundle, built with `lineMaps: false`', sizes(appNoMaps)],
  ...(appWithout
    ? [['minimal app without its linked program (runtime + DSL + app)', sizes(appWithout)]]
    : []),
  ['all of `@syclts/runtime` (every export kept)', sizes(runtime)],
];
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  [
    `esbuild ${version} (\`--minify\`, browser, ES modules) with the syclts plugin, gzip -9. The minimal app is bench/src/size/app.ts: one kernel with one specialization constant, run once.`,
    '',
    '| bundle | minified | gzipped |',
    '| --- | ---: | ---: |',
    ...rows.map(
      ([name, s]) =>
        `| ${name} | ${s.min.toLocaleString('en')} B (${kb(s.min)}) | ${s.gz.toLocaleString('en')} B (${kb(s.gz)}) |`,
    ),
  ].join('\n'),
);
