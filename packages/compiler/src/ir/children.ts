/**
 * One level of the IR's tree, rebuilt: transforms say what to do at the nodes they change and
 * leave the walk over the rest to these two functions.
 */
import type { Block, Expr, JointMatrixStmt, LetStmt, Stmt, UpdateStmt } from './device-code.js';

/**
 * `e` with each direct sub-expression replaced by `f` of it; `e` itself when `f` changed none,
 * so that a transform allocates only along the paths it rewrites.
 */
export function mapChildren<R>(e: Expr<R>, f: (child: Expr<R>) => Expr<R>): Expr<R> {
  switch (e.op) {
    case 'literal':
    case 'local':
    case 'param':
    case 'workgroupArray':
    case 'specConstant':
    case 'deviceGlobal':
    case 'item':
    case 'launchSlot':
      return e;
    case 'unary': {
      const operand = f(e.operand);
      return operand === e.operand ? e : { ...e, operand };
    }
    case 'binary': {
      const left = f(e.left);
      const right = f(e.right);
      return left === e.left && right === e.right ? e : { ...e, left, right };
    }
    case 'select':
    case 'conditional': {
      const condition = f(e.condition);
      const whenTrue = f(e.whenTrue);
      const whenFalse = f(e.whenFalse);
      return condition === e.condition && whenTrue === e.whenTrue && whenFalse === e.whenFalse
        ? e
        : { ...e, condition, whenTrue, whenFalse };
    }
    case 'call':
    case 'builtin':
    case 'construct':
    case 'group':
    case 'texture': {
      const args = mapAll(e.args, f);
      return args === e.args ? e : { ...e, args };
    }
    case 'index': {
      const base = f(e.base);
      const index = f(e.index);
      return base === e.base && index === e.index ? e : { ...e, base, index };
    }
    case 'member':
    case 'swizzle': {
      const base = f(e.base);
      return base === e.base ? e : { ...e, base };
    }
    case 'atomic': {
      const pointer = f(e.pointer);
      const args = mapAll(e.args, f);
      return pointer === e.pointer && args === e.args ? e : { ...e, pointer, args };
    }
    case 'fromHost': {
      const place = f(e.place);
      return place === e.place ? e : { ...e, place };
    }
    case 'toHost': {
      const value = f(e.value);
      return value === e.value ? e : { ...e, value };
    }
  }
}

/** `items` mapped by `f`; `items` itself when no item changed. */
export function mapAll<T>(items: readonly T[], f: (item: T) => T): readonly T[] {
  let out: T[] | null = null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const next = f(item);
    if (next !== item && out === null) out = items.slice(0, i);
    out?.push(next);
  }
  return out ?? items;
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

/** `s` with its expressions, blocks and statements mapped; `s` itself when none changed. */
export function mapStmt<R>(s: Stmt<R>, m: StmtMapper<R>): Stmt<R> {
  switch (s.kind) {
    case 'let':
      return m.let(s);
    case 'if': {
      const condition = m.expr(s.condition);
      const then = m.block(s.then);
      const otherwise = s.else && m.block(s.else);
      return condition === s.condition && then === s.then && otherwise === s.else
        ? s
        : { ...s, condition, then, else: otherwise };
    }
    case 'for':
      return m.scoped(() => {
        const init = s.init && (s.init.kind === 'let' ? m.let(s.init) : m.update(s.init));
        const condition = s.condition && m.expr(s.condition);
        const update = s.update && m.update(s.update);
        const body = m.block(s.body);
        return init === s.init &&
          condition === s.condition &&
          update === s.update &&
          body === s.body
          ? s
          : { ...s, init, condition, update, body };
      });
    case 'while': {
      const condition = m.expr(s.condition);
      const body = m.block(s.body);
      return condition === s.condition && body === s.body ? s : { ...s, condition, body };
    }
    case 'block': {
      const body = m.block(s.body);
      return body === s.body ? s : { ...s, body };
    }
    case 'return': {
      const value = s.value && m.expr(s.value);
      return value === s.value ? s : { ...s, value };
    }
    case 'break':
    case 'continue':
      return s;
    default:
      return m.update(s);
  }
}

/**
 * `block` with each top-level expression of its statements (nested blocks included) mapped by
 * `expr`, and each update statement by `update` (by default: its expressions by `expr`), for
 * rewrites that need no scopes; `block` itself when none changed.
 */
export function mapBlockExprs<R>(
  block: Block<R>,
  expr: (e: Expr<R>) => Expr<R>,
  update: (s: UpdateStmt<R>) => UpdateStmt<R> = (s) => mapUpdateParts(s, expr),
): Block<R> {
  const mapper: StmtMapper<R> = {
    expr,
    block: (b) => mapAll(b, (s) => mapStmt(s, mapper)),
    let: (s) => {
      const init = s.init && expr(s.init);
      return init === s.init ? s : { ...s, init };
    },
    update,
    scoped: (f) => f(),
  };
  return mapper.block(block);
}

