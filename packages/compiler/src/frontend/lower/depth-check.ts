/**
 * WGSL compilers bound how deeply code may nest, and refuse a shader past those bounds when it
 * is created. Tint's parser allows 128 levels of `{`, `(`, `[`, unary operators and statements;
 * its resolver 127 nested statements and 512 nested expressions. This measures, on a lowered
 * body, the nesting the printer will give each statement and expression (the parentheses it
 * adds around operator operands and comparisons, calls, index brackets, blocks, an entry
 * point's own braces) and reports the first place past limits set below those bounds (the
 * printer and the emitter's transforms add a few levels a body does not show), at its source
 * span (SYCL1010). Each node is measured once: the check is linear in the size of the body.
 */
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import { matrixExprs } from '../../ir/children.js';
import type { Block, Expr, LetStmt, Stmt, UpdateStmt } from '../../ir/device-code.js';
import type { Span } from '../../ir/span.js';
import type { Reporter } from '../report.js';

/** Brackets, unary operators and statements, as a WGSL parser counts them (Tint: 128). */
export const MAX_WGSL_PARSE_DEPTH = 100;
/** Statements nested in statements, blocks included (Tint: 127). */
export const MAX_WGSL_STATEMENT_DEPTH = 100;
/** Expressions nested in expressions (Tint: 512). */
export const MAX_WGSL_EXPRESSION_DEPTH = 400;

const COMPARISONS: ReadonlySet<string> = new Set(['<', '>', '<=', '>=']);

/** How deeply an expression's printed text nests, below where it starts. */
interface Depth {
  /** Parse levels inside the expression's own text. */
  readonly parse: number;
  /** Expression nodes from this one to its deepest leaf, itself included. */
  readonly expression: number;
}

/** The depth of a leaf other than a local, by the levels the printer adds to it (`#leaf`). */
const LEAF_DEPTHS: readonly Depth[] = [0, 1, 2].map((parse) => ({ parse, expression: 1 }));

/** A sub-expression, and the parse levels its parent's text puts around it. */
type Part<R> = readonly [Expr<R>, number];

export function checkNesting<R>(reporter: Reporter, block: Block<R>): void {
  new NestingChecker<R>(reporter).body(block);
}

class NestingChecker<R> {
  readonly #depths = new Map<Expr<R>, Depth>();
  /**
   * The depth of each immutable integer local's initializer, innermost declaration last: the
   * emitter may put the initializer in place of each use (pipeline-constant inlining).
   */
  readonly #inlined = new Map<string, Depth[]>();
  #reported = false;

  constructor(private readonly reporter: Reporter) {}

  body(block: Block<R>): void {
    // A function's braces are the first parse level, its body the first statement level.
    this.#block(block, 1, 1);
  }

  /** `parse`: levels around the block's statements; `statements`: the block's own level. */
  #block(block: Block<R>, parse: number, statements: number): void {
    const declared: string[] = [];
    for (const s of block) {
      if (this.#reported) break;
      this.#stmt(s, parse, statements + 1, declared);
    }
    for (const name of declared) this.#inlined.get(name)!.pop();
  }

