/** Builds a fixture app with each bundler and the syclts plugin, for Node, with the same inputs. */
import { join } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rspack } from '@rspack/core';
import * as esbuild from 'esbuild';
import { rolldown } from 'rolldown';
import { rollup } from 'rollup';
import esbuildTransform from 'rollup-plugin-esbuild';
import type { Options } from 'unplugin-syclts';
import sycltsEsbuild from 'unplugin-syclts/esbuild';
import sycltsRolldown from 'unplugin-syclts/rolldown';
import sycltsRollup from 'unplugin-syclts/rollup';
import sycltsRspack from 'unplugin-syclts/rspack';
import sycltsVite from 'unplugin-syclts/vite';
import sycltsWebpack from 'unplugin-syclts/webpack';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';

export const bundlers = ['rollup', 'rolldown', 'vite', 'esbuild', 'webpack', 'rspack'] as const;
export type Bundler = (typeof bundlers)[number];

export interface BuildRequest {
  /** The app's root directory (the bundler's root). */
  readonly root: string;
  /** Output name → root-relative entry module. */
  readonly entries: Readonly<Record<string, string>>;
  /** Output directory, absolute. */
  readonly outDir: string;
  readonly options?: Options;
  /** Minify with the bundler's own minifier (Rollup has none: it ignores this). */
  readonly minify?: boolean;
}

/** The workspace packages stay imports: Node resolves them when the bundle runs. */
const external = /^@syclts\//;

export async function build(bundler: Bundler, request: BuildRequest): Promise<void> {
  switch (bundler) {
    case 'rollup':
      return buildRollup(request);
    case 'rolldown':
      return buildRolldown(request);
    case 'vite':
      return buildVite(request);
    case 'esbuild':
      return buildEsbuild(request);
    case 'webpack':
      return buildWebpackLike(request, 'webpack');
    case 'rspack':
      return buildWebpackLike(request, 'rspack');
  }
}

/**
 * Builds the app at `root` (entry src/main.ts), expecting failure: the error as the bundler's
 * command line prints it (Rollup prints an error's code frame after its message), or null if it
 * built.
 */
export function buildError(bundler: Bundler, root: string): Promise<string | null> {
  return build(bundler, {
    root,
    entries: { main: 'src/main.ts' },
    outDir: join(root, 'dist'),
  }).then(
    () => null,
    (e: unknown) => {
      if (!(e instanceof Error)) return String(e);
      const { frame } = e as { frame?: unknown };
      return typeof frame === 'string' && !e.message.includes(frame)
        ? `${e.message}\n${frame}`
        : e.message;
    },
  );
}

/**
 * How a bundler prints a place in a module: `file:line:col` with the 1-based column of the
 * message itself, or, where the bundler prints the error's location (Rollup, Rolldown, Vite),
 * its 0-based column as `file:line:col` or `file (line:col)`.
 */
export function placeIn(file: string, line: number, column: number): RegExp {
  const f = file.replace(/[.]/g, '\\.');
  return new RegExp(
    `${f}(:${line}:${column}|:${line}:${column - 1}| \\(${line}:${column - 1}\\))`,
    'g',
  );
}

async function buildRollup({ root, entries, outDir, options }: BuildRequest): Promise<void> {
  const input = Object.fromEntries(
    Object.entries(entries).map(([name, entry]) => [name, join(root, entry)]),
  );
  const bundle = await rollup({
    input,
    external: (id) => external.test(id),
    // Rollup has no root of its own: the plugin is told.
    plugins: [
      sycltsRollup({ ...options, root }),
      nodeResolve({ extensions: ['.ts', '.js'] }),
      esbuildTransform({ target: 'node20' }),
    ],
    onwarn: (warning, warn) => {
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  await bundle.write({ dir: outDir, format: 'es', sourcemap: true, entryFileNames: '[name].js' });
  await bundle.close();
}

async function buildRolldown({
  root,
  entries,
  outDir,
  options,
  minify,
}: BuildRequest): Promise<void> {
  const bundle = await rolldown({
    cwd: root,
    input: Object.fromEntries(Object.entries(entries).map(([n, e]) => [n, join(root, e)])),
    platform: 'node',
    external: external,
    // Rolldown's root is its cwd, which the plugin does not see: it is told, as with Rollup.
    plugins: [sycltsRolldown({ ...options, root })],
    logLevel: 'silent',
  });
  await bundle.write({
    dir: outDir,
    format: 'es',
    sourcemap: true,
    minify: minify ?? false,
    entryFileNames: '[name].js',
  });
  await bundle.close();
}

async function buildVite({ root, entries, outDir, options, minify }: BuildRequest): Promise<void> {
  await viteBuild({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [sycltsVite(options)],
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      sourcemap: true,
      minify: minify ?? false,
      target: 'node20',
      rollupOptions: {
        input: Object.fromEntries(Object.entries(entries).map(([n, e]) => [n, join(root, e)])),
        external: (id: string) => external.test(id),
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
    ssr: { noExternal: true },
  });
}

async function buildEsbuild({
  root,
  entries,
  outDir,
  options,
  minify,
}: BuildRequest): Promise<void> {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    minify: minify ?? false,
    external: ['@syclts/*'],
    logLevel: 'silent',
    plugins: [sycltsEsbuild(options)],
  });
}

async function buildWebpackLike(
  { root, entries, outDir, options, minify }: BuildRequest,
  which: 'webpack' | 'rspack',
): Promise<void> {
  const typescript =
    which === 'webpack'
      ? { loader: 'esbuild-loader', options: { target: 'es2022' } }
      : {
          loader: 'builtin:swc-loader',
          options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } },
        };
  const config = {
    context: root,
    mode: 'none' as const,
    devtool: 'source-map' as const,
    target: 'node20' as const,
    entry: Object.fromEntries(Object.entries(entries).map(([n, e]) => [n, `./${e}`])),
    output: {
      path: outDir,
      filename: '[name].js',
      module: true,
      chunkFormat: 'module' as const,
      library: { type: 'module' as const },
      clean: true,
    },
    externalsType: 'module' as const,
    externals: [external],
    resolve: { extensions: ['.ts', '.js'] },
    module: { rules: [{ test: /\.ts$/, ...typescript }] },
    optimization: { minimize: minify ?? false },
  };
  const stats = await new Promise<{ hasErrors(): boolean; toString(o: object): string }>(
    (resolve, reject) => {
      const done = (
        error: Error | null,
        result?: { hasErrors(): boolean; toString(o: object): string },
      ) => (error || !result ? reject(error) : resolve(result));
      if (which === 'webpack') {
        const experiments = { outputModule: true };
        webpack({ ...config, experiments, plugins: [sycltsWebpack(options)] }, (e, s) =>
          done(e, s),
        );
      } else {
        rspack({ ...config, plugins: [sycltsRspack(options)] }, (e, s) => done(e, s));
      }
    },
  );
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
}
