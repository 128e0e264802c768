/** Import resolution through each bundler's own resolver (aliases, package exports, conditions). */
import { dirname } from 'node:path';
import type { UnpluginBuildContext, UnpluginContextMeta } from 'unplugin';

export type Resolve = (specifier: string, importer: string) => Promise<string | null>;

interface RollupLikeContext {
  resolve(
    source: string,
    importer: string,
  ): Promise<{ readonly id: string; readonly external: boolean | 'absolute' | 'relative' } | null>;
}

/** The loader context's `getResolve`, identical in webpack and rspack. */
interface WebpackLikeLoaderContext {
  getResolve(
    options?: object,
  ): (context: string, request: string) => Promise<string | false | undefined>;
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
