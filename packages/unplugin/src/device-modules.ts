/**
 * The `.sycl.ts` modules a build has compiled so far, and the link of those the bundle holds.
 * Kept across rebuilds in watch mode: a module that is not transformed again keeps its entry.
 */
import {
  type DeviceObject,
  type Diagnostic,
  emitProgram,
  formatDiagnostic,
  link,
} from '@syclts/compiler';
import type { Program } from '@syclts/dsl';
import type { ResolvedOptions } from './options.js';

export interface CompiledModule {
  readonly object: DeviceObject;
  readonly source: string;
  /** Root-relative path of each import specifier's module, or null when it is not device code. */
  readonly imports: ReadonlyMap<string, string | null>;
}

export type LinkOutcome =
  | { readonly ok: true; readonly program: Program; readonly warnings: readonly string[] }
  | {
      readonly ok: false;
      readonly errors: readonly string[];
      readonly warnings: readonly string[];
    };

export class DeviceModules {
  readonly #modules = new Map<string, CompiledModule>();

  set(path: string, module: CompiledModule): void {
    this.#modules.set(path, module);
  }

  /** Forgets a module (its file was deleted): no later link holds it. */
  delete(path: string): void {
    this.#modules.delete(path);
  }

  has(path: string): boolean {
    return this.#modules.has(path);
  }

  /** Links the modules whose paths `inBundle` accepts (all when omitted) into one program. */
  link(options: ResolvedOptions, inBundle: (path: string) => boolean = () => true): LinkOutcome {
    const modules = new Map<string, DeviceObject>();
    for (const [path, module] of this.#modules) {
      if (inBundle(path)) modules.set(path, module.object);
    }
    const resolveImport = (from: string, specifier: string) =>
      this.#modules.get(from)?.imports.get(specifier) ?? null;
    const linkOptions = { split: options.split, specConstants: options.specConstants };
    const linked = link({ modules, resolveImport }, linkOptions);
    const { diagnostics } = linked;
    const errors = this.#format(diagnostics.filter((d) => d.severity === 'error'));
    const warnings = this.#format(diagnostics.filter((d) => d.severity === 'warning'));
    if (errors.length > 0) return { ok: false, errors, warnings };
    return {
      ok: true,
      program: emitProgram(linked, { lineMaps: options.lineMaps }),
      warnings,
    };
  }

  #format(diagnostics: readonly Diagnostic[]): string[] {
    return diagnostics.map((d) => formatDiagnostic(d, this.#modules.get(d.file)?.source));
  }
}
