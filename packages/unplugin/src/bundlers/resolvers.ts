/**
 * Import resolution through each bundler's own resolver (aliases, package exports, conditions),
 * and the imported device modules' sources through its loading, where it offers a way.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { UnpluginBuildContext, UnpluginContextMeta } from 'unplugin';
import { stripQuery } from '../module-path.js';
import { type DeviceSources, sourceFromMeta } from '../sources.js';

export type Resolve = (specifier: string, importer: string) => Promise<string | null>;

interface RollupLikeContext {
  resolve(
    source: string,
    importer: string,
  ): Promise<{ readonly id: string; readonly external: boolean | 'absolute' | 'relative' } | null>;
  load(options: { readonly id: string }): Promise<{ readonly meta?: unknown }>;
}

/** The loader context's `getResolve` and `fs`, identical in webpack and rspack. */
interface WebpackLikeLoaderContext {
  getResolve(
    options?: object,
  ): (context: string, request: string) => Promise<string | false | undefined>;
  readonly fs?: {
    readFile(path: string, callback: (error: unknown, data?: string | Buffer) => void): void;
  };
}

export function bundlerResolve(
  context: UnpluginBuildContext,
  framework: UnpluginContextMeta['framework'],
): Resolve {
  const native = context.getNativeBuildContext?.();
  if (native?.framework === 'esbuild') {
    return async (specifier, importer) => {
      const result = await native.build.resolve(specifier, {
        kind: 'import-statement',
        importer,
        resolveDir: dirname(importer),
      });
      return result.errors.length === 0 && !result.external ? result.path : null;
    };
  }
  if (native?.framework === 'webpack' || native?.framework === 'rspack') {
    const loader = native.loaderContext as WebpackLikeLoaderContext | undefined;
    if (!loader) throw new Error('unplugin-syclts: no loader context to resolve imports with');
    const resolve = loader.getResolve({ dependencyType: 'esm' });
    return async (specifier, importer) => {
      try {
        return (await resolve(dirname(importer), specifier)) || null;
      } catch {
        return null;
      }
    };
  }
  if (framework === 'rollup' || framework === 'vite' || framework === 'rolldown') {
    const rollup = context as unknown as RollupLikeContext;
    return async (specifier, importer) => {
      const resolved = await rollup.resolve(specifier, importer);
      return resolved && !resolved.external ? resolved.id : null;
    };
  }
  throw new Error(`unplugin-syclts: ${framework ?? 'this bundler'} is not supported`);
}

export type Load = (id: string) => Promise<string>;

/** The source of an imported device module (a resolved ID), as the bundler loads it. */
export function bundlerLoad(
  context: UnpluginBuildContext,
  framework: UnpluginContextMeta['framework'],
  sources: DeviceSources,
): Load {
  const native = context.getNativeBuildContext?.();
  if (native?.framework === 'esbuild') {
    // esbuild offers plugins no way to run the onLoad callbacks for another path (`build.resolve`
    // has no counterpart for loading): the file is read from disk.
    return (id) => readFile(stripQuery(id), 'utf8');
  }
  if (native?.framework === 'webpack' || native?.framework === 'rspack') {
    // The loader context's `loadModule` hands back a module's output after every loader, this
    // plugin's included, never its source: the file is read through the compiler's input file
    // system (which may be in memory), from disk where the loader context has none.
    const fs = (native.loaderContext as WebpackLikeLoaderContext | undefined)?.fs;
    if (!fs) return (id) => readFile(stripQuery(id), 'utf8');
    return (id) =>
      new Promise((resolve, reject) => {
        fs.readFile(stripQuery(id), (error, data) => {
          if (error || data === undefined) reject(error);
          else resolve(data.toString());
        });
      });
  }
  if (framework === 'rollup' || framework === 'vite' || framework === 'rolldown') {
    // `this.load` runs the module's `load` and `transform` hooks, every plugin's; this plugin's
    // transform records the source it began with, in the module's `meta` and in `sources`.
    const rollup = context as unknown as RollupLikeContext;
    return async (id) => {
      const file = stripQuery(id);
      // A module whose transform is under way (an import cycle) is not loaded again: the load
      // would wait for the transform that waits for it.
      const inTransform = sources.inTransform(file);
      if (inTransform !== undefined) return inTransform;
      let meta: unknown;
      try {
        ({ meta } = await rollup.load({ id }));
      } catch {
        // Its own transform failed and reports why; this one compiles against the source that
        // transform began with.
      }
      // Vite's dev server runs the transforms in `this.load` only when a plugin's `load` hook
      // made the code: a file no plugin loads, it reads from disk itself, as here.
      return sourceFromMeta(meta) ?? sources.latest(file) ?? readFile(file, 'utf8');
    };
  }
  throw new Error(`unplugin-syclts: ${framework ?? 'this bundler'} is not supported`);
}
