/**
 * JavaScript's `c ? a : b` evaluates one branch; WGSL's `select` evaluates both and takes only
 * scalars and vectors. The front end lowers a conditional to `select` where the two agree and to
 * a `conditional` node otherwise; this pass, the last of the front end, turns each `conditional`
 * into a temporary assigned in `if`/`else` before the statement that holds it (in the shape of
 * TypeGPU's guarded ternary). An `&&`/`||` whose right operand needs such statements becomes an
 * `if` too, so it still short-circuits; values evaluated before a hoisted branch are first kept
 * in temporaries, so everything is evaluated once and in the order written.
 */

import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import { mapChildren, mapMatrixExprs, matrixExprs, someChild } from '../../ir/children.js';
import type { Block, Expr, LetStmt, Stmt, UpdateStmt } from '../../ir/device-code.js';
import type { Span } from '../../ir/span.js';
import { BOOL } from '../resolver/types.js';

/** An expression, and the statements that must run before it. */
interface Hoisted {
  readonly before: readonly Stmt[];
  readonly expr: Expr;
}

/** Reports a conditional that cannot move out of its place (a `for` loop's update). */
export type HoistProblem = (span: Span, message: Message) => void;

/** `block` without `conditional` nodes. `taken`: the IR names of the body's locals and parameters. */
export function lowerConditionals(
  block: Block,
  taken: Iterable<string>,
  report: HoistProblem,
): Block {
  return new Hoister(new Set(taken), report).block(block);
}

class Hoister {
  #next = 1;

  constructor(
    private readonly taken: Set<string>,
    private readonly report: HoistProblem,
  ) {}

  block(block: Block): Block {
    return block.flatMap((s) => this.stmt(s));
  }

  stmt(s: Stmt): Stmt[] {
    switch (s.kind) {
      case 'let': {
        if (!s.init) return [s];
        const init = this.value(s.init);
        return [...init.before, { ...s, init: init.expr }];
      }
      case 'if': {
        const condition = this.value(s.condition);
        const then = this.block(s.then);
        const otherwise = s.else && this.block(s.else);
        return [...condition.before, { ...s, condition: condition.expr, then, else: otherwise }];
      }
      case 'while': {
        const condition = this.value(s.condition);
        const body = this.block(s.body);
        if (condition.before.length === 0) return [{ ...s, condition: condition.expr, body }];
        // The condition's statements run before every test: the test moves into the body.
        return [
          {
            ...s,
            condition: literal(true, s.span),
            body: [...condition.before, exitUnless(condition.expr), ...body],
          },
        ];
      }
      case 'for': {
        const init = s.init && this.header(s.init);
        const condition = s.condition && this.value(s.condition);
        const update = s.update && this.update(s.update);
        const body = this.block(s.body);
        if (update && update.length !== 1) {
          this.report(s.update!.span, msg.conditionalInForUpdate());
        }
        const head = init ? init.slice(0, -1) : [];
        const loop: Stmt = {
          ...s,
          init: (init?.at(-1) as LetStmt | UpdateStmt | undefined) ?? null,
          update: (update?.at(-1) as UpdateStmt | undefined) ?? null,
          condition: condition && condition.before.length === 0 ? condition.expr : null,
          body:
            condition && condition.before.length > 0
              ? [...condition.before, exitUnless(condition.expr), ...body]
              : body,
        };
        return [...head, loop];
      }
      case 'block':
        return [{ ...s, body: this.block(s.body) }];
      case 'return': {
        if (!s.value) return [s];
        const value = this.value(s.value);
        return [...value.before, { ...s, value: value.expr }];
      }
      case 'break':
      case 'continue':
        return [s];
      default:
        return this.update(s);
    }
  }

  /** A `for` header's init: its statements, the last of them the init itself. */
  header(s: LetStmt | UpdateStmt): Stmt[] {
    return s.kind === 'let' ? this.stmt(s) : this.update(s);
  }

