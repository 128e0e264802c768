/**
 * Rewrites device code from `SymbolRef`s to symbolic IDs and records, in source order, what
 * each kernel and function uses: the order later fixes numeric IDs, so it must only depend on
 * the code, never on the order modules were given in.
 */
import { type DataType, type SymbolicId, sameType } from '@syclts/dsl';
import { type Diagnostic, errorAt } from '../diagnostics/diagnostic.js';
import * as msg from '../diagnostics/link-messages.js';
import { mapMatrixExprs } from '../ir/children.js';
import type { Block, Expr, LetStmt, Stmt, UpdateStmt } from '../ir/device-code.js';
import type {
  FunctionDecl,
  KernelDecl,
  KernelParam,
  KernelRange,
  SymbolRef,
  WgslPart,
} from '../ir/device-object.js';
import type { Span } from '../ir/span.js';
import type { LoweredReduction } from './reductions.js';
import type { DeclarationKind, SymbolTable } from './symbols.js';

export type Use =
  | { readonly kind: 'specConstant'; readonly id: SymbolicId }
  | { readonly kind: 'deviceGlobal'; readonly id: SymbolicId }
  | { readonly kind: 'function'; readonly id: SymbolicId; readonly span: Span };

export interface ResolvedKernel {
  readonly id: SymbolicId;
  readonly module: string;
  readonly decl: KernelDecl<SymbolicId>;
  readonly uses: readonly Use[];
  /** Set once link/reductions.ts has lowered the kernel's reduction variables. */
  readonly reductions?: readonly LoweredReduction[];
}

export interface ResolvedFunction {
  readonly id: SymbolicId;
  readonly module: string;
  readonly decl: FunctionDecl<SymbolicId>;
  readonly uses: readonly Use[];
}

/** Resolves the references of one module's code, recording uses as it goes. */
class ModuleResolver {
  readonly uses: Use[] = [];
  /** A reference could not be resolved: the code is reported and must not be used. */
  unresolved = false;

  constructor(
    private readonly table: SymbolTable,
    private readonly module: string,
    private readonly diagnostics: Diagnostic[],
  ) {}

  ref(ref: SymbolRef, kind: Exclude<DeclarationKind, 'kernel'>, span: Span): SymbolicId {
    const found = this.table.resolve(this.module, ref, kind, span, this.diagnostics);
    if (!found) {
      // Reported; the code being resolved is dropped, so this placeholder never leaves here.
      this.unresolved = true;
      return '';
    }
    if (kind === 'function') this.uses.push({ kind, id: found.id, span });
    else if (kind === 'deviceGlobal') this.uses.push({ kind, id: found.id });
    else this.uses.push({ kind: 'specConstant', id: found.id });
    return found.id;
  }

  expr(e: Expr<SymbolRef>): Expr<SymbolicId> {
    const { type, span } = e;
    switch (e.op) {
      case 'literal':
      case 'local':
      case 'param':
      case 'workgroupArray':
      case 'item':
      case 'launchSlot':
        return e;
      case 'specConstant':
        return { op: e.op, type, span, ref: this.ref(e.ref, 'specConstant', span) };
      case 'deviceGlobal':
        return { op: e.op, type, span, ref: this.ref(e.ref, 'deviceGlobal', span) };
      case 'unary':
        return { ...e, operand: this.expr(e.operand) };
      case 'binary':
        return { ...e, left: this.expr(e.left), right: this.expr(e.right) };
      case 'select':
      case 'conditional':
        return {
          ...e,
          condition: this.expr(e.condition),
          whenTrue: this.expr(e.whenTrue),
          whenFalse: this.expr(e.whenFalse),
        };
      case 'call': {
        const callee = this.ref(e.callee, 'function', span);
        const args = e.args.map((a) => this.expr(a));
        this.checkCall(callee, args, type, span);
        return { op: e.op, type, span, callee, args };
      }
      case 'builtin':
      case 'construct':
      case 'group':
      case 'texture':
        return { ...e, args: e.args.map((a) => this.expr(a)) };
      case 'index':
        return { ...e, base: this.expr(e.base), index: this.expr(e.index) };
      case 'member':
        return { ...e, base: this.expr(e.base) };
      case 'swizzle':
        return { ...e, base: this.expr(e.base) };
      case 'atomic':
        return { ...e, pointer: this.expr(e.pointer), args: e.args.map((a) => this.expr(a)) };
      case 'fromHost':
        return { ...e, place: this.expr(e.place) };
      case 'toHost':
        return { ...e, value: this.expr(e.value) };
    }
  }

