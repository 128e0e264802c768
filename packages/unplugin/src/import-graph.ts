/**
 * The device modules a `.sycl.ts` module imports, directly or through other device modules, read
 * ahead of compilation: the compiler follows imports synchronously (types, specialization IDs,
 * device functions declared elsewhere), while bundlers resolve asynchronously.
 */
import { readFile } from 'node:fs/promises';
import { parseSync } from 'oxc-parser';
import { rootRelativePath } from './module-path.js';

export interface ImportGraphContext {
  readonly root: string;
  readonly resolve: (specifier: string, importer: string) => Promise<string | null>;
  readonly isDeviceModule: (id: string) => boolean;
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
    for (const specifier of importSpecifiers(next)) {
      const resolved = await context.resolve(specifier, next.file);
      if (!resolved || !context.isDeviceModule(resolved)) {
        edges.set(specifier, null);
        continue;
      }
      const file = resolved.split('?')[0]!;
      const module = rootRelativePath(context.root, file);
      const loaded = { module, file, source: await readFile(file, 'utf8') };
      edges.set(specifier, loaded);
      pending.push(loaded);
    }
  }
  return graph;
}

/** Each file's last source and its specifiers: every module importing it reads it again. */
const scanned = new Map<string, { readonly source: string; readonly specifiers: Set<string> }>();

/**
 * Specifiers of the module's static imports and re-exports. A module that does not parse has
 * none here: the compiler reports it.
 */
function importSpecifiers({ file, source }: LoadedModule): Set<string> {
  const cached = scanned.get(file);
  if (cached?.source === source) return cached.specifiers;
  const { module } = parseSync(file, source, { lang: 'ts', sourceType: 'module' });
  const specifiers = new Set(module.staticImports.map((i) => i.moduleRequest.value));
  for (const e of module.staticExports) {
    for (const entry of e.entries) {
      if (entry.moduleRequest) specifiers.add(entry.moduleRequest.value);
    }
  }
  scanned.set(file, { source, specifiers });
  return specifiers;
}
