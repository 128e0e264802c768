/**
 * Resolves top-level names to entities, evaluates type expressions and constant expressions.
 * One resolver per module; imported modules get their own (silent) resolver through the loader.
 */
import type { DataType } from '@syclts/dsl';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { SymbolRef } from '../../ir/device-object.js';
import { findExport } from '../../ir/exports.js';
import { type Expression, unwrap } from '../ast.js';
import type { ModuleLoader } from '../loader/module-loader.js';
import { Reporter } from '../report.js';
import { SourceText } from '../source-text.js';
import { evalConst } from './const-eval.js';
import type { ConstValue, Semantics } from './constants.js';
import {
  type Entity,
  type FunctionSignature,
  type ImportLoader,
  isDslSpecifier,
  type ModuleTopLevel,
  sameEntity,
  scanTopLevel,
} from './module-scope.js';
import { functionSignature } from './signatures.js';
import { evalType } from './type-eval.js';

const MAX_IMPORT_DEPTH = 16;

/** DSL calls that make a type: an alias of one is a type alias, reported as one. */
const TYPE_CALLS: ReadonlySet<string> = new Set(['struct', 'array', 'vec', 'mat', 'atomic']);

/** Shared by the resolvers of one compilation, so each imported module is scanned once. */
export class ResolverCache {
  readonly modules = new Map<string, Resolver | null>();
  constructor(
    readonly parser: ModuleLoader,
    readonly loader: ImportLoader | undefined,
  ) {}
}

export class Resolver {
  private readonly entities = new Map<string, Entity>();
  private readonly resolving = new Set<string>();
  private readonly reportedTypes = new Set<Expression>();

  constructor(
    readonly top: ModuleTopLevel,
    readonly reporter: Reporter,
    readonly module: string,
    private readonly cache: ResolverCache,
    private readonly depth = 0,
  ) {}

  /** The entity a top-level name denotes, or undefined when the module has no such name. */
  entity(name: string): Entity | undefined {
    const known = this.entities.get(name);
    if (known) return known;
    const binding = this.top.bindings.get(name);
    if (!binding) return undefined;
    if (this.resolving.has(name)) {
      return { kind: 'opaque', why: msg.definedInTermsOfItself(name) };
    }
    this.resolving.add(name);
    let entity: Entity;
    try {
      if (binding.kind === 'host') {
        entity = { kind: 'opaque', why: msg.hostCode(name, binding.keyword) };
      } else if (binding.kind === 'import') {
        entity = this.importedEntity(binding.specifier, binding.imported);
      } else {
        entity = this.classify(name, binding.init);
      }
    } finally {
      this.resolving.delete(name);
    }
    this.entities.set(name, entity);
    return entity;
  }

