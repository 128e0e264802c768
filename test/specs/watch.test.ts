import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { watch as rollupWatch } from 'rollup';
import esbuildTransform from 'rollup-plugin-esbuild';
import sycltsRollup from 'unplugin-syclts/rollup';
import sycltsWebpack from 'unplugin-syclts/webpack';
import { expect, test } from 'vitest';
import webpack from 'webpack';
import { stageApp } from '../helpers/paths.js';
import { runBundle } from '../helpers/run-node.js';

interface AppOutput {
  readonly src: number[];
  readonly combineDefault: number[];
}

/** Calls `next` after each successful build; resolves the promise of the build `n` builds later. */
class Builds {
  readonly #waiting: ((error: Error | null) => void)[] = [];
  done(error: Error | null): void {
    this.#waiting.shift()?.(error);
  }
  next(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.#waiting.push((error) => (error ? reject(error) : resolve())),
    );
  }
  /**
   * Resolves after the first build from now whose output satisfies `ready`: a watcher may also
   * rebuild for a change it noticed before the edit (webpack does, for freshly written files).
   */
  async until(ready: () => boolean): Promise<void> {
    for (;;) {
      await this.next();
      if (ready()) return;
    }
  }
}

/** Edits params.sycl.ts's device function, which kernels.sycl.ts calls: the rebuild relinks. */
async function expectRelinkOnEdit(
  root: string,
  outDir: string,
  builds: Builds,
  first: Promise<void>,
) {
  await first;
  const before = await runBundle<AppOutput>(join(outDir, 'main.js'));
  expect(before.combineDefault).toEqual(before.src.map((s) => s * 3 * 2 + 5 + 200));
  const params = join(root, 'src/params.sycl.ts');
  const bundle = join(outDir, 'main.js');
  const rebuilt = builds.until(() => readFileSync(bundle, 'utf8').includes('(a * 5u) + b'));
  writeFileSync(
    params,
    readFileSync(params, 'utf8').replace('(a, b) => a * 2 + b', '(a, b) => a * 5 + b'),
  );
  await rebuilt;
  const after = await runBundle<AppOutput>(join(outDir, 'main.js'));
  expect(after.combineDefault).toEqual(after.src.map((s) => s * 3 * 5 + 5 + 200));
}

test('rollup watch mode relinks after an edit to a device module', async () => {
  const root = stageApp('app', 'watch-rollup', { 'syclts-fixture-lib': 'device-lib' });
  const outDir = join(root, 'dist');
  const builds = new Builds();
  const first = builds.next();
  const watcher = rollupWatch({
    input: join(root, 'src/main.ts'),
    external: (id) => id.startsWith('@syclts/'),
    plugins: [
      sycltsRollup({ root }),
      nodeResolve({ extensions: ['.ts', '.js'] }),
      esbuildTransform({ target: 'node20' }),
    ],
    output: { dir: outDir, format: 'es', sourcemap: true },
    watch: { buildDelay: 50 },
  });
  watcher.on('event', (event) => {
    if (event.code === 'BUNDLE_END') {
      event.result.close();
      builds.done(null);
    }
    if (event.code === 'ERROR') builds.done(event.error as Error);
  });
  try {
    await expectRelinkOnEdit(root, outDir, builds, first);
  } finally {
    await watcher.close();
  }
});

test('webpack watch mode relinks after an edit to a device module', async () => {
  const root = stageApp('app', 'watch-webpack', { 'syclts-fixture-lib': 'device-lib' });
  const outDir = join(root, 'dist');
  const builds = new Builds();
  const first = builds.next();
  const compiler = webpack({
    context: root,
    mode: 'none',
    devtool: 'source-map',
    target: 'node20',
    entry: { main: './src/main.ts' },
    output: {
      path: outDir,
      filename: '[name].js',
      module: true,
      chunkFormat: 'module',
      library: { type: 'module' },
    },
    experiments: { outputModule: true },
    externalsType: 'module',
    externals: [/^@syclts\//],
    resolve: { extensions: ['.ts', '.js'] },
    module: { rules: [{ test: /\.ts$/, loader: 'esbuild-loader', options: { target: 'es2022' } }] },
    plugins: [sycltsWebpack()],
  });
  const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) => {
    builds.done(error ?? (stats?.hasErrors() ? new Error(stats.toString('errors-only')) : null));
  });
  try {
    await expectRelinkOnEdit(root, outDir, builds, first);
  } finally {
    await new Promise((resolve) => (watching ? watching.close(resolve) : resolve(null)));
  }
});