  update(s: UpdateStmt): Stmt[] {
    switch (s.kind) {
      case 'assign': {
        const [target, value] = this.sequence([s.target, s.value], [true, false]);
        return [
          ...target!.before,
          ...value!.before,
          { ...s, target: target!.expr, value: value!.expr },
        ];
      }
      case 'increment': {
        const target = this.place(s.target);
        return [...target.before, { ...s, target: target.expr }];
      }
      case 'expr': {
        const e = this.value(s.expr);
        return [...e.before, { ...s, expr: e.expr }];
      }
      case 'call':
      case 'textureStore':
      case 'log': {
        const args = this.sequence(s.args, []);
        return [...args.flatMap((a) => a.before), { ...s, args: args.map((a) => a.expr) }];
      }
      case 'atomicStore': {
        const [pointer, value] = this.sequence([s.pointer, s.value], [true, false]);
        return [
          ...pointer!.before,
          ...value!.before,
          { ...s, pointer: pointer!.expr, value: value!.expr },
        ];
      }
      case 'barrier':
        return [s];
      case 'combine': {
        if (!s.index) {
          const e = this.value(s.value);
          return [...e.before, { ...s, value: e.expr }];
        }
        const [index, value] = this.sequence([s.index, s.value], [false, false]);
        return [
          ...index!.before,
          ...value!.before,
          { ...s, index: index!.expr, value: value!.expr },
        ];
      }
      case 'jointScan': {
        // The arrays are names; only `init` can need statements before it.
        if (!s.init) return [s];
        const init = this.value(s.init);
        return [...init.before, { ...s, init: init.expr }];
      }
      case 'jointMatrix': {
        // A load's or store's memory is a place, never copied into a temporary.
        const parts = this.sequence(matrixExprs(s), [s.fn === 'load' || s.fn === 'store']);
        let i = 0;
        return [...parts.flatMap((p) => p.before), mapMatrixExprs(s, () => parts[i++]!.expr)];
      }
    }
  }

  /** An expression read as a value. */
  value(e: Expr): Hoisted {
    if (e.op === 'conditional') return this.conditional(e);
    if (e.op === 'binary' && (e.operator === '&&' || e.operator === '||')) {
      return this.shortCircuit(e);
    }
    const parts = childRoles(e);
    const children = this.sequence(
      parts.map((p) => p.child),
      parts.map((p) => p.place),
    );
    let i = 0;
    const expr = mapChildren(e, () => children[i++]!.expr);
    return { before: children.flatMap((c) => c.before), expr };
  }

  /** A place written or pointed to: its indices are values, its root stays. */
  place(e: Expr): Hoisted {
    if (e.op === 'index') {
      const [base, index] = this.sequence([e.base, e.index], [true, false]);
      return {
        before: [...base!.before, ...index!.before],
        expr: { ...e, base: base!.expr, index: index!.expr },
      };
    }
    if (e.op === 'member' || e.op === 'swizzle') {
      const base = this.place(e.base);
      return { before: base.before, expr: { ...e, base: base.expr } };
    }
    return this.value(e);
  }

  /**
   * Operands in evaluation order. Where a later one needs statements first, each earlier one
   * that may read memory or has effects is first kept in a temporary (a place keeps its root
   * and has its indices kept instead), so it is still evaluated before them.
   */
  sequence(items: readonly Expr[], places: readonly boolean[]): Hoisted[] {
    const done = items.map((e, i) => (places[i] ? this.place(e) : this.value(e)));
    const last = done.findLastIndex((h) => h.before.length > 0);
    for (let i = 0; i < last; i++) {
      const h = done[i]!;
      done[i] = places[i] ? this.keepIndices(h) : this.keep(h);
    }
    return done;
  }

  /** `h`'s value evaluated now, into a temporary, unless nothing can change it. */
  keep(h: Hoisted): Hoisted {
    if (stable(h.expr)) return h;
    const name = this.fresh('v');
    return {
      before: [...h.before, letOf(name, h.expr, false)],
      expr: { op: 'local', name, type: h.expr.type, span: h.expr.span },
    };
  }

  /** A place whose index values are evaluated now. */
  keepIndices(h: Hoisted): Hoisted {
    const before: Stmt[] = [...h.before];
    const visit = (e: Expr): Expr => {
      if (e.op === 'index') {
        const index = this.keep({ before: [], expr: e.index });
        before.push(...index.before);
        return { ...e, base: visit(e.base), index: index.expr };
      }
      if (e.op === 'member' || e.op === 'swizzle') return { ...e, base: visit(e.base) };
      return e;
    };
    const expr = visit(h.expr);
    return { before, expr };
  }

