import { createFilter } from '@rollup/pluginutils';
import { ModuleLoader } from '@syclts/compiler';
import { DeviceModules } from './device-modules.js';
import { stripQuery } from './module-path.js';
import { type Options, type ResolvedOptions, resolveOptions } from './options.js';
import { DeviceSources } from './sources.js';

/** What one plugin instance knows across the hooks of a build (and of rebuilds in watch mode). */
export class PluginState {
  readonly options: ResolvedOptions;
  readonly modules = new DeviceModules();
  /** Parses each device module once per source text, across the modules that import it. */
  readonly loader = new ModuleLoader();
  /** The source each device module's transform began with: what its importers compile against. */
  readonly sources = new DeviceSources();
  readonly #filter: (id: unknown) => boolean;
  #bundlerRoot = process.cwd();

  constructor(options: Options | undefined) {
    this.options = resolveOptions(options);
    this.#filter = createFilter(this.options.include, this.options.exclude);
  }

  /** Module paths (and so symbolic IDs) are relative to it. */
  get root(): string {
    return this.options.root ?? this.#bundlerRoot;
  }

  /** Records the bundler's own notion of the project root. */
  set bundlerRoot(root: string) {
    this.#bundlerRoot = root;
  }

  isDeviceModule(id: string): boolean {
    return !id.startsWith('\0') && this.#filter(stripQuery(id));
  }
}