  stmt(s: Stmt<SymbolRef>): Stmt<SymbolicId> {
    switch (s.kind) {
      case 'let':
        return this.let(s);
      case 'assign':
      case 'increment':
      case 'expr':
      case 'call':
      case 'atomicStore':
      case 'barrier':
      case 'combine':
      case 'jointScan':
      case 'jointMatrix':
      case 'textureStore':
      case 'log':
        return this.update(s);
      case 'if':
        return {
          ...s,
          condition: this.expr(s.condition),
          // biome-ignore lint/suspicious/noThenProperty: the IR's if statement names its branch 'then'
          then: this.block(s.then),
          else: s.else && this.block(s.else),
        };
      case 'for':
        return {
          ...s,
          init: s.init && (s.init.kind === 'let' ? this.let(s.init) : this.update(s.init)),
          condition: s.condition && this.expr(s.condition),
          update: s.update && this.update(s.update),
          body: this.block(s.body),
        };
      case 'while':
        return { ...s, condition: this.expr(s.condition), body: this.block(s.body) };
      case 'return':
        return { ...s, value: s.value && this.expr(s.value) };
      case 'block':
        return { ...s, body: this.block(s.body) };
      case 'break':
      case 'continue':
        return s;
    }
  }

  let(s: LetStmt<SymbolRef>): LetStmt<SymbolicId> {
    return { ...s, init: s.init && this.expr(s.init) };
  }

  /** Keeps the statement's kind, so a loop's update stays an update. */
  update(s: UpdateStmt<SymbolRef>): UpdateStmt<SymbolicId> {
    switch (s.kind) {
      case 'assign':
        return { ...s, target: this.expr(s.target), value: this.expr(s.value) };
      case 'increment':
        return { ...s, target: this.expr(s.target) };
      case 'expr':
        return { ...s, expr: this.expr(s.expr) };
      case 'call': {
        const callee = this.ref(s.callee, 'function', s.span);
        const args = s.args.map((a) => this.expr(a));
        this.checkCall(callee, args, null, s.span);
        return { ...s, callee, args };
      }
      case 'atomicStore':
        return { ...s, pointer: this.expr(s.pointer), value: this.expr(s.value) };
      case 'textureStore':
      case 'log':
        return { ...s, args: s.args.map((a) => this.expr(a)) };
      case 'combine':
        return { ...s, index: s.index && this.expr(s.index), value: this.expr(s.value) };
      case 'barrier':
        return s;
      case 'jointScan':
        return {
          ...s,
          input: this.expr(s.input),
          output: this.expr(s.output),
          init: s.init && this.expr(s.init),
        };
      case 'jointMatrix':
        return mapMatrixExprs(s, (e) => this.expr(e));
    }
  }

  /**
   * A call against its callee, now that both are known: each module was compiled on its own,
   * possibly against an older text of the callee's module (a bundler's cache), so the
   * signature it was lowered for may not be the callee's any more. `result` is null for a call
   * made as a statement of a function that returns nothing.
   */
  checkCall(
    callee: SymbolicId,
    args: readonly Expr<SymbolicId>[],
    result: DataType | null,
    span: Span,
  ): void {
    const found = this.table.declarations.get(callee);
    if (found?.kind !== 'function') return;
    const { decl } = found;
    const mismatch = callMismatch(decl, args, result);
    if (mismatch === null) return;
    this.unresolved = true;
    this.diagnostics.push(
      errorAt(msg.callMismatch(decl.name, mismatch), this.module, span, [
        { file: found.module, span: decl.span, message: msg.declaredHere(decl.name) },
      ]),
    );
  }

