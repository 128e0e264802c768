/**
 * WGSL's constant-expression rules, checked on a lowered body: an expression built from
 * literals (and from `const` integer locals with constant values, which the emitter inlines)
 * is evaluated by WGSL when the shader is created, and rejected there if an integer overflows,
 * a float result is NaN or infinite, a divisor is zero, a shift is too wide, a `clamp`'s
 * bounds are crossed or a `pack2x16float` component is outside f16's finite range. This finds
 * those at their source span instead (SYCL1024), with the number model of numbers.ts.
 */
import { type DataType, f16Round } from '@syclts/dsl';
import { IMPLEMENTATIONS } from '../../builtins/evaluate.js';
import { BUILTINS_BY_WGSL } from '../../builtins/overloads.js';
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import { mapChildren, mapStmt, mapUpdateParts, type StmtMapper } from '../../ir/children.js';
import type { Block, Expr } from '../../ir/device-code.js';
import type { Span } from '../../ir/span.js';
import type { Reporter } from '../report.js';
import {
  convertScalar,
  type Folded,
  foldConcrete,
  foldConcreteUnary,
  invalidShift,
  roundTo,
} from '../resolver/numbers.js';
import { isInteger, scalarOf } from '../resolver/types.js';
import { indexableLength } from './access.js';

/** A constant scalar or vector: its components. */
type Value = readonly (number | boolean)[];

export function checkConstants<R>(reporter: Reporter, block: Block<R>): void {
  new ConstantChecker<R>(reporter).block(block);
}

class ConstantChecker<R> {
  /** Innermost scope last: a local's constant value, or null for one that is not constant. */
  private readonly scopes: Map<string, Value | null>[] = [];
  /**
   * Values of nodes the IR shares (a lowering may use one subtree in several places):
   * each is evaluated, and reported, once, and nesting stays linear.
   */
  private readonly shared = new Map<Expr<R>, Value | null>();
  private readonly mapper: StmtMapper<R> = {
    expr: (e) => this.checkExpr(e),
    block: (b) => this.block(b),
    let: (s) => {
      const v = s.init ? this.value(s.init) : null;
      const constant =
        !s.mutable && !s.unrolled && s.type.kind === 'scalar' && isInteger(s.type.scalar);
      this.scopes.at(-1)!.set(s.name, constant ? v : null);
      return s;
    },
    update: (s) => {
      if (s.kind === 'assign' && s.operator !== '=') {
        this.checkExpr(s.target);
        this.operand(s.operator.slice(0, -1), s.target.type, s.value, this.value(s.value));
        return s;
      }
      return mapUpdateParts(s, (e) => this.checkExpr(e));
    },
    scoped: (f) => this.scoped(f),
  };

  constructor(private readonly reporter: Reporter) {}

  block(block: Block<R>): Block<R> {
    return this.scoped(() => {
      for (const s of block) mapStmt(s, this.mapper);
      return block;
    });
  }

  scoped<T>(f: () => T): T {
    this.scopes.push(new Map());
    try {
      return f();
    } finally {
      this.scopes.pop();
    }
  }

  private readonly visit = (e: Expr<R>): Expr<R> => this.checkExpr(e);

  private checkExpr(e: Expr<R>): Expr<R> {
    this.value(e);
    return e;
  }

  /** The value of `e` when it is constant (reporting what WGSL would reject), else null. */
  value(e: Expr<R>): Value | null {
    if (e.op !== 'select' && e.op !== 'builtin') return this.evaluate(e);
    const known = this.shared.get(e);
    if (known !== undefined) return known;
    const v = this.evaluate(e);
    this.shared.set(e, v);
    return v;
  }

  private evaluate(e: Expr<R>): Value | null {
    switch (e.op) {
      case 'literal': {
        // A float literal holds its value rounded to its type, as WGSL reads it.
        const s = scalarOf(e.type);
        if (typeof e.value !== 'number' || (s !== 'f32' && s !== 'f16')) return [e.value];
        return [s === 'f32' ? Math.fround(e.value) : f16Round(e.value)];
      }
      case 'local':
        return this.local(e.name);
      case 'unary': {
        const v = this.value(e.operand);
        const s = scalarOf(e.type);
        return (
          v &&
          s &&
          this.fold(
            e.span,
            v.map((x) => foldConcreteUnary(e.operator, s, x)),
          )
        );
      }
      case 'binary':
        return this.binary(e);
      case 'select': {
        const c = this.value(e.condition);
        const t = this.value(e.whenTrue);
        const f = this.value(e.whenFalse);
        if (!c || !t || !f) return null;
        return t.map((x, i) => ((c.length === 1 ? c[0] : c[i]) ? x : f[i]!));
      }
      case 'construct':
        return this.construct(e);
      case 'builtin':
        return this.builtin(e);
      case 'index':
        this.index(e);
        return null;
      default:
        mapChildren(e, this.visit);
        return null;
    }
  }

