/**
 * Runs device code of a linked image for one work-item. Statements run in generators that
 * yield at each barrier, so the caller can step the items of a workgroup in turn; expressions
 * are evaluated directly (a device function called inside an expression must not reach a
 * barrier, which WGSL's uniformity rules make rare).
 */
import {
  type DataType,
  type LogScalar,
  logRecordText,
  type SourceLocation,
  type SymbolicId,
} from '@syclts/dsl';
import { scalarOf } from '../builtins/evaluate.js';
import { mapChildren, matrixExprs } from '../ir/children.js';
import type {
  BinaryOperator,
  Block,
  Expr,
  ItemQuery,
  LetStmt,
  Stmt,
  UpdateStmt,
} from '../ir/device-code.js';
import type { Span } from '../ir/span.js';
import type { LinkedFunction, LinkedLog } from '../link/linked-image.js';
import { logKey } from '../link/log.js';
import { builtinFunction } from './builtins.js';
import type { GroupCall } from './groups.js';
import { runMatrix, zeroMatrix } from './matrices.js';
import { binaryScalar, convertScalar, unaryScalar } from './numbers.js';
import { type Cell, child, lengthOf, type Place, read, write } from './places.js';
import { copyOf, InterpretError, type Scalar, toScalar, type Value, zeroOf } from './values.js';

/** What one work-item sees of the launch: its ids, in SYCL dimension order. */
export interface ItemIds {
  readonly globalId: readonly number[];
  readonly globalRange: readonly number[];
  readonly localId: readonly number[];
  readonly localRange: readonly number[];
  readonly groupId: readonly number[];
  readonly groupRange: readonly number[];
  readonly globalLinearId: number;
  readonly localLinearId: number;
  /** The items a sub-group holds (see `subGroupSize` in index.ts). */
  readonly subGroupSize: number;
}

/** The storage a kernel's code reaches, shared by every item of the launch (or workgroup). */
export interface Storage {
  readonly functions: ReadonlyMap<SymbolicId, LinkedFunction>;
  /** Accessors (memory) and value arguments (constants), by argument name. */
  readonly params: ReadonlyMap<string, Place>;
  readonly workgroupArrays: ReadonlyMap<string, Place>;
  readonly specConstants: ReadonlyMap<SymbolicId, Place>;
  readonly deviceGlobals: ReadonlyMap<SymbolicId, Place>;
  /** Loop iterations left to the launch: a guard against code that never ends. */
  budget: { left: number };
  /** The image's `console.log` formats (null when none prints) and the lines printed so far. */
  readonly log: LinkedLog | null;
  readonly lines: LogLine[];
}

/** A line `console.log` printed: where, which item (its global id, SYCL order), the text. */
export interface LogLine {
  readonly source: SourceLocation;
  readonly item: readonly number[];
  readonly text: string;
}

const logBits = new DataView(new ArrayBuffer(4));

/** A scalar as the word of a log record (see @syclts/dsl image/log.ts). */
function logWord(scalar: LogScalar, x: Scalar): number {
  if (scalar === 'bool') return x ? 1 : 0;
  if (scalar === 'f32' || scalar === 'f16') {
    logBits.setFloat32(0, x as number);
    return logBits.getUint32(0);
  }
  return (x as number) >>> 0;
}

/** Yielded at each barrier. */
export const BARRIER = Symbol('barrier');
type Barrier = typeof BARRIER;

/** Yielded at each group function: the item's arguments; it is resumed with its result. */
export interface GroupArrival {
  readonly call: GroupCall;
  readonly args: readonly Value[];
}

/** What an item stops at, for the workgroup's scheduler (index.ts). */
export type Stop = Barrier | GroupArrival;

type Completion = undefined | 'break' | 'continue' | { readonly value: Value | null };
type Run<T> = Generator<Stop, T, Value | undefined>;

interface Frame {
  readonly module: string;
  readonly scopes: Map<string, Cell>[];
}

export class Machine {
  /** The results of the group functions of the expression being evaluated (see `settled`). */
  readonly #arrived = new Map<GroupCall, Value>();

  constructor(
    private readonly storage: Storage,
    private readonly ids: ItemIds,
  ) {}

  /** The kernel body for this item. */
  *kernel(body: Block<SymbolicId>, module: string): Run<void> {
    yield* this.block(body, { module, scopes: [] });
  }