  #stmt(s: Stmt<R>, parse: number, level: number, declared: string[]): void {
    if (level > MAX_WGSL_STATEMENT_DEPTH) {
      this.#report(s.span, msg.statementTooDeep(MAX_WGSL_STATEMENT_DEPTH));
      return;
    }
    // A bare block is its own scope and statement; every other statement is a parse level.
    if (s.kind === 'block') {
      this.#block(s.body, parse + 1, level);
      return;
    }
    const inside = parse + 1;
    if (inside > MAX_WGSL_PARSE_DEPTH) {
      this.#parseOverflow(s.span);
      return;
    }
    switch (s.kind) {
      case 'let':
        this.#let(s, inside, declared);
        return;
      case 'if':
        // `if (condition) {`: the condition's parentheses, then the blocks' braces.
        if (!this.#expr(s.condition, inside + 1)) return;
        this.#block(s.then, inside + 1, level + 1);
        if (s.else && !this.#reported) this.#block(s.else, inside + 1, level + 1);
        return;
      case 'for': {
        // The header's variable is visible in the loop only.
        const header: string[] = [];
        if (s.init && !this.#header(s.init, inside + 1, header)) return;
        if (s.condition && !this.#expr(s.condition, inside + 1)) return;
        if (s.update && !this.#update(s.update, inside + 1)) return;
        this.#block(s.body, inside + 1, level + 1);
        for (const name of header) this.#inlined.get(name)!.pop();
        return;
      }
      case 'while':
        if (!this.#expr(s.condition, inside + 1)) return;
        this.#block(s.body, inside + 1, level + 1);
        return;
      case 'return':
        if (s.value) this.#expr(s.value, inside);
        return;
      case 'break':
      case 'continue':
        return;
      default:
        this.#update(s, inside);
    }
  }

  #header(s: LetStmt<R> | UpdateStmt<R>, parse: number, declared: string[]): boolean {
    return s.kind === 'let' ? this.#let(s, parse, declared) : this.#update(s, parse);
  }

  #let(s: LetStmt<R>, parse: number, declared: string[]): boolean {
    if (s.init && !this.#expr(s.init, parse)) return false;
    const integer =
      s.type.kind === 'scalar' && (s.type.scalar === 'i32' || s.type.scalar === 'u32');
    // A local that is not inlined is a name: it hides an outer one that is.
    const depth: Depth =
      !s.mutable && !s.unrolled && integer && s.init
        ? this.#operandDepth(s.init)
        : { parse: 0, expression: 1 };
    const stack = this.#inlined.get(s.name);
    if (stack) stack.push(depth);
    else this.#inlined.set(s.name, [depth]);
    declared.push(s.name);
    return true;
  }

  #update(s: UpdateStmt<R>, parse: number): boolean {
    switch (s.kind) {
      case 'assign':
        return this.#expr(s.target, parse) && this.#expr(s.value, parse);
      case 'increment':
        return this.#expr(s.target, parse);
      case 'expr':
        return this.#expr(s.expr, parse);
      case 'call':
      case 'textureStore':
      case 'log':
        return s.args.every((a) => this.#expr(a, parse + 1));
      case 'atomicStore':
        // `atomicStore(&pointer, value)`
        return this.#expr(s.pointer, parse + 2) && this.#expr(s.value, parse + 1);
      case 'barrier':
        return true;
      // `acc = op(acc, value)`
      case 'combine':
        return (
          (s.index === null || this.#expr(s.index, parse + 1)) && this.#expr(s.value, parse + 1)
        );
      case 'jointScan':
        // The helper's call: `f(init, ...)`, bool through `select(0u, 1u, init)`.
        return s.init === null || this.#expr(s.init, parse + 3);
      // `m = helper(value, ...)`, the value as `T(value)`.
      case 'jointMatrix':
        return matrixExprs(s).every((e) => this.#expr(e, parse + 2));
    }
  }

  /** Checks `e`, printed `parse` levels deep; false once reported. */
  #expr(e: Expr<R>, parse: number): boolean {
    const d = this.#depth(e);
    if (parse + d.parse > MAX_WGSL_PARSE_DEPTH) {
      const at = this.#first(e, parse, MAX_WGSL_PARSE_DEPTH, (x) => this.#depth(x).parse, parts);
      this.#parseOverflow(at.span);
      return false;
    }
    if (d.expression > MAX_WGSL_EXPRESSION_DEPTH) {
      const at = this.#first(
        e,
        1,
        MAX_WGSL_EXPRESSION_DEPTH,
        (x) => this.#depth(x).expression - 1,
        (x) => parts(x).map(([c]) => [c, 1] as const),
      );
      this.#report(at.span, msg.expressionTooDeep(MAX_WGSL_EXPRESSION_DEPTH));
      return false;
    }
    return true;
  }

  /**
   * The outermost node of `e` that starts past the limit, `e` starting at `start`: the walk
   * follows the deepest part, so it visits one path.
   */
  #first(
    e: Expr<R>,
    start: number,
    limit: number,
    below: (x: Expr<R>) => number,
    partsOf: (x: Expr<R>) => readonly Part<R>[],
  ): Expr<R> {
    let node = e;
    let at = start;
    for (;;) {
      let next: Part<R> | null = null;
      for (const p of partsOf(node)) {
        if (at + p[1] + below(p[0]) > limit) {
          next = p;
          break;
        }
      }
      if (!next) return node;
      at += next[1];
      node = next[0];
      if (at > limit) return node;
    }
  }

  /** The depth of `e` as an operand: with the parentheses the printer puts around operators. */
  #operandDepth(e: Expr<R>): Depth {
    const d = this.#depth(e);
    return { parse: d.parse + wrapped(e), expression: d.expression };
  }

  #depth(e: Expr<R>): Depth {
    // A leaf other than a local is as deep as its kind: no entry in #depths.
    switch (e.op) {
      case 'literal':
      case 'workgroupArray':
      case 'launchSlot':
        return LEAF_DEPTHS[0]!;
      case 'param':
      case 'specConstant':
      case 'deviceGlobal':
        return LEAF_DEPTHS[1]!;
      case 'item':
        return LEAF_DEPTHS[2]!;
    }
    const known = this.#depths.get(e);
    if (known) return known;
    // The parts of `e` as `parts` lists them, in its order, without building the list.
    let parse = this.#leaf(e);
    let expression = 0;
    switch (e.op) {
      case 'unary': {
        const d = this.#depth(e.operand);
        parse = Math.max(parse, 1 + wrapped(e.operand) + d.parse);
        expression = d.expression;
        break;
      }
      case 'binary': {
        const own = COMPARISONS.has(e.operator) ? 1 : 0;
        const left = this.#depth(e.left);
        const right = this.#depth(e.right);
        parse = Math.max(
          parse,
          own + wrapped(e.left) + left.parse,
          own + wrapped(e.right) + right.parse,
        );
        expression = Math.max(left.expression, right.expression);
        break;
      }
      case 'select':
      case 'conditional': {
        const whenFalse = this.#depth(e.whenFalse);
        const whenTrue = this.#depth(e.whenTrue);
        const condition = this.#depth(e.condition);
        parse = Math.max(parse, 1 + whenFalse.parse, 1 + whenTrue.parse, 1 + condition.parse);
        expression = Math.max(whenFalse.expression, whenTrue.expression, condition.expression);
        break;
      }
      case 'call':
      case 'builtin':
      case 'construct':
      case 'group':
      case 'texture': {
        const around = e.op === 'builtin' && e.name === 'arrayLength' ? 2 : 1;
        for (const a of e.args) {
          const d = this.#depth(a);
          parse = Math.max(parse, around + d.parse);
          expression = Math.max(expression, d.expression);
        }
        break;
      }
      case 'index': {
        const base = this.#depth(e.base);
        const index = this.#depth(e.index);
        parse = Math.max(parse, wrapped(e.base) + base.parse, 1 + index.parse);
        expression = Math.max(base.expression, index.expression);
        break;
      }
      case 'member':
      case 'swizzle': {
        const base = this.#depth(e.base);
        parse = Math.max(parse, wrapped(e.base) + base.parse);
        expression = base.expression;
        break;
      }
      case 'atomic': {
        const pointer = this.#depth(e.pointer);
        parse = Math.max(parse, 2 + pointer.parse);
        expression = pointer.expression;
        for (const a of e.args) {
          const d = this.#depth(a);
          parse = Math.max(parse, 1 + d.parse);
          expression = Math.max(expression, d.expression);
        }
        break;
      }
      case 'fromHost': {
        const place = this.#depth(e.place);
        parse = Math.max(parse, 2 + place.parse);
        expression = place.expression;
        break;
      }
      case 'toHost': {
        const value = this.#depth(e.value);
        parse = Math.max(parse, 1 + value.parse);
        expression = value.expression;
        break;
      }
      case 'local': {
        const inlined = this.#inlined.get(e.name)?.at(-1);
        if (inlined) {
          parse = Math.max(parse, inlined.parse);
          expression = Math.max(expression, inlined.expression - 1);
        }
        break;
      }
    }
    const depth = { parse, expression: expression + 1 };
    this.#depths.set(e, depth);
    return depth;
  }

  /** Levels the printer adds to a node that has no parts. */
  #leaf(e: Expr<R>): number {
    switch (e.op) {
      // A launch argument or an emulated constant is an element of its buffer: `launch[slot].n`.
      case 'param':
      case 'specConstant':
      case 'deviceGlobal':
        return 1;
      // A conversion to the IR's type around a sum of launch fields.
      case 'item':
        return 2;
      // `f()`, `vec3f()`
      case 'call':
      case 'builtin':
      case 'construct':
      case 'texture':
        return 1;
      // A helper's call, its argument converted from bool: `f(select(0u, 1u, x), ...) != 0u`.
      case 'group':
        return 3;
      default:
        return 0;
    }
  }

