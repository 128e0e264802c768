/** The per-module step: compile a `.sycl.ts` module and append its integration footer. */
import {
  codeFrame,
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

/** A diagnostic as bundlers report it. */
export interface BundlerMessage {
  /** Location, message, code frame and hint: for bundlers that print no location of their own. */
  readonly message: string;
  readonly id: string;
  /** The same apart, for bundlers that print the location and the frame themselves. */
  readonly located?: {
    readonly file: string;
    /** 1-based, as the message counts. */
    readonly line: number;
    readonly column: number;
    /** The message without location and frame. */
    readonly headline: string;
    readonly frame: string;
  };
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
    loader: context.loader,
  });
  // A diagnostic may point into an imported device module: frame and locate it there.
  const files = new Map([[path, { file: stripQuery(id), source }]]);
  for (const edges of graph.values()) {
    for (const loaded of edges.values()) if (loaded) files.set(loaded.module, loaded);
  }
  const message = (d: Diagnostic): BundlerMessage => {
    const at = files.get(d.file);
    const full = { message: formatDiagnostic(d, at?.source), id };
    if (!at || !d.span) return full;
    const located = {
      file: at.file,
      line: d.span.line,
      column: d.span.column,
      headline: formatDiagnostic(d, at.source, { location: false, frame: false }),
      frame: codeFrame(at.source, d.span),
    };
    return { ...full, located };
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
