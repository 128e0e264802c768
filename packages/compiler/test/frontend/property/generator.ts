/**
 * Random well-typed device code for the property test: expression trees over i32, u32, f32,
 * bool and vectors of the numeric scalars, wrapped in small statement sequences (let, if/else,
 * for, while with break/continue, compound assignment, ++). Each case is printed as TypeScript
 * device code and evaluated here with WGSL semantics: i32/u32 wrap around, integer division
 * and remainder by zero give e1 / 0 (and the i32 overflow case e1 / 0), shift amounts are
 * masked to 5 bits, float operations round to f32 after every step.
 */

export type Scalar = 'i32' | 'u32' | 'f32' | 'bool';
export type Type = { readonly s: Scalar; readonly n: 1 | 2 | 3 | 4 };
export type Value = readonly number[];

/** Evaluation result with the largest magnitude seen, which bounds float rounding differences. */
interface Eval {
  readonly v: Value;
  readonly mag: number;
}

export interface Env {
  readonly vars: ReadonlyMap<string, Value>;
}

export interface Expr {
  readonly type: Type;
  readonly text: string;
  /** True when the text is a bare literal (abstract in WGSL terms). */
  readonly literal: boolean;
  eval(env: Env): Eval;
}

const fr = Math.fround;
const wrapI = (x: number) => x | 0;
const wrapU = (x: number) => x >>> 0;
const INT_MIN = -(2 ** 31);

export const T = (s: Scalar, n: 1 | 2 | 3 | 4 = 1): Type => ({ s, n });
const same = (a: Type, b: Type) => a.s === b.s && a.n === b.n;
const vecName = (t: Type) =>
  `vec${t.n}${t.s === 'f32' ? 'f' : t.s === 'i32' ? 'i' : t.s === 'u32' ? 'u' : 'b'}`;

function norm(s: Scalar, x: number): number {
  if (s === 'i32') return wrapI(x);
  if (s === 'u32') return wrapU(x);
  if (s === 'f32') return fr(x);
  return x ? 1 : 0;
}

function idiv(s: Scalar, a: number, b: number): number {
  if (b === 0) return a;
  if (s === 'i32' && a === INT_MIN && b === -1) return a;
  return norm(s, Math.trunc(a / b));
}
function irem(s: Scalar, a: number, b: number): number {
  if (b === 0) return 0;
  if (s === 'i32' && a === INT_MIN && b === -1) return 0;
  return norm(s, a % b);
}

function arith(op: string, s: Scalar, a: number, b: number): number {
  switch (op) {
    case '+':
      return norm(s, a + b);
    case '-':
      return norm(s, a - b);
    case '*':
      return s === 'f32' ? fr(a * b) : norm(s, Math.imul(a, b));
    case '/':
      return s === 'f32' ? fr(a / b) : idiv(s, a, b);
    case '%':
      return irem(s, a, b);
    case '&':
      return norm(s, a & b);
    case '|':
      return norm(s, a | b);
    case '^':
      return norm(s, a ^ b);
    case '<<':
      return norm(s, a << (b & 31));
    case '>>':
      return s === 'u32' ? wrapU(a >>> (b & 31)) : a >> (b & 31);
    default:
      throw new Error(op);
  }
}

function compare(op: string, a: number, b: number): number {
  switch (op) {
    case '<':
      return +(a < b);
    case '<=':
      return +(a <= b);
    case '>':
      return +(a > b);
    case '>=':
      return +(a >= b);
    case '===':
      return +(a === b);
    default:
      return +(a !== b);
  }
}