  /** The entity an identifier or `ns.name` expression denotes (top level only). */
  entityOf(node: Expression): Entity | undefined {
    const n = unwrap(node);
    if (n.type === 'Identifier') return this.entity(n.name);
    if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier') {
      const base = this.entityOf(n.object);
      if (base?.kind === 'dslNamespace') return { kind: 'dsl', name: n.property.name };
      if (base?.kind === 'moduleNamespace') {
        return this.importedEntity(base.specifier, n.property.name);
      }
    }
    return undefined;
  }

  /** Name of the DSL export a callee denotes, if any. */
  dslName(node: Expression): string | null {
    const e = this.entityOf(node);
    return e?.kind === 'dsl' ? e.name : null;
  }

  /** What another module sees when it imports `exported` from this one. */
  exportedEntity(exported: string): Entity {
    const found = findExport<Entity>(this.top.exports, exported, {
      local: (local) =>
        this.entity(local) ?? { kind: 'opaque', why: msg.exportNotAConst(exported) },
      reexport: (specifier, imported) => this.importedEntity(specifier, imported),
      star: (specifier) => {
        const entity = this.importedEntity(specifier, exported);
        return entity.kind === 'opaque' ? null : entity;
      },
      same: sameEntity,
    });
    switch (found.kind) {
      case 'found':
        return found.value;
      case 'ambiguous':
        return { kind: 'opaque', why: msg.ambiguousExport(this.module, exported) };
      case 'missing':
        return { kind: 'opaque', why: msg.missingExport(this.module, exported) };
    }
  }

  private importedEntity(specifier: string, imported: string): Entity {
    if (isDslSpecifier(specifier)) {
      return imported === '*' ? { kind: 'dslNamespace' } : { kind: 'dsl', name: imported };
    }
    const target = this.load(specifier);
    if (typeof target === 'string') return { kind: 'opaque', why: target };
    if (imported === '*') return { kind: 'moduleNamespace', specifier };
    const entity = target.exportedEntity(imported);
    const ref: SymbolRef = { kind: 'import', specifier, name: imported };
    switch (entity.kind) {
      case 'specConstant':
      case 'deviceGlobal':
      case 'function':
        return { ...entity, ref };
      case 'opaque':
        // A bad type alias over there is reported when that module is built.
        return { kind: 'opaque', why: entity.why };
      default:
        return entity;
    }
  }

  private load(specifier: string): Resolver | string {
    const loader = this.cache.loader;
    if (!loader) return msg.unreadableImport(specifier, 'noLoader');
    if (this.depth >= MAX_IMPORT_DEPTH) return msg.unreadableImport(specifier, 'tooDeep');
    let loaded: ReturnType<ImportLoader>;
    try {
      loaded = loader(this.module, specifier);
    } catch {
      loaded = null;
    }
    if (!loaded) return msg.unreadableImport(specifier, 'unknown');
    const cached = this.cache.modules.get(loaded.module);
    if (cached !== undefined) return cached ?? msg.unreadableImport(specifier, 'unparsable');
    this.cache.modules.set(loaded.module, null);
    const parsed = this.cache.parser.parse(loaded.module, loaded.source);
    if (!parsed.program) return msg.unreadableImport(specifier, 'unparsable');
    const reporter = new Reporter(new SourceText(loaded.source), loaded.module);
    const resolver = new Resolver(
      scanTopLevel(parsed.program, reporter),
      reporter,
      loaded.module,
      this.cache,
      this.depth + 1,
    );
    this.cache.modules.set(loaded.module, resolver);
    return resolver;
  }

  /** What a top-level `const name = init` declares, without reporting anything. */
  private classify(name: string, init: Expression): Entity {
    const node = unwrap(init);
    const ref: SymbolRef = { kind: 'local', name };
    if (node.type === 'CallExpression') {
      const callee = this.dslName(node.callee);
      const arg0 = node.arguments[0];
      if (callee === 'specializationId' || callee === 'deviceGlobal') {
        const type =
          arg0 && arg0.type !== 'SpreadElement'
            ? this.reporter.silently(() => this.evalType(arg0)).result
            : null;
        if (!type) return { kind: 'opaque', why: msg.noValidType(name) };
        return callee === 'specializationId'
          ? { kind: 'specConstant', type, ref }
          : { kind: 'deviceGlobal', type, ref };
      }
      if (callee === 'kernel') return { kind: 'kernel' };
      if (callee === 'deviceFunction') {
        const signature =
          arg0 && arg0.type !== 'SpreadElement'
            ? this.reporter.silently(() => this.functionSignature(arg0)).result
            : null;
        if (!signature) return { kind: 'opaque', why: msg.noValidSignature(name) };
        return { kind: 'function', signature, ref };
      }
    }
    const aliased = this.entityOf(node);
    if (aliased && aliased.kind !== 'opaque') return aliased;
    const { result: type, failed } = this.reporter.silently(() => this.evalType(node));
    if (type && !failed) return { kind: 'type', type };
    const value = this.evalConst(node);
    if (value) return { kind: 'constant', value };
    const typeCall =
      node.type === 'CallExpression' && TYPE_CALLS.has(this.dslName(node.callee) ?? '');
    return {
      kind: 'opaque',
      why: msg.hostValue(name),
      ...(typeCall ? { badType: node } : {}),
    };
  }

  /** `{ args: [T...], returns?: T }` of `deviceFunction`. Reports problems. */
  functionSignature(spec: Expression): FunctionSignature | null {
    return functionSignature(this, spec);
  }

  /** Evaluates a type expression to a DSL data type. Reports what is not one. */
  evalType(input: Expression): DataType | null {
    return evalType(this, input);
  }

  /**
   * Reports the errors of a type alias of this module that does not evaluate, at their place in
   * the alias, once; false when there were none to report (the alias failed for another reason).
   */
  reportBadType(node: Expression): boolean {
    if (this.reportedTypes.has(node)) return true;
    const before = this.reporter.errorCount;
    const type = evalType(this, node);
    if (type !== null || this.reporter.errorCount === before) return false;
    this.reportedTypes.add(node);
    return true;
  }

  /**
   * Folds a constant expression, or returns null (silently) when it is not one. Top-level
   * values are host values and fold with JavaScript semantics ('host'); constant expressions
   * written in device code fold as WGSL abstract values ('device': integer division truncates).
   */
  evalConst(input: Expression, semantics: Semantics = 'host'): ConstValue | null {
    return evalConst(this, input, semantics);
  }
}