/** The expressions of an update statement mapped by `expr`; `s` itself when none changed. */
export function mapUpdateParts<R>(s: UpdateStmt<R>, expr: (e: Expr<R>) => Expr<R>): UpdateStmt<R> {
  switch (s.kind) {
    case 'assign': {
      const target = expr(s.target);
      const value = expr(s.value);
      return target === s.target && value === s.value ? s : { ...s, target, value };
    }
    case 'increment': {
      const target = expr(s.target);
      return target === s.target ? s : { ...s, target };
    }
    case 'expr': {
      const e = expr(s.expr);
      return e === s.expr ? s : { ...s, expr: e };
    }
    case 'call':
    case 'textureStore':
    case 'log': {
      const args = mapAll(s.args, expr);
      return args === s.args ? s : { ...s, args };
    }
    case 'atomicStore': {
      const pointer = expr(s.pointer);
      const value = expr(s.value);
      return pointer === s.pointer && value === s.value ? s : { ...s, pointer, value };
    }
    case 'barrier':
      return s;
    case 'combine': {
      const index = s.index && expr(s.index);
      const value = expr(s.value);
      return index === s.index && value === s.value ? s : { ...s, index, value };
    }
    case 'jointScan': {
      const input = expr(s.input);
      const output = expr(s.output);
      const init = s.init && expr(s.init);
      return input === s.input && output === s.output && init === s.init
        ? s
        : { ...s, input, output, init };
    }
    case 'jointMatrix':
      return mapMatrixExprs(s, expr);
  }
}

/**
 * A joint-matrix statement with its expressions mapped by `expr` (`Q` the naming they come out
 * in); `s` itself when none changed.
 */
export function mapMatrixExprs<R, Q>(
  s: JointMatrixStmt<R>,
  expr: (e: Expr<R>) => Expr<Q>,
): JointMatrixStmt<Q> {
  const same = (before: Expr<R>, after: Expr<Q>) => (after as unknown) === before;
  switch (s.fn) {
    case 'declare':
    case 'mad':
      return s;
    case 'fill':
    case 'apply': {
      const value = expr(s.value);
      return same(s.value, value)
        ? (s as JointMatrixStmt<unknown> as JointMatrixStmt<Q>)
        : { ...s, value };
    }
    case 'load':
    case 'store': {
      const memory = expr(s.memory);
      const offset = expr(s.offset);
      const stride = expr(s.stride);
      return same(s.memory, memory) && same(s.offset, offset) && same(s.stride, stride)
        ? (s as JointMatrixStmt<unknown> as JointMatrixStmt<Q>)
        : { ...s, memory, offset, stride };
    }
  }
}

/** The expressions of a joint-matrix statement, in evaluation order. */
export function matrixExprs<R>(s: JointMatrixStmt<R>): Expr<R>[] {
  switch (s.fn) {
    case 'declare':
    case 'mad':
      return [];
    case 'fill':
    case 'apply':
      return [s.value];
    case 'load':
    case 'store':
      return [s.memory, s.offset, s.stride];
  }
}

/** Every update statement of `block` for which `test` holds, at any depth, in source order. */
export function findUpdates<R, S extends UpdateStmt<R>>(
  block: Block<R>,
  test: (s: UpdateStmt<R>) => s is S,
): S[] {
  const found: S[] = [];
  mapBlockExprs(
    block,
    (e) => e,
    (s) => {
      if (test(s)) found.push(s);
      return s;
    },
  );
  return found;
}

/**
 * Whether `block` holds a group function, a joint scan or a joint-matrix operation (every item of
 * the group meets there).
 */
export function holdsGroupFunction<R>(block: Block<R>): boolean {
  return someExpr(block, (e) => e.op === 'group') || holdsJointStatement(block);
}

/** Whether `block` holds a joint scan or a joint-matrix statement. */
export function holdsJointStatement<R>(block: Block<R>): boolean {
  return (
    findUpdates(
      block,
      (s): s is UpdateStmt<R> => s.kind === 'jointScan' || s.kind === 'jointMatrix',
    ).length > 0
  );
}

/** Whether `test` holds for a direct sub-expression of `e`. */
export function someChild<R>(e: Expr<R>, test: (child: Expr<R>) => boolean): boolean {
  let found = false;
  mapChildren(e, (child) => {
    found ||= test(child);
    return child;
  });
  return found;
}

/** Whether `test` holds for some expression of `block`, at any depth. */
export function someExpr<R>(block: Block<R>, test: (e: Expr<R>) => boolean): boolean {
  let found = false;
  const deep = (e: Expr<R>): boolean => test(e) || someChild(e, deep);
  mapBlockExprs(block, (e) => {
    found ||= deep(e);
    return e;
  });
  return found;
}

/** Every expression of `block` for which `test` holds, at any depth, in source order. */
export function findExprs<R, E extends Expr<R>>(
  block: Block<R>,
  test: (e: Expr<R>) => e is E,
): E[] {
  const found: E[] = [];
  const visit = (e: Expr<R>): Expr<R> => {
    if (test(e)) found.push(e);
    mapChildren(e, visit);
    return e;
  };
  mapBlockExprs(block, visit);
  return found;
}