const magOf = (v: Value) => v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/** A small deterministic random source, seeded by fast-check. */
export class Rand {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    this.s ^= this.s << 13;
    this.s ^= this.s >>> 17;
    this.s ^= this.s << 5;
    return (this.s >>> 0) / 2 ** 32;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<X>(xs: readonly X[]): X {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export class Generator {
  /** Variables in scope, by name, with their types. */
  private readonly scope = new Map<string, Type>();

  constructor(
    private readonly r: Rand,
    inputs: ReadonlyMap<string, Type>,
  ) {
    for (const [k, t] of inputs) this.scope.set(k, t);
  }

  withVar<X>(name: string, type: Type, fn: () => X): X {
    this.scope.set(name, type);
    try {
      return fn();
    } finally {
      this.scope.delete(name);
    }
  }

  private varOf(type: Type): Expr | null {
    const names = [...this.scope].filter(([, t]) => same(t, type)).map(([n]) => n);
    if (names.length === 0) return null;
    const name = this.r.pick(names);
    return {
      type,
      text: name,
      literal: false,
      eval: (env) => ({ v: env.vars.get(name)!, mag: magOf(env.vars.get(name)!) }),
    };
  }

  private literal(s: Scalar): Expr {
    const r = this.r;
    const value =
      s === 'i32'
        ? r.pick([0, 1, 2, 3, 7, -1, -5, 100, -2147483648, 2147483647, 65535])
        : s === 'u32'
          ? r.pick([0, 1, 2, 3, 31, 255, 4294967295, 2147483648, 12345])
          : s === 'f32'
            ? r.pick([0.5, 1, 2, -1.5, 0.25, 3, -4, 10])
            : r.pick([0, 1]);
    const text = s === 'bool' ? (value ? 'true' : 'false') : String(value);
    return { type: T(s), text, literal: true, eval: () => ({ v: [value], mag: Math.abs(value) }) };
  }

  /** A typed literal that is never abstract (safe anywhere). */
  private typedLiteral(s: Scalar): Expr {
    const lit = this.literal(s);
    if (s === 'bool') return lit;
    return { ...lit, text: `${s}(${lit.text})`, literal: false };
  }

  expr(type: Type, depth: number): Expr {
    if (depth <= 0 || this.r.chance(0.15)) {
      return (
        this.varOf(type) ?? (type.n === 1 ? this.typedLiteral(type.s) : this.construct(type, 0))
      );
    }
    if (type.n > 1) return this.vectorExpr(type, depth);
    switch (type.s) {
      case 'bool':
        return this.boolExpr(depth);
      case 'f32':
        return this.floatExpr(depth);
      default:
        return this.intExpr(type.s, depth);
    }
  }

  /** `e` or a bare literal for the right-hand side of a binary operator (context types it). */
  private operand(type: Type, depth: number): Expr {
    return type.n === 1 && this.r.chance(0.3) ? this.literal(type.s) : this.expr(type, depth);
  }

  private binary(
    op: string,
    a: Expr,
    b: Expr,
    type: Type,
    f: (x: number, y: number) => number,
    text?: string,
  ): Expr {
    return {
      type,
      text: text ?? `(${a.text} ${op} ${b.text})`,
      literal: false,
      eval: (env) => {
        const x = a.eval(env);
        const y = b.eval(env);
        const n = type.n;
        const v = Array.from({ length: n }, (_, i) =>
          f(x.v[a.type.n === 1 ? 0 : i]!, y.v[b.type.n === 1 ? 0 : i]!),
        );
        return { v, mag: Math.max(x.mag, y.mag, magOf(v)) };
      },
    };
  }

  private call(fnText: string, args: Expr[], type: Type, f: (xs: number[]) => number): Expr {
    return {
      type,
      text: `${fnText}(${args.map((a) => a.text).join(', ')})`,
      literal: false,
      eval: (env) => {
        const xs = args.map((a) => a.eval(env));
        const v = Array.from({ length: type.n }, (_, i) =>
          f(xs.map((x, j) => x.v[args[j]!.type.n === 1 ? 0 : i]!)),
        );
        return { v, mag: Math.max(...xs.map((x) => x.mag), magOf(v)) };
      },
    };
  }

  private intExpr(s: 'i32' | 'u32', depth: number): Expr {
    const t = T(s);
    const r = this.r;
    const kind = r.int(9);
    if (kind <= 2) {
      const op = r.pick(['+', '-', '*', '/', '%', '&', '|', '^']);
      // A constant zero divisor is a WGSL shader-creation error, so literals there are non-zero.
      let b = this.operand(t, depth - 1);
      while ((op === '/' || op === '%') && b.literal && b.text === '0')
        b = this.operand(t, depth - 1);
      return this.binary(op, this.expr(t, depth - 1), b, t, (x, y) => arith(op, s, x, y));
    }
    if (kind === 3) {
      const op = r.pick(['<<', '>>']);
      const a = this.expr(t, depth - 1);
      if (r.chance(0.5)) {
        const k = r.int(32);
        const jsOp = op === '>>' && s === 'u32' && r.chance(0.5) ? '>>>' : op;
        return this.binary(
          op,
          a,
          this.literal('u32'),
          t,
          (x) => arith(op, s, x, k),
          `(${a.text} ${jsOp} ${k})`,
        );
      }
      const b = this.expr(T('u32'), depth - 1);
      return this.binary(
        op,
        a,
        b,
        t,
        (x, y) => arith(op, s, x, y),
        `(${a.text} ${op} (${b.text} & 31))`,
      );
    }
    if (kind === 4) {
      const a = this.expr(t, depth - 1);
      if (s === 'i32' && r.chance(0.5))
        return { ...this.call('', [a], t, ([x]) => wrapI(-x!)), text: `(-${a.text})` };
      return { ...this.call('', [a], t, ([x]) => norm(s, ~x!)), text: `(~${a.text})` };
    }
    if (kind === 5) {
      const fn = r.pick(['Math.min', 'Math.max', 'Math.abs']);
      if (fn === 'Math.abs') {
        return this.call(fn, [this.expr(t, depth - 1)], t, ([x]) =>
          s === 'u32' ? x! : wrapI(Math.abs(x!)),
        );
      }
      const a = this.expr(t, depth - 1);
      const b = this.operand(t, depth - 1);
      return this.call(fn, [a, b], t, ([x, y]) =>
        fn === 'Math.min' ? Math.min(x!, y!) : Math.max(x!, y!),
      );
    }
    if (kind === 6) {
      const from = r.pick<Scalar>(s === 'i32' ? ['u32', 'f32', 'bool'] : ['i32', 'f32', 'bool']);
      const a = this.expr(T(from), depth - 1);
      return this.call(s, [a], t, ([x]) => {
        if (from === 'f32') {
          // WGSL clamps to the largest f32 values inside the integer range.
          const lo = s === 'i32' ? INT_MIN : 0;
          const hi = s === 'i32' ? 2 ** 31 - 128 : 2 ** 32 - 256;
          return Math.trunc(Math.min(hi, Math.max(lo, x!)));
        }
        return norm(s, x!);
      });
    }
    if (kind === 7) return this.conditional(t, depth);
    const v = this.vectorExpr(T(s, r.pick([2, 3, 4] as const)), depth - 1);
    const c = r.int(v.type.n);
    return this.component(v, c);
  }

  private floatExpr(depth: number): Expr {
    const t = T('f32');
    const r = this.r;
    const kind = r.int(7);
    if (kind <= 2) {
      const op = r.pick(['+', '-', '*']);
      return this.binary(op, this.expr(t, depth - 1), this.operand(t, depth - 1), t, (x, y) =>
        arith(op, 'f32', x, y),
      );
    }
    if (kind === 3) {
      // Division by (|e| + 1) keeps quotients finite.
      const a = this.expr(t, depth - 1);
      const b = this.expr(t, depth - 1);
      return this.binary(
        '/',
        a,
        b,
        t,
        (x, y) => fr(x / fr(Math.abs(y) + 1)),
        `(${a.text} / (Math.abs(${b.text}) + 1))`,
      );
    }
    if (kind === 4) {
      const fn = r.pick([
        'Math.min',
        'Math.max',
        'Math.abs',
        'Math.floor',
        'Math.ceil',
        'Math.trunc',
      ]);
      if (fn === 'Math.min' || fn === 'Math.max') {
        const a = this.expr(t, depth - 1);
        const b = this.operand(t, depth - 1);
        return this.call(fn, [a, b], t, ([x, y]) =>
          fn === 'Math.min' ? Math.min(x!, y!) : Math.max(x!, y!),
        );
      }
      const f = {
        'Math.abs': Math.abs,
        'Math.floor': Math.floor,
        'Math.ceil': Math.ceil,
        'Math.trunc': Math.trunc,
      }[fn]!;
      return this.call(fn, [this.expr(t, depth - 1)], t, ([x]) => fr(f(x!)));
    }
    if (kind === 5) {
      // WGSL leaves the rounding of an integer that f32 cannot hold exactly to the
      // implementation (SwiftShader truncates, NVIDIA rounds to nearest), so the operand is cut
      // to 24 significant bits, where every integer converts exactly.
      const from = r.pick<Scalar>(['i32', 'u32']);
      const e = this.expr(T(from), depth - 1);
      const exact: Expr =
        from === 'i32'
          ? this.call('', [e], T('i32'), ([x]) => (x! << 8) >> 8)
          : this.call('', [e], T('u32'), ([x]) => (x! & 0xffffff) >>> 0);
      const text = from === 'i32' ? `((${e.text} << 8) >> 8)` : `(${e.text} & 16777215)`;
      return this.call('f32', [{ ...exact, text }], t, ([x]) => fr(x!));
    }
    if (r.chance(0.5)) return this.conditional(t, depth);
    const v = this.vectorExpr(T('f32', r.pick([2, 3, 4] as const)), depth - 1);
    return this.component(v, r.int(v.type.n));
  }

  private boolExpr(depth: number): Expr {
    const t = T('bool');
    const r = this.r;
    const kind = r.int(5);
    if (kind === 4) {
      const fn = r.pick(['all', 'any']);
      const cmp = this.vectorComparison(r.pick([2, 3, 4] as const), depth - 1);
      return {
        type: t,
        text: `${fn}(${cmp.text})`,
        literal: false,
        eval: (env) => {
          const c = cmp.eval(env);
          return { v: [+(fn === 'all' ? c.v.every(Boolean) : c.v.some(Boolean))], mag: c.mag };
        },
      };
    }
    if (kind <= 1) {
      const s = r.pick<Scalar>(['i32', 'u32', 'f32']);
      const op = r.pick(['<', '<=', '>', '>=', '===', '!==']);
      return this.binary(op, this.expr(T(s), depth - 1), this.operand(T(s), depth - 1), t, (x, y) =>
        compare(op, x, y),
      );
    }
    if (kind === 2) {
      const op = r.pick(['&&', '||']);
      return this.binary(op, this.expr(t, depth - 1), this.expr(t, depth - 1), t, (x, y) =>
        op === '&&' ? +(x && y) : +(x || y),
      );
    }
    return this.not(depth);
  }

  /** `lt(a, b)` ... `ne(a, b)`: a component-wise comparison of numeric vectors. */
  private vectorComparison(n: 2 | 3 | 4, depth: number): Expr {
    const s = this.r.pick<Scalar>(['i32', 'u32', 'f32']);
    const fn = this.r.pick(['lt', 'le', 'gt', 'ge', 'eq', 'ne']);
    const op = { lt: '<', le: '<=', gt: '>', ge: '>=', eq: '===', ne: '!==' }[fn]!;
    const a = this.vectorExpr(T(s, n), depth);
    const b = this.vectorExpr(T(s, n), depth);
    return this.binary(
      op,
      a,
      b,
      T('bool', n),
      (x, y) => compare(op, x, y),
      `${fn}(${a.text}, ${b.text})`,
    );
  }

  private not(depth: number): Expr {
    const a = this.expr(T('bool'), depth - 1);
    return { ...this.call('', [a], T('bool'), ([x]) => +!x), text: `(!${a.text})` };
  }

  private conditional(t: Type, depth: number): Expr {
    const c = this.expr(T('bool'), depth - 1);
    const a = this.expr(t, depth - 1);
    const b = this.expr(t, depth - 1);
    return {
      type: t,
      text: `(${c.text} ? ${a.text} : ${b.text})`,
      literal: false,
      eval: (env) => {
        const cv = c.eval(env);
        const chosen = (cv.v[0] ? a : b).eval(env);
        return { v: chosen.v, mag: Math.max(cv.mag, chosen.mag) };
      },
    };
  }

  private component(v: Expr, c: number): Expr {
    const letter = 'xyzw'[c]!;
    return {
      type: T(v.type.s),
      text: this.r.chance(0.5) ? `${v.text}.${letter}` : `${v.text}[${c}]!`,
      literal: false,
      eval: (env) => {
        const x = v.eval(env);
        return { v: [x.v[c]!], mag: x.mag };
      },
    };
  }

  private construct(type: Type, depth: number): Expr {
    const parts: Expr[] = [];
    let count = 0;
    while (count < type.n) {
      const room = type.n - count;
      const n =
        room >= 2 && this.r.chance(0.3)
          ? (this.r.pick([2, 3].filter((k) => k <= room)) as 2 | 3)
          : 1;
      const e = n === 1 ? this.expr(T(type.s), depth - 1) : this.expr(T(type.s, n), depth - 1);
      parts.push(e);
      count += n;
    }
    return {
      type,
      text: `${vecName(type)}(${parts.map((p) => p.text).join(', ')})`,
      literal: false,
      eval: (env) => {
        const xs = parts.map((p) => p.eval(env));
        const v = xs.flatMap((x) => x.v);
        return { v, mag: Math.max(...xs.map((x) => x.mag)) };
      },
    };
  }

  private vectorExpr(type: Type, depth: number): Expr {
    const r = this.r;
    if (depth <= 0) return this.construct(type, 0);
    const kind = r.int(5);
    if (kind === 0 || type.s === 'bool') return this.construct(type, depth);
    if (kind === 4) {
      const cmp = this.vectorComparison(type.n as 2 | 3 | 4, depth - 1);
      const f = this.vectorExpr(type, depth - 1);
      const t = this.vectorExpr(type, depth - 1);
      return {
        type,
        text: `select(${f.text}, ${t.text}, ${cmp.text})`,
        literal: false,
        eval: (env) => {
          const [c, a, b] = [cmp.eval(env), f.eval(env), t.eval(env)];
          return {
            v: c.v.map((x, i) => (x ? b.v[i]! : a.v[i]!)),
            mag: Math.max(c.mag, a.mag, b.mag),
          };
        },
      };
    }
    if (kind === 1) {
      const fn = r.pick(['add', 'sub', 'mul']);
      const op = { add: '+', sub: '-', mul: '*' }[fn]!;
      const a = this.vectorExpr(type, depth - 1);
      const b = r.chance(0.3) ? this.expr(T(type.s), depth - 1) : this.vectorExpr(type, depth - 1);
      return this.binary(
        op,
        a,
        b,
        type,
        (x, y) => arith(op, type.s, x, y),
        `${fn}(${a.text}, ${b.text})`,
      );
    }
    if (kind === 2) {
      const bigger = T(type.s, r.pick([2, 3, 4] as const));
      const src = this.vectorExpr(bigger, depth - 1);
      const idx = Array.from({ length: type.n }, () => r.int(bigger.n));
      return {
        type,
        text: `${src.text}.${idx.map((i) => 'xyzw'[i]).join('')}`,
        literal: false,
        eval: (env) => {
          const x = src.eval(env);
          return { v: idx.map((i) => x.v[i]!), mag: x.mag };
        },
      };
    }
    return this.conditional(type, depth);
  }
}

export interface Case {
  /** Statements of the case's block; it leaves its result in `r`. */
  readonly text: string;
  readonly type: Type;
  run(inputs: ReadonlyMap<string, Value>): Eval;
}

/** A case: `let r = e;` then a few statements that update r, ending with r's value. */
export function generateCase(rand: Rand, inputs: ReadonlyMap<string, Type>, depth: number): Case {
  const gen = new Generator(rand, inputs);
  const type = T(
    rand.pick<Scalar>(['i32', 'u32', 'f32', 'bool', 'i32', 'u32', 'f32']),
    rand.chance(0.25) ? rand.pick([2, 3, 4] as const) : 1,
  );
  const init = gen.expr(type, depth);
  type Step = {
    text: string;
    run(env: Map<string, Value>, mag: number[]): 'ok' | 'break' | 'continue';
  };
  const steps: Step[] = [];
  const numeric = type.s !== 'bool' && type.n === 1;
  const assignStep = (): Step =>
    gen.withVar('r', type, () => {
      const e = gen.expr(type, depth - 1);
      if (numeric && type.s !== 'f32' && rand.chance(0.3)) {
        const op = rand.pick(['+', '-', '*', '^', '|']);
        const e2 = gen.expr(type, depth - 1);
        return {
          text: `r ${op}= ${e2.text};`,
          run: (env, mag) => {
            const x = e2.eval({ vars: env });
            mag.push(x.mag);
            env.set('r', [arith(op, type.s, env.get('r')![0]!, x.v[0]!)]);
            return 'ok';
          },
        };
      }
      return {
        text: `r = ${e.text};`,
        run: (env, mag) => {
          const x = e.eval({ vars: env });
          mag.push(x.mag);
          env.set('r', x.v);
          return 'ok';
        },
      };
    });
  const count = rand.int(3);
  for (let k = 0; k < count; k++) {
    const kind = rand.int(4);
    if (kind === 0) {
      steps.push(assignStep());
    } else if (kind === 1) {
      const c = gen.withVar('r', type, () => gen.expr(T('bool'), depth - 1));
      const a = assignStep();
      const b = assignStep();
      steps.push({
        text: `if (${c.text}) {\n  ${a.text}\n} else {\n  ${b.text}\n}`,
        run: (env, mag) => {
          const x = c.eval({ vars: env });
          mag.push(x.mag);
          return (x.v[0] ? a : b).run(env, mag);
        },
      });
    } else if (kind === 2) {
      const trips = rand.int(4);
      const counter = rand.pick<Scalar>(['i32', 'u32']);
      const body = gen.withVar('k', T(counter), () => assignStep());
      const skip = gen.withVar('k', T(counter), () =>
        gen.withVar('r', type, () => gen.expr(T('bool'), 1)),
      );
      const useContinue = rand.chance(0.5);
      steps.push({
        text: `for (let k = ${counter}(0); k < ${trips}; k++) {\n  if (${skip.text}) {\n    ${useContinue ? 'continue' : 'break'};\n  }\n  ${body.text}\n}`,
        run: (env, mag) => {
          for (let k = 0; k < trips; k++) {
            env.set('k', [k]);
            const s = skip.eval({ vars: env });
            mag.push(s.mag);
            if (s.v[0]) {
              if (useContinue) continue;
              break;
            }
            body.run(env, mag);
          }
          env.delete('k');
          return 'ok';
        },
      });
    } else if (kind === 3 && rand.chance(0.5)) {
      const trips = rand.int(4);
      const body = gen.withVar('w', T('u32'), () => assignStep());
      const stop = gen.withVar('w', T('u32'), () =>
        gen.withVar('r', type, () => gen.expr(T('bool'), 1)),
      );
      steps.push({
        text: `{\n  let w = u32(0);\n  while (w < ${trips}) {\n    w++;\n    if (${stop.text}) {\n      break;\n    }\n    ${body.text}\n  }\n}`,
        run: (env, mag) => {
          let w = 0;
          while (w < trips) {
            w++;
            env.set('w', [w]);
            const x = stop.eval({ vars: env });
            mag.push(x.mag);
            if (x.v[0]) break;
            body.run(env, mag);
          }
          env.delete('w');
          return 'ok';
        },
      });
    } else if (numeric && type.s !== 'f32') {
      const op = rand.pick(['++', '--']);
      steps.push({
        text: `r${op};`,
        run: (env) => {
          env.set('r', [norm(type.s, env.get('r')![0]! + (op === '++' ? 1 : -1))]);
          return 'ok';
        },
      });
    } else {
      steps.push(assignStep());
    }
  }
  return {
    type,
    text: `let r = ${init.text};\n${steps.map((s) => s.text).join('\n')}`,
    run: (inputValues) => {
      const env = new Map(inputValues);
      const first = init.eval({ vars: env });
      const mag = [first.mag];
      env.set('r', first.v);
      for (const s of steps) s.run(env, mag);
      const v = env.get('r')!;
      return { v, mag: Math.max(...mag, magOf(v)) };
    },
  };
}