  #fail(frame: Frame, span: Span, message: string): never {
    throw new InterpretError(message, frame.module, span.line, span.column);
  }

  *block(block: Block<SymbolicId>, frame: Frame): Run<Completion> {
    frame.scopes.push(new Map());
    try {
      for (const s of block) {
        const c = yield* this.stmt(s, frame);
        if (c !== undefined) return c;
      }
      return undefined;
    } finally {
      frame.scopes.pop();
    }
  }

  *stmt(s: Stmt<SymbolicId>, frame: Frame): Run<Completion> {
    switch (s.kind) {
      case 'let':
        yield* this.let(s, frame);
        return undefined;
      case 'if': {
        const taken = (yield* this.settled(s.condition, frame)) as boolean;
        if (taken) return yield* this.block(s.then, frame);
        return s.else ? yield* this.block(s.else, frame) : undefined;
      }
      case 'for': {
        frame.scopes.push(new Map());
        try {
          if (s.init) {
            if (s.init.kind === 'let') yield* this.let(s.init, frame);
            else yield* this.update(s.init, frame);
          }
          while (s.condition === null || ((yield* this.settled(s.condition, frame)) as boolean)) {
            this.#tick(frame, s.span);
            const c = yield* this.block(s.body, frame);
            if (c === 'break') break;
            if (c !== undefined && c !== 'continue') return c;
            if (s.update) yield* this.update(s.update, frame);
          }
          return undefined;
        } finally {
          frame.scopes.pop();
        }
      }
      case 'while':
        while ((yield* this.settled(s.condition, frame)) as boolean) {
          this.#tick(frame, s.span);
          const c = yield* this.block(s.body, frame);
          if (c === 'break') break;
          if (c !== undefined && c !== 'continue') return c;
        }
        return undefined;
      case 'break':
        return 'break';
      case 'continue':
        return 'continue';
      case 'return':
        return { value: s.value ? yield* this.value(s.value, frame) : null };
      case 'block':
        return yield* this.block(s.body, frame);
      default:
        yield* this.update(s, frame);
        return undefined;
    }
  }

  #tick(frame: Frame, span: Span): void {
    if (--this.storage.budget.left < 0) {
      this.#fail(frame, span, 'the launch ran past its iteration budget (a loop that never ends?)');
    }
  }

  *let(s: LetStmt<SymbolicId>, frame: Frame): Run<void> {
    const value = s.init ? yield* this.value(s.init, frame) : zeroOf(s.type);
    frame.scopes.at(-1)!.set(s.name, { value: copyOf(value) });
  }

  *update(s: UpdateStmt<SymbolicId>, frame: Frame): Run<void> {
    switch (s.kind) {
      case 'assign': {
        yield* this.#arrive(s.target, frame);
        const place = this.place(s.target, frame);
        const value = yield* this.value(s.value, frame);
        const result =
          s.operator === '='
            ? value
            : this.#binary(
                s.operator.slice(0, -1) as BinaryOperator,
                read(place),
                value,
                s.target.type,
                s.value.type,
              );
        this.#write(place, result, frame, s.span);
        return;
      }
      case 'increment': {
        const place = this.place(s.target, frame);
        const one = toScalar(scalarOf(s.target.type), 1);
        const next = this.#binary(
          s.operator === '++' ? '+' : '-',
          read(place),
          one,
          s.target.type,
          { kind: 'scalar', scalar: scalarOf(s.target.type) },
        );
        this.#write(place, next, frame, s.span);
        return;
      }
      case 'expr':
        yield* this.value(s.expr, frame);
        return;
      case 'call':
        yield* this.call(s.callee, s.args, frame, s.span);
        return;
      case 'atomicStore': {
        const place = this.place(s.pointer, frame);
        this.#write(place, yield* this.settled(s.value, frame), frame, s.span);
        return;
      }
      case 'barrier':
        yield BARRIER;
        return;
      case 'combine':
        return this.#fail(
          frame,
          s.span,
          'a reduction is lowered by the link step before a kernel runs',
        );
      case 'textureStore':
        return this.#fail(frame, s.span, TEXTURES_UNSUPPORTED);
      case 'log': {
        const values: Value[] = [];
        for (const a of s.args) values.push(yield* this.settled(a, frame));
        const { log, lines } = this.storage;
        const format = log!.formats[log!.index.get(logKey(frame.module, s))!]!;
        const words = [0, 0, 0, 0];
        format.args.forEach((a, i) => {
          const v = values[i]!;
          for (const x of Array.isArray(v) ? v : [v]) words.push(logWord(a.scalar, x as Scalar));
        });
        lines.push({
          source: format.source,
          item: this.ids.globalId,
          text: logRecordText(format, words, 0),
        });
        return;
      }
      case 'jointMatrix': {
        const transfer = s.fn === 'load' || s.fn === 'store';
        const args: Value[] = [];
        for (const e of transfer ? [s.offset, s.stride] : matrixExprs(s)) {
          args.push(yield* this.value(e, frame));
        }
        if (s.fn === 'declare') {
          frame.scopes.at(-1)!.set(s.matrix.name, { value: zeroMatrix(s.matrix.type) });
        }
        runMatrix(s, {
          memory: transfer ? this.place(s.memory, frame) : null,
          args,
          cell: (name) => this.#matrixCell(name, frame, s.span),
          fail: (why) => this.#fail(frame, s.span, why),
        });
        return;
      }
      case 'jointScan': {
        const input = yield* this.settled(s.input, frame);
        const init = s.init ? [yield* this.settled(s.init, frame)] : [];
        const output = yield { call: s, args: [input, ...init] };
        this.#write(this.place(s.output, frame), output!, frame, s.span);
        return;
      }
    }
  }

  /**
   * `e`'s value, its group functions met first: each in evaluation order (arguments before the
   * call), the item stopping there until the work-group has arrived. Their arguments are thereby
   * evaluated before the rest of the expression, which WGSL's order differs from only where an
   * expression also writes memory its group function's arguments read.
   */
  *settled(e: Expr<SymbolicId>, frame: Frame): Run<Value> {
    yield* this.#arrive(e, frame);
    try {
      return this.expr(e, frame);
    } finally {
      this.#arrived.clear();
    }
  }

  *#arrive(e: Expr<SymbolicId>, frame: Frame): Run<void> {
    if (e.op === 'group') {
      for (const a of e.args) yield* this.#arrive(a, frame);
      const args = e.args.map((a) => this.expr(a, frame));
      this.#arrived.set(e, (yield { call: e, args })!);
      return;
    }
    const children: Expr<SymbolicId>[] = [];
    mapChildren(e, (c) => {
      children.push(c);
      return c;
    });
    for (const c of children) yield* this.#arrive(c, frame);
  }

  #write(place: Place, value: Value, frame: Frame, span: Span): void {
    if (!write(place, value)) this.#fail(frame, span, 'this place cannot be written');
  }

  /** An expression at statement level: a call there may reach a barrier. */
  *value(e: Expr<SymbolicId>, frame: Frame): Run<Value> {
    if (e.op === 'call') return (yield* this.call(e.callee, e.args, frame, e.span))!;
    return yield* this.settled(e, frame);
  }

  *call(
    callee: SymbolicId,
    args: readonly Expr<SymbolicId>[],
    frame: Frame,
    span: Span,
  ): Run<Value | null> {
    const f = this.storage.functions.get(callee);
    if (!f) this.#fail(frame, span, `the image holds no device function ${callee}`);
    const { decl } = f;
    if (decl.body.kind !== 'ir') {
      this.#fail(frame, span, `${decl.name} has a raw WGSL body, which the interpreter cannot run`);
    }
    const values: Value[] = [];
    for (const a of args) values.push(yield* this.settled(a, frame));
    const scope = new Map<string, Cell>(
      decl.params.map((p, i) => [p.name, { value: copyOf(values[i]!) }]),
    );
    const inner: Frame = { module: f.module, scopes: [scope] };
    const c = yield* this.block(decl.body.block, inner);
    return c !== undefined && typeof c === 'object' ? c.value : null;
  }

  /** Evaluates an expression; a call inside must not reach a barrier. */
  expr(e: Expr<SymbolicId>, frame: Frame): Value {
    switch (e.op) {
      case 'literal':
        return e.type.kind === 'scalar' ? toScalar(e.type.scalar, e.value) : e.value;
      case 'local':
      case 'param':
      case 'workgroupArray':
      case 'specConstant':
      case 'deviceGlobal':
      case 'index':
      case 'member':
        return read(this.place(e, frame));
      case 'swizzle': {
        const base = this.expr(e.base, frame) as Value[];
        const picked = [...e.components].map((c) => base[componentIndex(c)]!);
        return e.type.kind === 'vector' ? picked : picked[0]!;
      }
      case 'fromHost':
        return this.expr(e.place, frame);
      case 'toHost':
        return this.expr(e.value, frame);
      case 'unary': {
        const v = this.expr(e.operand, frame);
        const s = scalarOf(e.operand.type);
        return mapDeep(v, (x) => unaryScalar(e.operator, s, x));
      }
      case 'binary': {
        if (e.operator === '&&' || e.operator === '||') {
          const left = this.expr(e.left, frame) as boolean;
          if (e.operator === '&&' ? !left : left) return left;
          return this.expr(e.right, frame);
        }
        const left = this.expr(e.left, frame);
        const right = this.expr(e.right, frame);
        return this.#binary(e.operator, left, right, e.left.type, e.right.type);
      }
      case 'select': {
        // WGSL's select evaluates both choices; the front end makes one only where that is safe.
        const whenTrue = this.expr(e.whenTrue, frame);
        const whenFalse = this.expr(e.whenFalse, frame);
        return (this.expr(e.condition, frame) as boolean) ? whenTrue : whenFalse;
      }
      case 'conditional':
        return (this.expr(e.condition, frame) as boolean)
          ? this.expr(e.whenTrue, frame)
          : this.expr(e.whenFalse, frame);
      case 'launchSlot':
        // Launches run one at a time here: each is the only record of its slot buffer.
        return 0;
      case 'call': {
        const run = this.call(e.callee, e.args, frame, e.span);
        const step = run.next();
        if (!step.done) {
          this.#fail(frame, e.span, 'a barrier inside a call within an expression');
        }
        return step.value ?? zeroOf(e.type);
      }
      case 'builtin':
        return this.#builtin(e, frame);
      case 'construct':
        return construct(
          e.type,
          e.args.map((a) => this.expr(a, frame)),
          e.args.map((a) => a.type),
        );
      case 'item':
        return toScalar(scalarOf(e.type), this.#item(e.query, e.dimension));
      case 'atomic':
        return this.#atomic(e, frame);
      case 'texture':
        return this.#fail(frame, e.span, TEXTURES_UNSUPPORTED);
      case 'group': {
        const result = this.#arrived.get(e);
        if (result === undefined) {
          return this.#fail(frame, e.span, 'a group function the work-group did not arrive at');
        }
        return result;
      }
    }
  }

  /** The place an lvalue expression names; other expressions become constants. */
  place(e: Expr<SymbolicId>, frame: Frame): Place {
    switch (e.op) {
      case 'local': {
        for (let i = frame.scopes.length - 1; i >= 0; i--) {
          const cell = frame.scopes[i]!.get(e.name);
          if (cell) return { kind: 'cell', cell, path: [], type: e.type };
        }
        return this.#fail(frame, e.span, `no local named ${e.name}`);
      }
      case 'param':
        return this.#lookup(this.storage.params, e.name, frame, e.span);
      case 'workgroupArray':
        return this.#lookup(this.storage.workgroupArrays, e.name, frame, e.span);
      case 'specConstant':
        return this.#lookup(this.storage.specConstants, e.ref, frame, e.span);
      case 'deviceGlobal':
        return this.#lookup(this.storage.deviceGlobals, e.ref, frame, e.span);
      case 'fromHost':
        return this.place(e.place, frame);
      case 'index': {
        const base = this.place(e.base, frame);
        const i = this.expr(e.index, frame) as number;
        const length = lengthOf(base);
        if (!(i >= 0 && i < length)) {
          this.#fail(frame, e.span, `index ${i} is out of bounds (length ${length})`);
        }
        return child(base, i, e.type);
      }
      case 'member': {
        const base = this.place(e.base, frame);
        const t = base.type;
        if (t.kind === 'vector') return child(base, componentIndex(e.member), e.type);
        if (t.kind !== 'struct') return this.#fail(frame, e.span, `no member ${e.member}`);
        return child(
          base,
          t.fields.findIndex((f) => f.name === e.member),
          e.type,
        );
      }
      case 'swizzle': {
        const base = this.place(e.base, frame);
        const components = [...e.components].map(componentIndex);
        if (components.length === 1) return child(base, components[0]!, e.type);
        return { kind: 'swizzle', base, components, type: e.type };
      }
      default:
        return { kind: 'constant', value: this.expr(e, frame), type: e.type };
    }
  }

  #lookup<K>(map: ReadonlyMap<K, Place>, key: K, frame: Frame, span: Span): Place {
    const place = map.get(key);
    if (!place) this.#fail(frame, span, `nothing is bound to ${String(key)}`);
    return place;
  }

  #item(query: ItemQuery, d: number): number {
    const ids = this.ids;
    switch (query) {
      case 'globalLinearId':
        return ids.globalLinearId;
      case 'localLinearId':
        return ids.localLinearId;
      case 'groupLinearId':
        return linearOf(ids.groupId, ids.groupRange);
      case 'localLinearRange':
        return ids.localRange.reduce((a, b) => a * b, 1);
      case 'groupLinearRange':
        return ids.groupRange.reduce((a, b) => a * b, 1);
      case 'subGroupId':
      case 'subGroupLocalId':
      case 'subGroupLocalRange':
      case 'subGroupMaxLocalRange':
      case 'subGroupRange':
        return subGroupQuery(query, ids);
      default:
        return ids[query][d] ?? 0;
    }
  }

  #builtin(e: Extract<Expr<SymbolicId>, { op: 'builtin' }>, frame: Frame): Value {
    if (e.name === 'arrayLength') return lengthOf(this.place(e.args[0]!, frame));
    const f = builtinFunction(e.name);
    if (!f) return this.#fail(frame, e.span, `the interpreter has no built-in ${e.name}`);
    return f(
      e.args.map((a) => this.expr(a, frame)),
      e.args.map((a) => a.type),
      e.type,
    );
  }

  #atomic(e: Extract<Expr<SymbolicId>, { op: 'atomic' }>, frame: Frame): Value {
    const place = this.place(e.pointer, frame);
    const s = scalarOf(e.pointer.type);
    const old = read(place) as number;
    const args = e.args.map((a) => this.expr(a, frame) as number);
    const operand = args[0] ?? 0;
    const next = (v: Scalar) => this.#write(place, v, frame, e.span);
    switch (e.fn) {
      case 'atomicLoad':
        return old;
      case 'atomicAdd':
        next(binaryScalar('+', s, old, operand));
        return old;
      case 'atomicSub':
        next(binaryScalar('-', s, old, operand));
        return old;
      case 'atomicMax':
        next(s === 'f32' ? f32AtomicMinMax('max', old, operand) : Math.max(old, operand));
        return old;
      case 'atomicMin':
        next(s === 'f32' ? f32AtomicMinMax('min', old, operand) : Math.min(old, operand));
        return old;
      case 'atomicAnd':
        next(binaryScalar('&', s, old, operand));
        return old;
      case 'atomicOr':
        next(binaryScalar('|', s, old, operand));
        return old;
      case 'atomicXor':
        next(binaryScalar('^', s, old, operand));
        return old;
      case 'atomicExchange':
        next(operand);
        return old;
      case 'atomicCompareExchangeWeak': {
        // f32 compares bits: -0 is not +0, and NaN is NaN (payloads are not kept here).
        const exchanged = s === 'f32' ? Object.is(old, operand) : old === operand;
        if (exchanged) next(args[1]!);
        const fields = e.type.kind === 'struct' ? e.type.fields.map((f) => f.name) : [];
        return fields.map((name) => (name === 'exchanged' ? exchanged : old));
      }
    }
  }

  /** The cell of the joint matrix `name`, a local of the kernel body. */
  #matrixCell(name: string, frame: Frame, span: Span): Cell {
    for (let i = frame.scopes.length - 1; i >= 0; i--) {
      const cell = frame.scopes[i]!.get(name);
      if (cell) return cell;
    }
    return this.#fail(frame, span, `no joint matrix named ${name}`);
  }

  /** A binary operator on scalars, vectors (a scalar side broadcast) and matrices. */
  #binary(op: BinaryOperator, a: Value, b: Value, ta: DataType, tb: DataType): Value {
    if (ta.kind === 'matrix' || tb.kind === 'matrix') return matrixOp(op, a, b, ta, tb);
    const scalar = scalarOf(ta);
    if (!Array.isArray(a) && !Array.isArray(b)) return binaryScalar(op, scalar, a, b);
    const n = (Array.isArray(a) ? a : (b as Value[])).length;
    return Array.from({ length: n }, (_, i) =>
      binaryScalar(
        op,
        scalar,
        (Array.isArray(a) ? a[i] : a) as Scalar,
        (Array.isArray(b) ? b[i] : b) as Scalar,
      ),
    );
  }
}