  conditional(e: Expr & { op: 'conditional' }): Hoisted {
    const condition = this.value(e.condition);
    const whenTrue = this.value(e.whenTrue);
    const whenFalse = this.value(e.whenFalse);
    const name = this.fresh('choice');
    const result: Expr = { op: 'local', name, type: e.type, span: e.span };
    return {
      before: [
        ...condition.before,
        { kind: 'let', name, mutable: true, type: e.type, init: null, span: e.span },
        ifElse(
          condition.expr,
          [...whenTrue.before, assign(result, whenTrue.expr)],
          [...whenFalse.before, assign(result, whenFalse.expr)],
        ),
      ],
      expr: result,
    };
  }

  shortCircuit(e: Expr & { op: 'binary' }): Hoisted {
    const left = this.value(e.left);
    const right = this.value(e.right);
    if (right.before.length === 0) {
      return { before: left.before, expr: { ...e, left: left.expr, right: right.expr } };
    }
    // The right operand's statements run only where JavaScript evaluates it.
    const name = this.fresh(e.operator === '&&' ? 'and' : 'or');
    const result: Expr = { op: 'local', name, type: BOOL, span: e.span };
    const test: Expr =
      e.operator === '&&'
        ? result
        : { op: 'unary', operator: '!', operand: result, type: BOOL, span: e.span };
    return {
      before: [
        ...left.before,
        letOf(name, left.expr, true),
        ifElse(test, [...right.before, assign(result, right.expr)], null),
      ],
      expr: result,
    };
  }

  fresh(stem: string): string {
    for (;;) {
      const name = `${stem}_${this.#next++}`;
      if (!this.taken.has(name)) {
        this.taken.add(name);
        return name;
      }
    }
  }
}

/** How `e` uses each direct sub-expression: as a place (pointer or indexed storage) or a value. */
function childRoles(e: Expr): { child: Expr; place: boolean }[] {
  const roles: { child: Expr; place: boolean }[] = [];
  mapChildren(e, (child) => {
    const place =
      (e.op === 'atomic' && child === e.pointer) ||
      (e.op === 'builtin' && e.name === 'arrayLength') ||
      ((e.op === 'index' || e.op === 'member' || e.op === 'swizzle') &&
        child === e.base &&
        rootIsPlace(child));
    roles.push({ child, place });
    return child;
  });
  return roles;
}

function rootIsPlace(e: Expr): boolean {
  let root = e;
  while (root.op === 'index' || root.op === 'member' || root.op === 'swizzle') root = root.base;
  return (
    root.op === 'param' ||
    root.op === 'deviceGlobal' ||
    root.op === 'workgroupArray' ||
    root.op === 'local'
  );
}

/**
 * Values no hoisted statement can change: hoisted statements assign only their own temporaries
 * and call functions or atomics, which reach device globals and storage, never locals.
 */
function stable(e: Expr): boolean {
  switch (e.op) {
    case 'literal':
    case 'local':
    case 'specConstant':
    case 'item':
    case 'launchSlot':
      return true;
    case 'param':
      return e.type.kind !== 'array' || e.type.length !== 0;
    case 'unary':
    case 'binary':
    case 'select':
    case 'builtin':
    case 'construct':
    case 'member':
    case 'swizzle':
    case 'index':
      return !someChild(e, (c) => !stable(c));
    default:
      return false;
  }
}

function literal(value: boolean, span: Span): Expr {
  return { op: 'literal', value, type: BOOL, span };
}

function exitUnless(condition: Expr): Stmt {
  const span = condition.span;
  const not: Expr = { op: 'unary', operator: '!', operand: condition, type: BOOL, span };
  return ifElse(not, [{ kind: 'break', span }], null);
}

function ifElse(condition: Expr, then: Block, otherwise: Block | null): Stmt {
  return { kind: 'if', condition, then, else: otherwise, span: condition.span };
}

function assign(target: Expr, value: Expr): Stmt {
  return { kind: 'assign', target, operator: '=', value, span: value.span };
}

function letOf(name: string, init: Expr, mutable: boolean): LetStmt {
  return { kind: 'let', name, mutable, type: init.type, init, span: init.span };
}
