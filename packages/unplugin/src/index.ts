/**
 * unplugin-syclts: compiles `.sycl.ts` modules, appends their integration footers, and links the
 * device program when the bundle's module graph is complete. One factory, every bundler.
 */
import { createUnplugin, type UnpluginFactory, type UnpluginInstance } from 'unplugin';
import { bundlerMessage } from './bundler-message.js';
import { setupEsbuild } from './bundlers/esbuild.js';
import { bundlerLoad, bundlerResolve } from './bundlers/resolvers.js';
import { rollupLikeHooks } from './bundlers/rollup-like.js';
import { DevProgram, SELF_ACCEPT } from './bundlers/vite-dev.js';
import { applyWebpackLike, type WebpackLikeCompiler } from './bundlers/webpack-like.js';
import { stripQuery } from './module-path.js';
import type { Options } from './options.js';
import { PROGRAM_MODULE, PROGRAM_MODULE_CODE, resolvedProgramModule } from './program-module.js';
import { sourceMeta } from './sources.js';
import { PluginState } from './state.js';
import { transformDeviceModule } from './transform.js';

export type { Options } from './options.js';

export const unpluginFactory: UnpluginFactory<Options | undefined> = (options, meta) => {
  const state = new PluginState(options);
  const rollupLike = rollupLikeHooks(state);
  const dev = new DevProgram(state);
  const programModule = resolvedProgramModule(meta.framework);
  return {
    name: 'unplugin-syclts',
    // Device code is compiled from the TypeScript source, before any plugin strips the types.
    enforce: 'pre',
    resolveId(id) {
      return id === PROGRAM_MODULE ? programModule : null;
    },
    async load(id) {
      if (id !== programModule) return null;
      if (!dev.active) return PROGRAM_MODULE_CODE;
      const linked = await dev.code();
      for (const warning of linked.warnings) this.warn(warning);
      if (!linked.ok) this.error(linked.errors.join('\n\n'));
      return linked.code ?? null;
    },
    transform: {
      filter: { id: { include: state.options.include, exclude: state.options.exclude } },
      async handler(code, id) {
        if (!state.isDeviceModule(id)) return null;
        const file = stripQuery(id);
        state.sources.begin(file, code);
        const compiling = transformDeviceModule(code, id, {
          root: state.root,
          resolve: bundlerResolve(this, meta.framework),
          load: dev.active
            ? (resolved) => dev.load(resolved)
            : bundlerLoad(this, meta.framework, state.sources),
          isDeviceModule: (resolved) => state.isDeviceModule(resolved),
          loader: state.loader,
        }).finally(() => state.sources.end(file));
        const outcome = await (dev.active ? dev.track(compiling) : compiling);
        for (const warning of outcome.warnings) {
          this.warn(bundlerMessage([warning], meta.framework));
        }
        if (!outcome.ok) {
          this.error(bundlerMessage(outcome.errors, meta.framework));
          return null;
        }
        for (const dependency of outcome.dependencies) this.addWatchFile(dependency);
        state.modules.set(outcome.path, outcome.module);
        // The source, for modules that import this one and load it through the bundler.
        const moduleMeta = sourceMeta(code);
        if (!dev.active) return { code: outcome.code, map: outcome.map, meta: moduleMeta };
        dev.compiled(outcome.path);
        // Appended after everything the map covers: the map stays exact.
        return { code: outcome.code + SELF_ACCEPT, map: outcome.map, meta: moduleMeta };
      },
    },
    rollup: rollupLike,
    rolldown: rollupLike,
    vite: {
      ...rollupLike,
      configResolved(config) {
        state.bundlerRoot = config.root;
      },
      configureServer(server) {
        dev.attach(server);
      },
      handleHotUpdate({ file, modules }) {
        return dev.fileChanged(file, modules);
      },
      watchChange(id, { event }) {
        if (event === 'delete') dev.fileDeleted(id);
      },
    },
    webpack(compiler) {
      applyWebpackLike(compiler as unknown as WebpackLikeCompiler, state);
    },
    rspack(compiler) {
      applyWebpackLike(compiler as unknown as WebpackLikeCompiler, state);
    },
    esbuild: {
      setup(build) {
        setupEsbuild(build, state);
      },
    },
  };
};

export const unplugin: UnpluginInstance<Options | undefined> = createUnplugin(unpluginFactory);

export default unplugin;
