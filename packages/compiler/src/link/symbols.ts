/**
 * Symbolic IDs and reference resolution. A declaration's symbolic ID is
 * `<root-relative module path>#<its own name>`: the same through imports, aliases and
 * re-exports (including `export *`), distinct for same-named declarations of different modules.
 */
import type { SymbolicId } from '@syclts/dsl';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
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
import { LinkCode } from './codes.js';

export const symbolicId = (module: string, name: string): SymbolicId => `${module}#${name}`;

export type Declaration =
  | { readonly kind: 'specConstant'; readonly module: string; readonly decl: SpecConstantDecl }
  | { readonly kind: 'deviceGlobal'; readonly module: string; readonly decl: DeviceGlobalDecl }
  | { readonly kind: 'function'; readonly module: string; readonly decl: FunctionDecl }
  | { readonly kind: 'kernel'; readonly module: string; readonly decl: KernelDecl };

export type DeclarationKind = Declaration['kind'];

const KIND_WORDS: Record<DeclarationKind, string> = {
  specConstant: 'a specialization constant',
  deviceGlobal: 'a device global',
  function: 'a device function',
  kernel: 'a kernel',
};

type Resolution = { readonly id: SymbolicId } | { readonly error: string };

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
      diagnostics.push({
        code: LinkCode.unresolved,
        severity: 'error',
        message: resolution.error,
        file: module,
        span,
      });
      return null;
    }
    const declaration = this.declarations.get(resolution.id)!;
    if (declaration.kind !== kind) {
      diagnostics.push({
        code: LinkCode.wrongKind,
        severity: 'error',
        message: `'${resolution.id}' is ${KIND_WORDS[declaration.kind]}, not ${KIND_WORDS[kind]}`,
        file: module,
        span,
      });
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
      if (binding.imported === '*')
        return { error: `'${name}' is a namespace import, not a declaration` };
      return this.#resolveImported(module, imp.specifier, binding.imported, seen);
    }
    return { error: `'${name}' is not declared in ${module}` };
  }

  #resolveImported(module: string, specifier: string, name: string, seen: Set<string>): Resolution {
    const target = this.#resolveImport(module, specifier);
    if (target === null || !this.#modules.has(target)) {
      return { error: `'${specifier}' (imported by ${module}) is not a known .sycl.ts module` };
    }
    return this.#resolveExport(target, name, seen);
  }

  #resolveExport(module: string, name: string, seen: Set<string>): Resolution {
    const key = `${module}\0${name}`;
    if (seen.has(key)) return { error: `'${name}' is re-exported in a cycle through ${module}` };
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
      return {
        error: `'${name}' is exported by ${module} through several 'export *' with different meanings`,
      };
    }
    // A declaration the object lists but does not export (TypeScript rejects such imports anyway).
    if (this.declarations.has(symbolicId(module, name))) return { id: symbolicId(module, name) };
    return { error: `${module} does not export '${name}'` };
  }
}
