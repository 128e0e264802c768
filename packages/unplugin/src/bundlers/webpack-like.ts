/**
 * webpack and rspack: link and replace the placeholder in `processAssets` at the pre-process
 * stage, before minification and source-map tooling; `ReplaceSource` keeps the maps exact. A failed
 * link deletes the assets that hold the placeholder.
 */
import type { LinkOutcome } from '../device-modules.js';
import { rootRelativePath } from '../module-path.js';
import { findPlaceholders, programLiteral } from '../program-module.js';
import type { PluginState } from '../state.js';

const NAME = 'unplugin-syclts';

/** The part of webpack's and rspack's compiler API used here (the two agree on it). */
interface WebpackLikeSource {
  source(): string | Buffer;
}
interface WebpackLikeCompilation {
  readonly modules: Iterable<{ readonly resource?: string }>;
  readonly errors: Error[];
  readonly warnings: Error[];
  readonly hooks: {
    processAssets: {
      tap(
        options: { name: string; stage: number },
        fn: (assets: Record<string, WebpackLikeSource>) => void,
      ): void;
    };
  };
  getAsset(name: string): { readonly source: WebpackLikeSource } | undefined;
  updateAsset(name: string, source: WebpackLikeSource): void;
  deleteAsset(name: string): void;
}
export interface WebpackLikeCompiler {
  readonly context: string;
  readonly options: { readonly devtool?: string | false | undefined };
  readonly hooks: {
    thisCompilation: { tap(name: string, fn: (compilation: WebpackLikeCompilation) => void): void };
  };
  readonly webpack: {
    readonly Compilation: { readonly PROCESS_ASSETS_STAGE_PRE_PROCESS: number };
    readonly WebpackError: new (message: string) => Error;
    readonly sources: {
      readonly ReplaceSource: new (
        source: WebpackLikeSource,
      ) => WebpackLikeSource & { replace(start: number, end: number, text: string): void };
    };
  };
}

export function applyWebpackLike(compiler: WebpackLikeCompiler, state: PluginState): void {
  state.bundlerRoot = compiler.context;
  const { Compilation, WebpackError, sources } = compiler.webpack;
  compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
    // An eval devtool (webpack's and rspack's default in development mode) turns each module
    // into a string before processAssets runs, so the program cannot be put in it. Read here:
    // the defaults are applied after plugins.
    const { devtool } = compiler.options;
    if (typeof devtool === 'string' && devtool.includes('eval')) {
      compilation.errors.push(
        new WebpackError(
          `${NAME}: devtool '${devtool}' is not supported (each module becomes an eval string, where the linked program cannot be inserted); set devtool to 'source-map', 'inline-source-map' or false`,
        ),
      );
      return;
    }
    const stage = Compilation.PROCESS_ASSETS_STAGE_PRE_PROCESS;
    compilation.hooks.processAssets.tap({ name: NAME, stage }, (assets) => {
      let linked: LinkOutcome | null = null;
      for (const name of Object.keys(assets)) {
        if (!/\.[cm]?js$/.test(name)) continue;
        const asset = compilation.getAsset(name);
        if (!asset) continue;
        const places = findPlaceholders(asset.source.source().toString());
        if (places.length === 0) continue;
        linked ??= linkCompilation(compilation, state);
        if (!linked.ok) {
          // An asset without its program would load and fail far from the cause: emit none.
          compilation.deleteAsset(name);
          continue;
        }
        const replaced = new sources.ReplaceSource(asset.source);
        const literal = programLiteral(linked.program);
        for (const { start, end } of places) replaced.replace(start, end - 1, literal);
        compilation.updateAsset(name, replaced);
      }
      for (const error of linked?.ok === false ? linked.errors : []) {
        compilation.errors.push(new WebpackError(error));
      }
      for (const warning of linked?.warnings ?? []) {
        compilation.warnings.push(new WebpackError(warning));
      }
    });
  });
}

function linkCompilation(compilation: WebpackLikeCompilation, state: PluginState): LinkOutcome {
  const inBundle = new Set<string>();
  for (const { resource } of compilation.modules) {
    if (resource && state.isDeviceModule(resource)) {
      inBundle.add(rootRelativePath(state.root, resource));
    }
  }
  return state.modules.link(state.options, (path) => inBundle.has(path));
}
