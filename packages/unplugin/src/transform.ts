/** The per-module step: compile a `.sycl.ts` module and append its integration footer. */
import {
  compileModule,
  type Diagnostic,
  formatDiagnostic,
  integrationFooter,
} from '@syclts/compiler';
import MagicString, { type SourceMap } from 'magic-string';
import type { CompiledModule } from './device-modules.js';
import { rootRelativePath } from './module-path.js';
import { PROGRAM_MODULE } from './program-module.js';

export interface TransformContext {
  readonly root: string;
  /** The bundler's resolution of `specifier` from `importer`, or null when it fails. */
  readonly resolve: (specifier: string, importer: string) => Promise<string | null>;
  /** Whether a resolved module is device code (the plugin's include/exclude filter). */
  readonly isDeviceModule: (id: string) => boolean;
}

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
  const { object, diagnostics } = compileModule(source, { module: path });
  const message = (d: Diagnostic): BundlerMessage => ({
    message: formatDiagnostic(d, source),
    id,
    ...(d.span ? { loc: { file: id, line: d.span.line, column: d.span.column } } : {}),
  });
  const errors = diagnostics.filter((d) => d.severity === 'error').map(message);
  const warnings = diagnostics.filter((d) => d.severity === 'warning').map(message);
  if (!object || errors.length > 0) return { ok: false, errors, warnings };

  const imports = new Map<string, string | null>();
  for (const { specifier } of object.imports) {
    const resolved = await context.resolve(specifier, id);
    imports.set(
      specifier,
      resolved && context.isDeviceModule(resolved)
        ? rootRelativePath(context.root, resolved)
        : null,
    );
  }

  const code = new MagicString(source);
  code.append(integrationFooter(object, { programModule: PROGRAM_MODULE, source }));
  return {
    ok: true,
    path,
    module: { object, source, imports },
    code: code.toString(),
    map: code.generateMap({ source: id, includeContent: true, hires: true }),
    warnings,
  };
}
