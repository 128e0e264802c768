/**
 * Symbolic IDs and reference resolution. A declaration's symbolic ID is
 * `<root-relative module path>#<its own name>`: the same through imports, aliases and
 * re-exports (including `export *`), distinct for same-named declarations of different modules.
 */
import type { SymbolicId } from '@syclts/dsl';
import type { Message } from '../diagnostics/codes.js';
import { type Diagnostic, errorAt } from '../diagnostics/diagnostic.js';
import * as msg from '../diagnostics/link-messages.js';
import type {
  DeviceGlobalDecl,
  DeviceObject,
  FunctionDecl,
  KernelDecl,
  SpecConstantDecl,
  SymbolRef,
} from '../ir/device-object.js';
import { findExport } from '../ir/exports.js';
import type { Span } from '../ir/span.js';

export const symbolicId = (module: string, name: string): SymbolicId => `${module}#${name}`;

export type Declaration =
  | { readonly kind: 'specConstant'; readonly module: string; readonly decl: SpecConstantDecl }
  | { readonly kind: 'deviceGlobal'; readonly module: string; readonly decl: DeviceGlobalDecl }
  | { readonly kind: 'function'; readonly module: string; readonly decl: FunctionDecl }
  | { readonly kind: 'kernel'; readonly module: string; readonly decl: KernelDecl };

export type DeclarationKind = Declaration['kind'];

type Resolution = { readonly id: SymbolicId } | { readonly error: Message };

export class SymbolTable {
  readonly declarations = new Map<SymbolicId, Declaration>();
  readonly #modules: ReadonlyMap<string, DeviceObject>;
  readonly #resolveImport: (fromModule: string, specifier: string) => string | null;

  constructor(
    modules: ReadonlyMap<string, DeviceObject>,
    resolveImport: (fromModule: string, specifier: string) => string | null,
  ) {
    this.#modules = modules;
    this.#resolveImport = resolveImport;
    for (const object of modules.values()) {
      const add = (declaration: Declaration, name: string) =>
        this.declarations.set(symbolicId(object.module, name), declaration);
      for (const decl of object.specConstants)
        add({ kind: 'specConstant', module: object.module, decl }, decl.name);
      for (const decl of object.deviceGlobals)
        add({ kind: 'deviceGlobal', module: object.module, decl }, decl.name);
      for (const decl of object.functions)
        add({ kind: 'function', module: object.module, decl }, decl.name);
      for (const decl of object.kernels)
        add({ kind: 'kernel', module: object.module, decl }, decl.name);
    }
  }

  /**
   * The declaration a reference in `module` names, which must be of `kind`; otherwise a
   * diagnostic at `span` is added to `diagnostics` and null returned.
   */
  resolve<K extends DeclarationKind>(
    module: string,
    ref: SymbolRef,
    kind: K,
    span: Span,
    diagnostics: Diagnostic[],
  ): (Declaration & { readonly kind: K; readonly id: SymbolicId }) | null {
    const resolution =
      ref.kind === 'local'
        ? this.#resolveLocal(module, ref.name, new Set())
        : this.#resolveImported(module, ref.specifier, ref.name, new Set());
    if ('error' in resolution) {
      diagnostics.push(errorAt(resolution.error, module, span));
      return null;
    }
    const declaration = this.declarations.get(resolution.id)!;
    if (declaration.kind !== kind) {
      diagnostics.push(errorAt(msg.wrongKind(resolution.id, declaration.kind, kind), module, span));
      return null;
    }
    return { ...(declaration as Declaration & { readonly kind: K }), id: resolution.id };
  }

  #resolveLocal(module: string, name: string, seen: Set<string>): Resolution {
    const id = symbolicId(module, name);
    if (this.declarations.has(id)) return { id };
    const object = this.#modules.get(module);
    for (const imp of object?.imports ?? []) {
      const binding = imp.bindings.find((b) => b.local === name);
      if (!binding) continue;
      if (binding.imported === '*') return { error: msg.namespaceImport(name) };
      return this.#resolveImported(module, imp.specifier, binding.imported, seen);
    }
    return { error: msg.undeclared(name, module) };
  }

  #resolveImported(module: string, specifier: string, name: string, seen: Set<string>): Resolution {
    const target = this.#resolveImport(module, specifier);
    if (target === null || !this.#modules.has(target)) {
      return { error: msg.unknownModule(specifier, module) };
    }
    return this.#resolveExport(target, name, seen);
  }

  #resolveExport(module: string, name: string, seen: Set<string>): Resolution {
    const key = `${module}\0${name}`;
    if (seen.has(key)) return { error: msg.exportCycle(name, module) };
    seen.add(key);
    const object = this.#modules.get(module)!;
    const found = findExport<Resolution>(object.exports, name, {
      local: (local) => this.#resolveLocal(module, local, seen),
      reexport: (specifier, imported) => this.#resolveImported(module, specifier, imported, seen),
      star: (specifier) => {
        const result = this.#resolveImported(module, specifier, name, new Set(seen));
        return 'id' in result ? result : null;
      },
      same: (a, b) => 'id' in a && 'id' in b && a.id === b.id,
    });
    if (found.kind === 'found') return found.value;
    if (found.kind === 'ambiguous') {
      return { error: msg.ambiguousExport(name, module) };
    }
    // A declaration the object lists but does not export (TypeScript rejects such imports anyway).
    if (this.declarations.has(symbolicId(module, name))) return { id: symbolicId(module, name) };
    return { error: msg.notExported(module, name) };
  }
}
