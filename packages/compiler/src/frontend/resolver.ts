/**
 * Resolves top-level names to entities, evaluates type expressions and constant expressions.
 * One resolver per module; imported modules get their own (silent) resolver through the loader.
 */
import type { DataType, StructField } from '@syclts/dsl';
import { parseSync } from 'oxc-parser';
import type { SymbolRef } from '../ir/device-object.js';
import { type Expression, propertyName, unwrap } from './ast.js';
import { type ConstValue, foldNumeric, num, type Semantics } from './constants.js';
import { DSL_TYPE_NAMES, isMatrixDim, isVectorSize } from './dsl-names.js';
import {
  type Entity,
  type FunctionSignature,
  type ImportLoader,
  isDslSpecifier,
  type ModuleTopLevel,
  scanTopLevel,
} from './module-scope.js';
import { codes, Reporter } from './report.js';
import { SourceText } from './source-text.js';
import { arrayType, isInteger, matrixType, scalarOf, structType, vectorType } from './types.js';

const MAX_IMPORT_DEPTH = 16;

/** Shared by the resolvers of one compilation, so each imported module is scanned once. */
export class ResolverCache {
  readonly modules = new Map<string, Resolver | null>();
  constructor(readonly loader: ImportLoader | undefined) {}
}

export class Resolver {
  private readonly entities = new Map<string, Entity>();
  private readonly resolving = new Set<string>();

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
      return { kind: 'opaque', why: `\`${name}\` is defined in terms of itself` };
    }
    this.resolving.add(name);
    let entity: Entity;
    try {
      if (binding.kind === 'host') {
        entity = { kind: 'opaque', why: `\`${name}\` is ${binding.what}, which is host code` };
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
    for (const e of this.top.exports) {
      if (e.kind === 'local' && e.exported === exported) {
        return this.entity(e.local) ?? { kind: 'opaque', why: `\`${exported}\` is not a const` };
      }
      if (e.kind === 'reexport' && e.exported === exported) {
        return this.importedEntity(e.specifier, e.imported);
      }
    }
    for (const e of this.top.exports) {
      if (e.kind !== 'star') continue;
      const entity = this.importedEntity(e.specifier, exported);
      if (entity.kind !== 'opaque') return entity;
    }
    return { kind: 'opaque', why: `module '${this.module}' exports no \`${exported}\`` };
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
      default:
        return entity;
    }
  }

  private load(specifier: string): Resolver | string {
    const loader = this.cache.loader;
    const cannot = `\`${specifier}\` cannot be read at build time`;
    if (!loader) return `${cannot} (no import loader was given to the compiler)`;
    if (this.depth >= MAX_IMPORT_DEPTH) return `${cannot} (imports nest too deeply)`;
    let loaded: ReturnType<ImportLoader>;
    try {
      loaded = loader(this.module, specifier);
    } catch {
      loaded = null;
    }
    if (!loaded) return `${cannot} (not a .sycl.ts module the build knows)`;
    const cached = this.cache.modules.get(loaded.module);
    if (cached !== undefined) return cached ?? `${cannot} (it does not parse)`;
    this.cache.modules.set(loaded.module, null);
    const parsed = parseSync(loaded.module, loaded.source, { lang: 'ts', preserveParens: false });
    if (parsed.errors.length > 0) return `${cannot} (it does not parse)`;
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
        if (!type) return { kind: 'opaque', why: `\`${name}\` has no valid type` };
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
        if (!signature) return { kind: 'opaque', why: `\`${name}\` has no valid signature` };
        return { kind: 'function', signature, ref };
      }
    }
    const aliased = this.entityOf(node);
    if (aliased && aliased.kind !== 'opaque') return aliased;
    const { result: type, failed } = this.reporter.silently(() => this.evalType(node));
    if (type && !failed) return { kind: 'type', type };
    const value = this.evalConst(node);
    if (value) return { kind: 'constant', value };
    return { kind: 'opaque', why: `\`${name}\` is a host value the build cannot evaluate` };
  }

  /** `{ args: [T...], returns?: T }` of `deviceFunction`. Reports problems. */
  functionSignature(specNode: Expression): FunctionSignature | null {
    const spec = unwrap(specNode);
    if (spec.type !== 'ObjectExpression') {
      this.reporter.error(
        codes.badFunctionSpec,
        spec,
        'the first argument of deviceFunction must be an object literal',
        'write deviceFunction({ args: [f32, f32], returns: f32 }, (a, b) => ...)',
      );
      return null;
    }
    let params: (DataType | 'handler')[] | null = [];
    let returns: DataType | null = null;
    let sawArgs = false;
    for (const p of spec.properties) {
      const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
      if (p.type !== 'Property' || (key !== 'args' && key !== 'returns')) {
        this.reporter.error(
          codes.badFunctionSpec,
          p,
          'deviceFunction takes only `args` and `returns`',
          'write deviceFunction({ args: [f32, f32], returns: f32 }, (a, b) => ...)',
        );
        return null;
      }
      if (key === 'returns') {
        returns = this.evalType(p.value);
        if (!returns) return null;
        continue;
      }
      sawArgs = true;
      const list = unwrap(p.value);
      if (list.type !== 'ArrayExpression') {
        this.reporter.error(
          codes.badFunctionSpec,
          p.value,
          '`args` must be an array literal of DSL types, one per parameter',
          'write args: [f32, vec3f]',
        );
        return null;
      }
      for (const element of list.elements) {
        if (!element || element.type === 'SpreadElement') {
          this.reporter.error(
            codes.badFunctionSpec,
            list,
            '`args` must list one type per parameter',
          );
          params = null;
          break;
        }
        if (this.dslName(element) === 'kernelHandler') {
          if (params?.includes('handler')) {
            this.reporter.error(
              codes.badFunctionSpec,
              element,
              'a device function takes the kernel handler once',
            );
            params = null;
          } else {
            params?.push('handler');
          }
          continue;
        }
        const t = this.evalType(element);
        if (!t) params = null;
        else params?.push(t);
      }
    }
    if (!sawArgs) {
      this.reporter.error(
        codes.badFunctionSpec,
        spec,
        'deviceFunction needs `args`',
        'write args: [] for a function without parameters',
      );
      return null;
    }
    return params ? { params, returns } : null;
  }

  /** Evaluates a type expression to a DSL data type. Reports what is not one. */
  evalType(input: Expression): DataType | null {
    const node = unwrap(input);
    const notType = (why: string, hint?: string): null => {
      this.reporter.error(
        codes.notDslType,
        node,
        why,
        hint ??
          'use a type from @syclts/dsl (f32, u32, vec3f, array(f32, 4), struct({...}), ...) or a top-level const alias of one',
      );
      return null;
    };
    if (node.type === 'Identifier' || node.type === 'MemberExpression') {
      const entity = this.entityOf(node);
      if (!entity) {
        return notType(`\`${this.reporter.source.slice(node)}\` is not a DSL type`);
      }
      switch (entity.kind) {
        case 'type':
          return entity.type;
        case 'dsl': {
          const type = DSL_TYPE_NAMES.get(entity.name);
          if (type) return type;
          return notType(`\`${entity.name}\` from @syclts/dsl is not a type`);
        }
        case 'opaque':
          if (this.top.bindings.get(this.reporter.source.slice(node))?.kind === 'import') {
            this.reporter.error(
              codes.unresolvedImport,
              node,
              `cannot resolve the type \`${this.reporter.source.slice(node)}\`: ${entity.why}`,
              'declare the type alias in this module, or build through the syclts plugin so imported .sycl.ts modules can be read',
            );
            return null;
          }
          return notType(
            `\`${this.reporter.source.slice(node)}\` is not a DSL type: ${entity.why}`,
          );
        default:
          return notType(`\`${this.reporter.source.slice(node)}\` is a ${entity.kind}, not a type`);
      }
    }
    if (node.type !== 'CallExpression') {
      return notType(`\`${this.reporter.source.slice(node)}\` is not a DSL type`);
    }
    const callee = this.dslName(node.callee);
    const args = node.arguments;
    const arg = (i: number): Expression | null => {
      const a = args[i];
      return a && a.type !== 'SpreadElement' ? a : null;
    };
    const intArg = (i: number, what: string): number | null => {
      const a = arg(i);
      const v = a ? this.evalConst(a) : null;
      if (v?.kind === 'number' && !v.float && Number.isInteger(v.value)) return v.value;
      this.reporter.error(
        codes.notDslType,
        a ?? node,
        `${what} must be an integer constant`,
        'write a literal or a top-level const',
      );
      return null;
    };
    switch (callee) {
      case 'vec': {
        const component = arg(0) ? this.evalType(arg(0)!) : null;
        const size = intArg(1, 'the size of a vector');
        if (!component || size === null) return null;
        if (component.kind !== 'scalar') {
          return notType('vector components must be scalars (bool, i32, u32, f32, f16)');
        }
        if (!isVectorSize(size)) return notType(`vectors have 2, 3 or 4 components, not ${size}`);
        return vectorType(component.scalar, size);
      }
      case 'mat': {
        const columns = intArg(0, 'the number of columns');
        const rows = intArg(1, 'the number of rows');
        if (columns === null || rows === null) return null;
        if (!isMatrixDim(columns) || !isMatrixDim(rows)) {
          return notType(`matrices are 2x2 to 4x4, not ${columns}x${rows}`);
        }
        return matrixType(columns, rows);
      }
      case 'array': {
        const element = arg(0) ? this.evalType(arg(0)!) : null;
        const length = intArg(1, 'the length of an array');
        if (!element || length === null) return null;
        if (length < 1) return notType(`an array needs at least one element, not ${length}`);
        return arrayType(element, length);
      }
      case 'struct': {
        const shape = arg(0) ? unwrap(arg(0)!) : null;
        if (shape?.type !== 'ObjectExpression' || shape.properties.length === 0) {
          return notType(
            'struct takes an object literal of field types',
            'write struct({ x: f32, count: u32 })',
          );
        }
        const fields: StructField[] = [];
        for (const p of shape.properties) {
          const name = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
          if (p.type !== 'Property' || name === null || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
            this.reporter.error(
              codes.notDslType,
              p,
              'struct fields need plain names (letters, digits, underscores)',
            );
            return null;
          }
          if (fields.some((f) => f.name === name)) {
            this.reporter.error(codes.duplicate, p, `field \`${name}\` appears twice`);
            return null;
          }
          const type = this.evalType(p.value);
          if (!type) return null;
          fields.push({ name, type });
        }
        return structType(fields);
      }
      case 'atomic': {
        const inner = arg(0) ? this.evalType(arg(0)!) : null;
        if (!inner) return null;
        const s = scalarOf(inner);
        if (inner.kind !== 'scalar' || !isInteger(s)) {
          return notType('atomics hold i32 or u32', 'write atomic(u32) or atomic(i32)');
        }
        return { kind: 'atomic', scalar: s };
      }
      default:
        return notType(`\`${this.reporter.source.slice(node)}\` is not a DSL type`);
    }
  }

  /**
   * Folds a constant expression, or returns null (silently) when it is not one. Top-level
   * values are host values and fold with JavaScript semantics ('host'); constant expressions
   * written in device code fold as WGSL abstract values ('device': integer division truncates).
   */
  evalConst(input: Expression, semantics: Semantics = 'host'): ConstValue | null {
    const node = unwrap(input);
    switch (node.type) {
      case 'Literal':
        if (typeof node.value === 'number') {
          return num(
            node.value,
            /[.eE]/.test(node.raw ?? '') && !/^0[xXbBoO]/.test(node.raw ?? ''),
          );
        }
        if (typeof node.value === 'boolean') return { kind: 'bool', value: node.value };
        if (typeof node.value === 'string') return { kind: 'string', value: node.value };
        return null;
      case 'Identifier': {
        const e = this.entity(node.name);
        return e?.kind === 'constant' ? e.value : null;
      }
      case 'MemberExpression': {
        if (!node.computed && node.object.type === 'Identifier' && node.object.name === 'Math') {
          const v = MATH_CONSTANTS[node.property.type === 'Identifier' ? node.property.name : ''];
          return v === undefined || this.top.bindings.has('Math') ? null : num(v, true);
        }
        const base = this.evalConst(node.object, semantics);
        if (!base) return null;
        if (node.computed) {
          const index = this.evalConst(node.property as Expression, semantics);
          if (base.kind === 'array' && index?.kind === 'number') {
            return base.items[index.value] ?? null;
          }
          return null;
        }
        if (base.kind === 'object' && node.property.type === 'Identifier') {
          return base.fields.get(node.property.name) ?? null;
        }
        if (base.kind === 'array' && node.property.type === 'Identifier') {
          return node.property.name === 'length' ? num(base.items.length, false) : null;
        }
        return null;
      }
      case 'UnaryExpression': {
        const v = this.evalConst(node.argument, semantics);
        if (!v) return null;
        if (node.operator === '!' && v.kind === 'bool') return { kind: 'bool', value: !v.value };
        if (v.kind !== 'number') return null;
        if (node.operator === '-') return num(-v.value, v.float);
        if (node.operator === '+') return v;
        if (node.operator === '~' && !v.float) {
          return num(semantics === 'host' ? ~v.value : -v.value - 1, false);
        }
        return null;
      }
      case 'BinaryExpression': {
        const a = this.evalConst(node.left as Expression, semantics);
        const b = this.evalConst(node.right, semantics);
        if (a?.kind === 'number' && b?.kind === 'number') {
          return foldNumeric(node.operator, a, b, semantics);
        }
        if (a?.kind === 'bool' && b?.kind === 'bool') {
          if (node.operator === '===' || node.operator === '==') {
            return { kind: 'bool', value: a.value === b.value };
          }
          if (node.operator === '!==' || node.operator === '!=') {
            return { kind: 'bool', value: a.value !== b.value };
          }
        }
        return null;
      }
      case 'LogicalExpression': {
        const a = this.evalConst(node.left, semantics);
        const b = this.evalConst(node.right, semantics);
        if (a?.kind !== 'bool' || b?.kind !== 'bool') return null;
        if (node.operator === '&&') return { kind: 'bool', value: a.value && b.value };
        if (node.operator === '||') return { kind: 'bool', value: a.value || b.value };
        return null;
      }
      case 'ConditionalExpression': {
        const c = this.evalConst(node.test, semantics);
        if (c?.kind !== 'bool') return null;
        return this.evalConst(c.value ? node.consequent : node.alternate, semantics);
      }
      case 'ArrayExpression': {
        const items: ConstValue[] = [];
        for (const e of node.elements) {
          if (!e || e.type === 'SpreadElement') return null;
          const v = this.evalConst(e, semantics);
          if (!v) return null;
          items.push(v);
        }
        return { kind: 'array', items };
      }
      case 'ObjectExpression': {
        const fields = new Map<string, ConstValue>();
        for (const p of node.properties) {
          if (p.type !== 'Property' || p.kind !== 'init' || p.method) return null;
          const key = propertyName(p.key, p.computed);
          if (key === null) return null;
          const v = this.evalConst(p.value, semantics);
          if (!v) return null;
          fields.set(key, v);
        }
        return { kind: 'object', fields };
      }
      default:
        return null;
    }
  }
}

export const MATH_CONSTANTS: Readonly<Record<string, number>> = {
  PI: Math.PI,
  E: Math.E,
  LN2: Math.LN2,
  LN10: Math.LN10,
  LOG2E: Math.LOG2E,
  LOG10E: Math.LOG10E,
  SQRT2: Math.SQRT2,
  SQRT1_2: Math.SQRT1_2,
};
