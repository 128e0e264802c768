/**
 * Integer `let`s whose values are fixed when the pipeline is created (literals and, in the
 * native variant, scalar specialization constants, combined by arithmetic that cannot fail
 * there) are replaced at each use by their initializer. Dawn's Tint guards every loop whose
 * bound is a function-scope `let` against running forever (a 64-bit counter each iteration,
 * and no unrolling by the driver); an override-expression bound gets no guard once the
 * pipeline's constants are substituted, as a literal would. The `let` itself stays.
 */
import { mapAll, mapChildren, mapStmt } from '../../ir/children.js';
import type { Block, Expr } from '../../ir/device-code.js';
import { LexicalScopes, scopedMapper } from '../../ir/lexical-scopes.js';

/**
 * `native`: scalar specialization constants are overrides, themselves fixed at pipeline creation;
 * so are the value arguments `foldedArgs` names (read from overrides in the folded entry point).
 */
export function inlinePipelineConstants<R>(
  block: Block<R>,
  native: boolean,
  foldedArgs: ReadonlySet<string> = new Set(),
): Block<R> {
  return new Inliner<R>(native, foldedArgs).block(block);
}

const WRAPPING = new Set(['+', '-', '*', '&', '|', '^']);

class Inliner<R> {
  /** A local's inlined value, or null for one that is not fixed (or shadows one). */
  readonly #scopes = new LexicalScopes<Expr<R> | null>();
  readonly #mapper = scopedMapper<R, Expr<R> | null>(
    this.#scopes,
    (e) => this.expr(e),
    (b) => this.block(b),
    (s, init) => (!s.mutable && !s.unrolled && init !== null && this.fixed(init) ? init : null),
  );

  constructor(
    private readonly native: boolean,
    private readonly foldedArgs: ReadonlySet<string>,
  ) {}

  block(block: Block<R>): Block<R> {
    return this.#scopes.within(() => mapAll(block, (s) => mapStmt(s, this.#mapper)));
  }

  expr(e: Expr<R>): Expr<R> {
    if (e.op === 'local') return this.#scopes.lookup(e.name) ?? e;
    return mapChildren(e, (c) => this.expr(c));
  }

  /**
   * Whether `e` (its fixed locals already inlined) is an integer fixed at pipeline creation
   * whose evaluation cannot fail there.
   */
  fixed(e: Expr<R>): boolean {
    if (e.type.kind !== 'scalar' || (e.type.scalar !== 'i32' && e.type.scalar !== 'u32')) {
      return false;
    }
    switch (e.op) {
      case 'literal':
        return true;
      case 'specConstant':
        return this.native;
      case 'param':
        return this.foldedArgs.has(e.name);
      case 'unary':
        return (e.operator === '-' || e.operator === '~') && this.fixed(e.operand);
      case 'binary':
        if (!this.fixed(e.left) || !this.fixed(e.right)) return false;
        // Integer + - * wrap in override-expressions as they do at run time; a zero divisor or
        // an over-wide shift would fail pipeline creation instead: only positive literal
        // divisors and literal shift counts (the front end checks their range).
        if (['/', '%', '<<', '>>'].includes(e.operator)) {
          return e.right.op === 'literal' && (e.operator.length === 2 || Number(e.right.value) > 0);
        }
        return WRAPPING.has(e.operator);
      case 'construct':
        return e.args.length === 1 && this.fixed(e.args[0]!);
      default:
        return false;
    }
  }
}
