/**
 * One level of the IR's tree, rebuilt: transforms say what to do at the nodes they change and
 * leave the walk over the rest to these two functions.
 */
import type { Block, Expr, LetStmt, Stmt, UpdateStmt } from './device-code.js';

/** `e` with each direct sub-expression replaced by `f` of it. */
export function mapChildren<R>(e: Expr<R>, f: (child: Expr<R>) => Expr<R>): Expr<R> {
  switch (e.op) {
    case 'literal':
    case 'local':
    case 'param':
    case 'workgroupArray':
    case 'specConstant':
    case 'deviceGlobal':
    case 'item':
      return e;
    case 'unary':
      return { ...e, operand: f(e.operand) };
    case 'binary':
      return { ...e, left: f(e.left), right: f(e.right) };
    case 'select':
      return {
        ...e,
        condition: f(e.condition),
        whenTrue: f(e.whenTrue),
        whenFalse: f(e.whenFalse),
      };
    case 'call':
    case 'builtin':
    case 'construct':
      return { ...e, args: e.args.map(f) };
    case 'index':
      return { ...e, base: f(e.base), index: f(e.index) };
    case 'member':
    case 'swizzle':
      return { ...e, base: f(e.base) };
    case 'atomic':
      return { ...e, pointer: f(e.pointer), args: e.args.map(f) };
    case 'fromHost':
      return { ...e, place: f(e.place) };
    case 'toHost':
      return { ...e, value: f(e.value) };
  }
}

export interface StmtMapper<R> {
  readonly expr: (e: Expr<R>) => Expr<R>;
  /** A nested block (a scope of its own). */
  readonly block: (b: Block<R>) => Block<R>;
  /** A `let`, in a block or in a `for` header. */
  readonly let: (s: LetStmt<R>) => LetStmt<R>;
  /** An update statement, in a block or in a `for` header. */
  readonly update: (s: UpdateStmt<R>) => UpdateStmt<R>;
  /** Runs `f` in a scope of its own: a `for` header's `let` is visible in the loop only. */
  readonly scoped: <T>(f: () => T) => T;
}

/** `s` with its expressions, blocks and statements mapped. */
export function mapStmt<R>(s: Stmt<R>, m: StmtMapper<R>): Stmt<R> {
  switch (s.kind) {
    case 'let':
      return m.let(s);
    case 'if':
      return {
        ...s,
        condition: m.expr(s.condition),
        // biome-ignore lint/suspicious/noThenProperty: the IR's if statement names its branch 'then'
        then: m.block(s.then),
        else: s.else && m.block(s.else),
      };
    case 'for':
      return m.scoped(() => ({
        ...s,
        init: s.init && (s.init.kind === 'let' ? m.let(s.init) : m.update(s.init)),
        condition: s.condition && m.expr(s.condition),
        update: s.update && m.update(s.update),
        body: m.block(s.body),
      }));
    case 'while':
      return { ...s, condition: m.expr(s.condition), body: m.block(s.body) };
    case 'block':
      return { ...s, body: m.block(s.body) };
    case 'return':
      return { ...s, value: s.value && m.expr(s.value) };
    case 'break':
    case 'continue':
      return s;
    default:
      return m.update(s);
  }
}

/** The expressions of an update statement mapped by `expr`. */
export function mapUpdateParts<R>(s: UpdateStmt<R>, expr: (e: Expr<R>) => Expr<R>): UpdateStmt<R> {
  switch (s.kind) {
    case 'assign':
      return { ...s, target: expr(s.target), value: expr(s.value) };
    case 'increment':
      return { ...s, target: expr(s.target) };
    case 'expr':
      return { ...s, expr: expr(s.expr) };
    case 'barrier':
      return s;
  }
}