  /** A constant index into an array of fixed length, a vector or a matrix is in its bounds. */
  private index(e: Extract<Expr<R>, { op: 'index' }>): void {
    this.checkExpr(e.base);
    const i = this.value(e.index)?.[0];
    const length = indexableLength(e.base.type);
    if (typeof i !== 'number' || !length) return;
    if (i < 0 || i >= length)
      this.reporter.error(e.index.span, msg.indexOutOfBounds(i, e.base.type));
  }

  private local(name: string): Value | null {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i]!.get(name);
      if (v !== undefined) return v;
    }
    return null;
  }

  private binary(e: Expr<R> & { op: 'binary' }): Value | null {
    const l = this.value(e.left);
    const r = this.value(e.right);
    if (!this.operand(e.operator, e.left.type, e.right, r) || !l || !r) return null;
    const s = scalarOf(e.left.type);
    if (!s) return null;
    const n = Math.max(l.length, r.length);
    const results = Array.from({ length: n }, (_, i) =>
      foldConcrete(e.operator, s, l[l.length === 1 ? 0 : i]!, r[r.length === 1 ? 0 : i]!),
    );
    return this.fold(e.span, results);
  }

  /**
   * WGSL rejects an integer division or remainder by a constant zero and a shift by a constant
   * of 32 or more, whatever the left operand. Reports one; whether the operand is valid.
   */
  private operand(op: string, left: DataType, right: Expr<R>, r: Value | null): boolean {
    if (!r) return true;
    const s = scalarOf(left);
    let why: Message | null = null;
    if ((op === '/' || op === '%') && isInteger(s) && r.some((x) => x === 0)) {
      why = msg.constantZeroDivisor(op);
    } else if (op === '<<' || op === '>>' || op === '>>>') {
      const wide = r.find((x) => typeof x === 'number' && invalidShift(x) !== null);
      if (wide !== undefined) why = msg.constantShift(Number(wide));
    }
    if (why) this.reporter.error(right.span, why);
    return why === null;
  }

  private construct(e: Expr<R> & { op: 'construct' }): Value | null {
    const values = e.args.map((a) => this.value(a));
    const to = scalarOf(e.type);
    if (e.type.kind !== 'scalar' && e.type.kind !== 'vector') return null;
    if (!to || values.some((v) => v === null)) return null;
    const components = values.flatMap((v, i) =>
      v!.map((x) => ({ x, from: scalarOf(e.args[i]!.type)! })),
    );
    // One scalar splats across a vector.
    const size = e.type.kind === 'vector' ? e.type.size : 1;
    const all =
      components.length === 1 ? Array.from({ length: size }, () => components[0]!) : components;
    return this.fold(
      e.span,
      all.map(({ x, from }) => convertScalar(to, from, x)),
    );
  }

  private builtin(e: Expr<R> & { op: 'builtin' }): Value | null {
    const args = e.args.map((a) => this.value(a));
    const b = BUILTINS_BY_WGSL.get(e.name);
    const impl = b && IMPLEMENTATIONS[b.name];
    if (!b?.entry.fold || !impl) return null;
    const from = e.args[0] && scalarOf(e.args[0].type);
    if (!from) return null;
    const why = impl.constRule?.(args, from);
    if (why) {
      this.reporter.error(e.span, msg.constantBuiltinRule(why));
      return null;
    }
    const s = scalarOf(e.type);
    if (!s || args.some((a) => a === null)) return null;
    if ('whole' in impl) {
      // Packing and unpacking: vectors as arrays, the result rounded by the implementation.
      const values = args.map((a, i) => (e.args[i]!.type.kind === 'vector' ? [...a!] : a![0]!));
      const r = impl.whole(
        values,
        e.args.map((a) => a.type),
        e.type,
      );
      const xs = (Array.isArray(r) ? r : [r]) as (number | boolean)[];
      return this.fold(
        e.span,
        xs.map((x) => convertScalar(s, s, x)),
      );
    }
    const size = Math.max(...args.map((a) => a!.length));
    const results = Array.from({ length: size }, (_, i) => {
      const xs = args.map((a) => Number(a![a!.length === 1 ? 0 : i]));
      const r = impl.each(xs, from);
      if (s === 'f32' || s === 'f16') return roundTo(s, r);
      // WGSL's integer built-ins wrap (abs of the most negative i32 is itself).
      return s === 'i32' || s === 'u32' ? convertScalar(s, s, r) : null;
    });
    if (results.some((r) => r === null)) return null;
    return this.fold(e.span, results as Folded<number | boolean>[]);
  }

  /** The folded components, or null after reporting the first that WGSL rejects. */
  private fold(span: Span, results: readonly Folded<number | boolean>[]): Value | null {
    const failed = results.find((r) => !r.ok);
    if (failed && !failed.ok) {
      this.reporter.error(span, msg.invalidConstant(failed.why));
      return null;
    }
    return results.map((r) => (r.ok ? r.value : 0));
  }
}
