import { mapUpdateParts, type StmtMapper } from './children.js';
import type { Block, Expr, LetStmt } from './device-code.js';

/**
 * What a transform knows of the locals in scope: a value per `let` name in nested lexical scopes,
 * innermost last, so that a name finds its nearest declaration (a shadowing one included). A
 * scope's map is made at its first binding: most blocks declare nothing.
 */
export class LexicalScopes<T> {
  readonly #stack: (Map<string, T> | null)[] = [];

  /** Runs `f` in a scope of its own. */
  within<U>(f: () => U): U {
    this.#stack.push(null);
    try {
      return f();
    } finally {
      this.#stack.pop();
    }
  }

  /** Binds `name` in the innermost scope. */
  bind(name: string, value: T): void {
    const at = this.#stack.length - 1;
    let scope = this.#stack[at];
    if (!scope) {
      scope = new Map();
      this.#stack[at] = scope;
    }
    scope.set(name, value);
  }

  /** The value of the nearest `name`, or undefined where none is in scope. */
  lookup(name: string): T | undefined {
    for (let i = this.#stack.length - 1; i >= 0; i--) {
      const value = this.#stack[i]?.get(name);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /** The values bound in the innermost scope. */
  innermost(): Iterable<T> {
    return this.#stack[this.#stack.length - 1]?.values() ?? [];
  }
}

/**
 * A `StmtMapper` over `scopes`: each `let`'s initializer mapped by `expr`, then its name bound to
 * what `bind` makes of the statement and the mapped initializer; nested blocks (through `block`)
 * and `for` headers in scopes of their own.
 */
export function scopedMapper<R, T>(
  scopes: LexicalScopes<T>,
  expr: (e: Expr<R>) => Expr<R>,
  block: (b: Block<R>) => Block<R>,
  bind: (s: LetStmt<R>, init: Expr<R> | null) => T,
): StmtMapper<R> {
  return {
    expr,
    block,
    let: (s) => {
      const init = s.init && expr(s.init);
      scopes.bind(s.name, bind(s, init));
      return init === s.init ? s : { ...s, init };
    },
    update: (s) => mapUpdateParts(s, expr),
    scoped: (f) => scopes.within(f),
  };
}
