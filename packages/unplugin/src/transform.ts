/** The per-module step: compile a `.sycl.ts` module and append its integration footer. */
import {
  compileModule,
  type Diagnostic,
  formatDiagnostic,
  integrationFooter,
} from '@syclts/compiler';
import MagicString, { type SourceMap } from 'magic-string';
import type { CompiledModule } from './device-modules.js';
import { collectImportGraph, type ImportGraphContext } from './import-graph.js';
import { rootRelativePath, stripQuery } from './module-path.js';
import { PROGRAM_MODULE } from './program-module.js';

export type TransformContext = ImportGraphContext;

/** A diagnostic as bundlers report it: text with code frame, and where it points. */
export interface BundlerMessage {
  readonly message: string;
  readonly id: string;
  readonly loc?: { readonly file: string; readonly line: number; readonly column: number };
}

export type TransformOutcome =
  | {
      readonly ok: true;
      readonly path: string;
      readonly module: CompiledModule;
      readonly code: string;
      readonly map: SourceMap;
      /** Files of the device modules it imports, directly or not: a change to one recompiles it. */
      readonly dependencies: readonly string[];
      readonly warnings: readonly BundlerMessage[];
    }
  | {
      readonly ok: false;
      readonly errors: readonly BundlerMessage[];
      readonly warnings: readonly BundlerMessage[];
    };

export async function transformDeviceModule(
  source: string,
  id: string,
  context: TransformContext,
): Promise<TransformOutcome> {
  const path = rootRelativePath(context.root, id);
  const graph = await collectImportGraph({ module: path, file: stripQuery(id), source }, context);
  const { object, diagnostics } = compileModule(source, {
    module: path,
    loadImport: (from, specifier) => graph.get(from)?.get(specifier) ?? null,
  });
  // A diagnostic may point into an imported device module: frame and locate it there.
  const files = new Map([[path, { file: stripQuery(id), source }]]);
  for (const edges of graph.values()) {
    for (const loaded of edges.values()) if (loaded) files.set(loaded.module, loaded);
  }
  const message = (d: Diagnostic): BundlerMessage => {
    const at = files.get(d.file);
    const loc = at && d.span ? { file: at.file, line: d.span.line, column: d.span.column } : null;
    return { message: formatDiagnostic(d, at?.source), id, ...(loc ? { loc } : {}) };
  };
  const errors = diagnostics.filter((d) => d.severity === 'error').map(message);
  const warnings = diagnostics.filter((d) => d.severity === 'warning').map(message);
  if (!object || errors.length > 0) return { ok: false, errors, warnings };

  const imports = new Map<string, string | null>();
  for (const [specifier, loaded] of graph.get(path) ?? []) {
    imports.set(specifier, loaded?.module ?? null);
  }
  const dependencies = [...graph.values()].flatMap((edges) =>
    [...edges.values()].flatMap((loaded) => (loaded ? [loaded.file] : [])),
  );

  const code = new MagicString(source);
  code.append(integrationFooter(object, { programModule: PROGRAM_MODULE, source }));
  return {
    ok: true,
    path,
    module: { object, source, imports },
    code: code.toString(),
    map: code.generateMap({ source: id, includeContent: true, hires: true }),
    dependencies: [...new Set(dependencies)],
    warnings,
  };
}