/**
 * What `atomicMin`/`atomicMax` leave in an `atomic(f32)` (emit/print/atomics.ts): -0 below +0,
 * a NaN operand ignored and a NaN in the word replaced, as IEEE 754's minimumNumber and
 * maximumNumber.
 */
function f32AtomicMinMax(which: 'min' | 'max', old: number, v: number): number {
  if (Number.isNaN(v)) return old;
  if (Number.isNaN(old)) return v;
  if (old === v) {
    // Equal numbers differ only in the sign of a zero.
    const negative = Object.is(old, -0) || Object.is(v, -0);
    const positive = Object.is(old, 0) || Object.is(v, 0);
    if (old !== 0 || !(negative && positive)) return old;
    return which === 'min' ? -0 : 0;
  }
  return which === 'min' ? Math.min(old, v) : Math.max(old, v);
}

function componentIndex(c: string): number {
  const i = 'xyzw'.indexOf(c);
  return i >= 0 ? i : 'rgba'.indexOf(c);
}

function mapDeep(v: Value, f: (x: Scalar) => Scalar): Value {
  return Array.isArray(v) ? v.map((x) => mapDeep(x, f)) : f(v);
}

/** WGSL's value constructors: zero values, conversions, splats, and composites from parts. */
function construct(type: DataType, args: Value[], types: readonly DataType[]): Value {
  if (args.length === 0) return zeroOf(type);
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return convertScalar(scalarOf(types[0]!), scalarOf(type), args[0] as Scalar);
    case 'vector': {
      const to = type.component;
      if (args.length === 1 && !Array.isArray(args[0])) {
        const x = convertScalar(scalarOf(types[0]!), to, args[0] as Scalar);
        return new Array<Scalar>(type.size).fill(x);
      }
      return args.flatMap((a, i) => {
        const from = scalarOf(types[i]!);
        return Array.isArray(a)
          ? (a as Scalar[]).map((x) => convertScalar(from, to, x))
          : [convertScalar(from, to, a)];
      });
    }
    case 'matrix': {
      if (types[0]!.kind === 'matrix') return copyOf(args[0]!);
      if (Array.isArray(args[0])) return args.map((c) => copyOf(c));
      const flat = args as number[];
      return Array.from({ length: type.columns }, (_, c) =>
        flat.slice(c * type.rows, (c + 1) * type.rows),
      );
    }
    case 'array':
    case 'struct':
      return args.map((a) => copyOf(a));
  }
}