  block(b: Block<SymbolRef>): Block<SymbolicId> {
    return b.map((s) => this.stmt(s));
  }

  /** A reduction's combining device function, resolved and checked as a call `fn(x, y)` would be. */
  param(p: KernelParam): KernelParam<SymbolicId> {
    if (p.kind !== 'reduction') return p;
    const { operator } = p;
    if (operator.kind === 'known') return { ...p, operator };
    const fn = this.ref(operator.fn, 'function', p.span);
    const operand: Expr<SymbolicId> = { op: 'local', name: p.name, type: p.element, span: p.span };
    this.checkCall(fn, [operand, operand], p.element, p.span);
    return { ...p, operator: { ...operator, fn } };
  }

  range(r: KernelRange<SymbolRef>): KernelRange<SymbolicId> {
    return r.kind === 'basic'
      ? r
      : { ...r, workgroupSize: r.workgroupSize.map((e) => this.expr(e)) };
  }

  wgslPart(p: WgslPart<SymbolRef>): WgslPart<SymbolicId> {
    if (p.kind === 'value') return { ...p, expr: this.expr(p.expr) };
    if (p.kind !== 'ref') return p;
    const found = this.table.resolve(this.module, p.ref, 'specConstant', p.span, []);
    if (found) return { ...p, ref: this.ref(p.ref, 'specConstant', p.span) };
    const global = this.table.resolve(this.module, p.ref, 'deviceGlobal', p.span, []);
    if (global) return { ...p, ref: this.ref(p.ref, 'deviceGlobal', p.span) };
    return { ...p, ref: this.ref(p.ref, 'function', p.span) };
  }
}

/** How a call with `args` (and a result of type `result`) differs from `decl`, if it does. */
function callMismatch(
  decl: FunctionDecl,
  args: readonly Expr<SymbolicId>[],
  result: DataType | null,
): msg.CallMismatch | null {
  if (args.length !== decl.params.length) {
    return { kind: 'arity', passed: args.length, takes: decl.params.length };
  }
  for (const [i, a] of args.entries()) {
    const param = decl.params[i]!;
    if (!sameType(a.type, param.type)) {
      return {
        kind: 'argument',
        position: i + 1,
        given: a.type,
        parameter: param.name,
        expected: param.type,
      };
    }
  }
  if (result === null) {
    return decl.returnType === null ? null : { kind: 'discards', returns: decl.returnType };
  }
  if (decl.returnType === null) return { kind: 'usesNothing', result };
  return sameType(result, decl.returnType)
    ? null
    : { kind: 'result', expected: result, returns: decl.returnType };
}

export function resolveKernel(
  table: SymbolTable,
  module: string,
  id: SymbolicId,
  decl: KernelDecl,
  diagnostics: Diagnostic[],
): ResolvedKernel | null {
  const r = new ModuleResolver(table, module, diagnostics);
  const range = r.range(decl.range);
  const workgroupArrays = decl.workgroupArrays.map((w) => ({ ...w, length: r.expr(w.length) }));
  const params = decl.params.map((p) => r.param(p));
  const body = r.block(decl.body);
  if (r.unresolved) return null;
  return { id, module, decl: { ...decl, range, params, workgroupArrays, body }, uses: r.uses };
}

export function resolveFunction(
  table: SymbolTable,
  module: string,
  id: SymbolicId,
  decl: FunctionDecl,
  diagnostics: Diagnostic[],
): ResolvedFunction | null {
  const r = new ModuleResolver(table, module, diagnostics);
  const body: FunctionDecl<SymbolicId>['body'] =
    decl.body.kind === 'ir'
      ? { kind: 'ir', block: r.block(decl.body.block) }
      : { kind: 'wgsl', parts: decl.body.parts.map((p) => r.wgslPart(p)) };
  if (r.unresolved) return null;
  return { id, module, decl: { ...decl, body }, uses: r.uses };
}
