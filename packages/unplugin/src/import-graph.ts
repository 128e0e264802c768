/**
 * The device modules a `.sycl.ts` module imports, directly or through other device modules, read
 * ahead of compilation: the compiler follows imports synchronously (types, specialization IDs,
 * device functions declared elsewhere), while bundlers resolve and load asynchronously. Each is
 * resolved and loaded through the bundler (`bundlers/resolvers.ts`), so that other plugins' `load`
 * and `transform` hooks shape the source the compiler reads, as they shape the module itself.
 */
import type { ModuleLoader } from '@syclts/compiler';
import { rootRelativePath } from './module-path.js';

export interface ImportGraphContext {
  readonly root: string;
  readonly resolve: (specifier: string, importer: string) => Promise<string | null>;
  /** The source of a resolved device module, as the bundler loads it for this plugin. */
  readonly load: (id: string) => Promise<string>;
  readonly isDeviceModule: (id: string) => boolean;
  readonly loader: ModuleLoader;
}

export interface LoadedModule {
  /** Root-relative path. */
  readonly module: string;
  /** Absolute file name. */
  readonly file: string;
  readonly source: string;
}

/** Per root-relative module path: each import specifier's device module, or null for others. */
export type ImportGraph = ReadonlyMap<string, ReadonlyMap<string, LoadedModule | null>>;

export async function collectImportGraph(
  entry: LoadedModule,
  context: ImportGraphContext,
): Promise<ImportGraph> {
  const graph = new Map<string, Map<string, LoadedModule | null>>();
  const pending = [entry];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (graph.has(next.module)) continue;
    const edges = new Map<string, LoadedModule | null>();
    graph.set(next.module, edges);
    const parsed = context.loader.parse(next.module, next.source, next !== entry);
    for (const specifier of parsed.specifiers) {
      const resolved = await context.resolve(specifier, next.file);
      if (!resolved || !context.isDeviceModule(resolved)) {
        edges.set(specifier, null);
        continue;
      }
      const file = resolved.split('?')[0]!;
      const module = rootRelativePath(context.root, file);
      const loaded = { module, file, source: await context.load(resolved) };
      edges.set(specifier, loaded);
      pending.push(loaded);
    }
  }
  return graph;
}
