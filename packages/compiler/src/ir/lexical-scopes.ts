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