function matrixOp(op: BinaryOperator, a: Value, b: Value, ta: DataType, tb: DataType): Value {
  const f = Math.fround;
  const m = (x: Value) => x as number[][];
  const v = (x: Value) => x as number[];
  if (op === '+' || op === '-') {
    return m(a).map((col, c) =>
      col.map((x, r) => f(op === '+' ? x + m(b)[c]![r]! : x - m(b)[c]![r]!)),
    );
  }
  if (ta.kind === 'scalar') return m(b).map((col) => col.map((x) => f(x * (a as number))));
  if (tb.kind === 'scalar') return m(a).map((col) => col.map((x) => f(x * (b as number))));
  const dot = (x: number[], y: number[]) => x.reduce((s, xi, i) => f(s + f(xi * y[i]!)), 0);
  const rows = (x: number[][]) => x[0]!.map((_, r) => x.map((col) => col[r]!));
  if (ta.kind === 'matrix' && tb.kind === 'vector') return rows(m(a)).map((row) => dot(row, v(b)));
  if (ta.kind === 'vector' && tb.kind === 'matrix') return m(b).map((col) => dot(v(a), col));
  const ra = rows(m(a));
  return m(b).map((col) => ra.map((row) => dot(row, col)));
}

/** SYCL's linear id: the last dimension varies fastest. */
function linearOf(id: readonly number[], range: readonly number[]): number {
  return id.reduce((acc, x, d) => acc * range[d]! + x, 0);
}

/** Sub-groups as runs of `subGroupSize` items in local linear order, the last possibly shorter. */
function subGroupQuery(query: ItemQuery, ids: ItemIds): number {
  const size = ids.localRange.reduce((a, b) => a * b, 1);
  const max = ids.subGroupSize;
  const id = Math.floor(ids.localLinearId / max);
  switch (query) {
    case 'subGroupId':
      return id;
    case 'subGroupLocalId':
      return ids.localLinearId % max;
    case 'subGroupLocalRange':
      return Math.min(max, size - id * max);
    case 'subGroupMaxLocalRange':
      return max;
    default:
      return Math.ceil(size / max);
  }
}

const TEXTURES_UNSUPPORTED = 'the reference interpreter does not run texture built-ins';
