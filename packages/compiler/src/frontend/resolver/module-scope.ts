/**
 * The top level of one `.sycl.ts` module: imports, exports and `const` declarations, and what
 * each top-level name denotes (a DSL type, a constant, a declaration), resolved lazily and
 * across modules when a loader is given.
 */
import { type DataType, sameType } from '@syclts/dsl';
import type { Program, Statement, VariableDeclarator } from 'oxc-parser';
import type { ExportDecl, ImportDecl, SymbolRef } from '../../ir/device-object.js';
import { DSL_SPECIFIER, type Expression } from '../ast.js';
import type { Reporter } from '../report.js';
import { type ConstValue, describeConst } from './constants.js';

export interface FunctionSignature {
  /** Parameter types in order; 'handler' is the kernel handler, which has no WGSL parameter. */
  readonly params: readonly (DataType | 'handler')[];
  /** null: returns nothing. */
  readonly returns: DataType | null;
}

/** What a name denotes where device code or a declaration uses it. */
export type Entity =
  | { readonly kind: 'dsl'; readonly name: string }
  | { readonly kind: 'dslNamespace' }
  /** `import * as ns from '../other.sycl.ts'`: `ns.name` is what that module exports as `name`. */
  | { readonly kind: 'moduleNamespace'; readonly specifier: string }
  | { readonly kind: 'type'; readonly type: DataType }
  | { readonly kind: 'constant'; readonly value: ConstValue }
  | { readonly kind: 'specConstant'; readonly type: DataType; readonly ref: SymbolRef }
  | { readonly kind: 'deviceGlobal'; readonly type: DataType; readonly ref: SymbolRef }
  | { readonly kind: 'function'; readonly signature: FunctionSignature; readonly ref: SymbolRef }
  | { readonly kind: 'kernel' }
  /** Host code, or an import that cannot be followed: `why` says which. */
  | {
      readonly kind: 'opaque';
      readonly why: string;
      /** A DSL type expression of this module that does not evaluate: its errors are told at its use. */
      readonly badType?: Expression;
    };

/**
 * Whether two entities reached through different `export *` entries mean the same: equal types
 * and constants, or declarations of the same kind and type (which declaration is the link
 * step's to tell).
 */
export function sameEntity(a: Entity, b: Entity): boolean {
  switch (a.kind) {
    case 'type':
      return b.kind === 'type' && sameType(a.type, b.type);
    case 'constant':
      return b.kind === 'constant' && describeConst(a.value) === describeConst(b.value);
    case 'specConstant':
    case 'deviceGlobal':
      return b.kind === a.kind && sameType(a.type, b.type);
    case 'dsl':
      return b.kind === 'dsl' && a.name === b.name;
    case 'moduleNamespace':
      return b.kind === 'moduleNamespace' && a.specifier === b.specifier;
    default:
      return a.kind === b.kind;
  }
}

export type TopLevelBinding =
  | { readonly kind: 'import'; readonly specifier: string; readonly imported: string }
  | { readonly kind: 'const'; readonly declarator: VariableDeclarator; readonly init: Expression }
  /** `keyword`: the declaration's (`let`, `var`, a `const` without a value); null: a function or class. */
  | { readonly kind: 'host'; readonly keyword: string | null };

/** Loads another module's source for cross-module resolution; null when it is not `.sycl.ts`. */
export type ImportLoader = (
  fromModule: string,
  specifier: string,
) => { readonly module: string; readonly source: string } | null;

export interface ModuleTopLevel {
  readonly bindings: ReadonlyMap<string, TopLevelBinding>;
  readonly imports: readonly ImportDecl[];
  readonly exports: readonly ExportDecl[];
  /** Top-level `const` declarators in source order. */
  readonly consts: readonly { readonly name: string; readonly declarator: VariableDeclarator }[];
}

/** Collects the top level. Reports only what is wrong with the module's shape. */
export function scanTopLevel(program: Program, reporter: Reporter): ModuleTopLevel {
  const bindings = new Map<string, TopLevelBinding>();
  const imports: ImportDecl[] = [];
  const exports: ExportDecl[] = [];
  const consts: { name: string; declarator: VariableDeclarator }[] = [];

  const declareVariables = (statement: Statement, exported: boolean) => {
    if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) {
        if (declarator.id.type !== 'Identifier') continue;
        const name = declarator.id.name;
        if (statement.kind === 'const' && declarator.init) {
          bindings.set(name, { kind: 'const', declarator, init: declarator.init });
          consts.push({ name, declarator });
        } else {
          bindings.set(name, { kind: 'host', keyword: statement.kind });
        }
        if (exported) exports.push({ kind: 'local', exported: name, local: name });
      }
    } else if (
      (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') &&
      statement.id
    ) {
      bindings.set(statement.id.name, { kind: 'host', keyword: null });
      if (exported) {
        exports.push({ kind: 'local', exported: statement.id.name, local: statement.id.name });
      }
    }
  };

  for (const statement of program.body) {
    switch (statement.type) {
      case 'ImportDeclaration': {
        if (statement.importKind === 'type') break;
        const specifier = statement.source.value;
        const importBindings: { local: string; imported: string }[] = [];
        for (const s of statement.specifiers) {
          if (s.type === 'ImportSpecifier' && s.importKind === 'type') continue;
          const imported =
            s.type === 'ImportSpecifier'
              ? moduleExportName(s.imported)
              : s.type === 'ImportDefaultSpecifier'
                ? 'default'
                : '*';
          importBindings.push({ local: s.local.name, imported });
          bindings.set(s.local.name, { kind: 'import', specifier, imported });
        }
        imports.push({
          specifier,
          bindings: importBindings,
          span: reporter.source.span(statement.start, statement.end),
        });
        break;
      }
      case 'ExportNamedDeclaration': {
        if (statement.exportKind === 'type') break;
        if (statement.declaration) {
          declareVariables(statement.declaration, true);
        } else {
          for (const s of statement.specifiers) {
            if (s.exportKind === 'type') continue;
            const exported = moduleExportName(s.exported);
            const local = moduleExportName(s.local);
            exports.push(
              statement.source
                ? { kind: 'reexport', exported, specifier: statement.source.value, imported: local }
                : { kind: 'local', exported, local },
            );
          }
        }
        break;
      }
      case 'ExportAllDeclaration':
        if (statement.exportKind === 'type') break;
        if (statement.exported) {
          exports.push({
            kind: 'reexport',
            exported: moduleExportName(statement.exported),
            specifier: statement.source.value,
            imported: '*',
          });
        } else {
          exports.push({ kind: 'star', specifier: statement.source.value });
        }
        break;
      case 'ExportDefaultDeclaration':
        exports.push({ kind: 'local', exported: 'default', local: 'default' });
        break;
      default:
        declareVariables(statement, false);
    }
  }
  return { bindings, imports, exports, consts };
}

function moduleExportName(node: { type: string; name?: string; value?: unknown }): string {
  return node.type === 'Identifier' ? (node.name ?? '') : String(node.value ?? '');
}

export function isDslSpecifier(specifier: string): boolean {
  return specifier === DSL_SPECIFIER;
}