  #parseOverflow(span: Span): void {
    this.#report(span, msg.wgslTooDeep(MAX_WGSL_PARSE_DEPTH));
  }

  #report(span: Span, message: Message): void {
    this.#reported = true;
    this.reporter.error(span, message);
  }
}

/** 1 where the printer puts parentheses around `e` as an operand or an access's base. */
function wrapped<R>(e: Expr<R>): number {
  if (e.op === 'binary' || e.op === 'unary') return 1;
  return e.op === 'literal' && typeof e.value === 'number' && e.value < 0 ? 1 : 0;
}

/** The direct sub-expressions of `e`, each with the parse levels printed around it. */
function parts<R>(e: Expr<R>): readonly Part<R>[] {
  switch (e.op) {
    case 'unary':
      // The operator is a level; an operand that is an operator is parenthesized.
      return [[e.operand, 1 + wrapped(e.operand)]];
    case 'binary': {
      // `f(a < b)` would read as a template list: comparisons carry their own parentheses.
      const own = COMPARISONS.has(e.operator) ? 1 : 0;
      return [
        [e.left, own + wrapped(e.left)],
        [e.right, own + wrapped(e.right)],
      ];
    }
    case 'select':
    case 'conditional':
      return [
        [e.whenFalse, 1],
        [e.whenTrue, 1],
        [e.condition, 1],
      ];
    case 'texture':
      return e.args.map((a): Part<R> => [a, 1]);
    case 'call':
    case 'builtin':
    case 'construct':
      // `arrayLength(&a)`: the address-of is a unary operator.
      return e.args.map((a) => [a, e.op === 'builtin' && e.name === 'arrayLength' ? 2 : 1]);
    case 'group':
      return e.args.map((a): Part<R> => [a, 3]);
    case 'index':
      return [
        [e.base, wrapped(e.base)],
        [e.index, 1],
      ];
    case 'member':
    case 'swizzle':
      return [[e.base, wrapped(e.base)]];
    case 'atomic':
      return [[e.pointer, 2], ...e.args.map((a): Part<R> => [a, 1])];
    // Host-storage conversions: `(x != 0u)`, `select(0u, 1u, x)`.
    case 'fromHost':
      return [[e.place, 2]];
    case 'toHost':
      return [[e.value, 1]];
    default:
      return [];
  }
}
