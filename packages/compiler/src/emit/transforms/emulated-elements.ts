/**
 * In the emulated variant, a `let` holding a whole array specialization constant
 * (`const c = kh.getSpecializationConstant(coeffs)`) is a copy of the array rebuilt from the
 * emulation record by every invocation, then indexed. Each `c[i]` becomes an element read of the
 * constant itself (the printer reads it from the record at its offset), and the `let` goes once
 * nothing else reads it: a hand-written kernel reads `params.weights[i]` from its uniform the
 * same way.
 */

import type { DataType } from '@syclts/dsl';
import { mapAll, mapChildren, mapStmt } from '../../ir/children.js';
import type { Block, Expr, LetStmt } from '../../ir/device-code.js';
import { LexicalScopes, scopedMapper } from '../../ir/lexical-scopes.js';

/**
 * `block` with the index reads of array-constant `let`s reading the constant. `inWords`: the
 * record is held as 16-byte words, where only elements of 32-bit scalars are read in place.
 */
export function emulatedElements<R>(block: Block<R>, inWords: boolean): Block<R> {
  return new Elements<R>(inWords).block(block);
}

/** Whether the elements of array `type` are read from a record in place. */
export function elementsInPlace(type: DataType, inWords: boolean): boolean {
  if (type.kind !== 'array') return false;
  const { element } = type;
  return !inWords || (element.kind === 'scalar' && WORD_SCALARS.has(element.scalar));
}

const WORD_SCALARS: ReadonlySet<string> = new Set(['f32', 'i32', 'u32']);

/** A `let` holding an array constant: its initializer, and the uses that are not index reads. */
interface Held<R> {
  readonly let: LetStmt<R>;
  readonly init: Expr<R>;
  otherUses: number;
}

class Elements<R> {
  /** Each local's held constant, or null for any other local. */
  readonly #scopes = new LexicalScopes<Held<R> | null>();
  readonly #mapper = scopedMapper<R, Held<R> | null>(
    this.#scopes,
    (e) => this.expr(e),
    (b) => this.block(b),
    (s, init) =>
      !s.mutable && init?.op === 'specConstant' && elementsInPlace(init.type, this.inWords)
        ? { let: s, init, otherUses: 0 }
        : null,
  );

  constructor(private readonly inWords: boolean) {}

  block(block: Block<R>): Block<R> {
    return this.#scopes.within(() => {
      const mapped = mapAll(block, (s) => mapStmt(s, this.#mapper));
      const unused = new Set<unknown>();
      for (const held of this.#scopes.innermost()) {
        if (held && held.otherUses === 0) unused.add(held.let);
      }
      return unused.size === 0 ? mapped : mapped.filter((s) => !unused.has(s));
    });
  }

  expr(e: Expr<R>): Expr<R> {
    if (e.op === 'index' && e.base.op === 'local') {
      const held = this.#scopes.lookup(e.base.name);
      if (held) return { ...e, base: held.init, index: this.expr(e.index) };
    }
    if (e.op === 'local') {
      const held = this.#scopes.lookup(e.name);
      if (held) held.otherUses++;
      return e;
    }
    return mapChildren(e, (c) => this.expr(c));
  }
}
