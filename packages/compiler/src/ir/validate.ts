/**
 * The IR's invariants, checked after lowering: a broken invariant is a compiler bug, and it must
 * stop the build with a diagnostic rather than become WGSL that does something else. Checks what
 * the later stages rely on: names resolve to a declaration in scope, control flow is well
 * placed, conditions are bool, the types an expression carries agree with its parts.
 */
import { type DataType, fitsScalar, sameType, typeName } from '@syclts/dsl';
import type { Block, Expr, JointMatrixStmt, LetStmt, Stmt, UpdateStmt } from './device-code.js';
import type { DeviceObject, FunctionDecl, KernelDecl } from './device-object.js';
import { matrixMemoryParts } from './matrix-memory.js';
import type { Span } from './span.js';

export interface IrProblem {
  readonly message: string;
  readonly span: Span;
}

const BOOL: DataType = { kind: 'scalar', scalar: 'bool' };
const U32: DataType = { kind: 'scalar', scalar: 'u32' };
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const SWIZZLE_SETS = ['xyzw', 'rgba'];

/** Every broken invariant of the module's device code, in source order of discovery. */
export function validateDeviceObject(object: DeviceObject): readonly IrProblem[] {
  const problems: IrProblem[] = [];
  for (const k of object.kernels) validateKernel(k, problems);
  for (const f of object.functions) validateFunction(f, problems);
  return problems;
}

/** Adds the kernel's broken invariants to `problems`; any stage's IR, front end's or linked. */
export function validateKernel<R>(k: KernelDecl<R>, problems: IrProblem[]): void {
  const v = new BodyValidator<R>(problems, `kernel '${k.name}'`, null);
  for (const p of k.params) v.declareParam(p.name);
  for (const w of k.workgroupArrays) {
    v.declareWorkgroupArray(w.name);
    v.expr(w.length);
  }
  if (k.range.kind === 'nd') for (const s of k.range.workgroupSize) v.expr(s);
  v.block(k.body);
}

export function validateFunction<R>(f: FunctionDecl<R>, problems: IrProblem[]): void {
  if (f.body.kind !== 'ir') return;
  const v = new BodyValidator<R>(problems, `device function '${f.name}'`, f.returnType);
  v.pushScope();
  for (const p of f.params) v.declareLocal(p.name);
  v.block(f.body.block);
}

class BodyValidator<R> {
  private readonly scopes: Set<string>[] = [];
  private readonly params = new Set<string>();
  private readonly workgroupArrays = new Set<string>();
  private loops = 0;

  constructor(
    private readonly problems: IrProblem[],
    private readonly owner: string,
    /** A device function's return type; null for kernels and functions returning nothing. */
    private readonly returnType: DataType | null,
  ) {}

  declareParam(name: string): void {
    this.params.add(name);
  }

  declareWorkgroupArray(name: string): void {
    this.workgroupArrays.add(name);
  }

  declareLocal(name: string): void {
    this.scopes.at(-1)?.add(name);
  }

  pushScope(): void {
    this.scopes.push(new Set());
  }

  block(block: Block<R>): void {
    this.pushScope();
    for (const s of block) this.stmt(s);
    this.scopes.pop();
  }

  private problem(span: Span, message: string): void {
    this.problems.push({ message: `${this.owner}: ${message}`, span });
  }

  private stmt(s: Stmt<R>): void {
    switch (s.kind) {
      case 'let':
        this.let(s);
        return;
      case 'if':
        this.condition(s.condition, 'if');
        this.block(s.then);
        if (s.else) this.block(s.else);
        return;
      case 'for':
        this.pushScope();
        if (s.init) s.init.kind === 'let' ? this.let(s.init) : this.update(s.init);
        if (s.condition) this.condition(s.condition, 'for');
        this.loops++;
        this.block(s.body);
        this.loops--;
        if (s.update) this.update(s.update);
        this.scopes.pop();
        return;
      case 'while':
        this.condition(s.condition, 'while');
        this.loops++;
        this.block(s.body);
        this.loops--;
        return;
      case 'break':
      case 'continue':
        if (this.loops === 0) this.problem(s.span, `'${s.kind}' outside a loop`);
        return;
      case 'return':
        if (s.value) {
          this.expr(s.value);
          if (!this.returnType) this.problem(s.span, 'returns a value but declares none');
          else this.sameAs(s.value, this.returnType, 'the returned value');
        } else if (this.returnType) {
          this.problem(s.span, `returns nothing but declares ${typeName(this.returnType)}`);
        }
        return;
      case 'block':
        this.block(s.body);
        return;
      default:
        this.update(s);
        return;
    }
  }

  private let(s: LetStmt<R>): void {
    if (s.init) {
      this.expr(s.init);
      this.sameAs(s.init, s.type, `the initializer of '${s.name}'`);
    }
    this.declareLocal(s.name);
  }

  private update(s: UpdateStmt<R>): void {
    switch (s.kind) {
      case 'assign':
        this.expr(s.target);
        this.reference(s.target);
        this.expr(s.value);
        if (s.operator === '=') this.sameAs(s.value, s.target.type, 'the assigned value');
        return;
      case 'increment':
        this.expr(s.target);
        this.reference(s.target);
        return;
      case 'expr':
        this.expr(s.expr);
        return;
      case 'call':
        for (const a of s.args) this.expr(a);
        return;
      case 'combine':
        if (s.index) this.expr(s.index);
        this.expr(s.value);
        if (!this.params.has(s.reduction)) this.problem(s.span, `no reduction '${s.reduction}'`);
        return;
      case 'atomicStore':
        this.expr(s.pointer);
        this.expr(s.value);
        if (s.pointer.type.kind !== 'atomic') {
          this.problem(s.span, `atomicStore on ${typeName(s.pointer.type)}, not an atomic`);
        } else {
          this.sameAs(
            s.value,
            { kind: 'scalar', scalar: s.pointer.type.scalar },
            'the stored value',
          );
        }
        return;
      case 'barrier':
        return;
      case 'jointScan':
        this.jointScan(s);
        return;
      case 'log':
        for (const a of s.args) {
          this.expr(a);
          if (a.type.kind !== 'scalar' && a.type.kind !== 'vector') {
            this.problem(a.span, `console.log of a ${typeName(a.type)}, not a scalar or vector`);
          }
        }
        if (s.parts.length !== s.args.length + 1) {
          this.problem(
            s.span,
            `console.log with ${s.parts.length} texts for ${s.args.length} values`,
          );
        }
        return;
      case 'jointMatrix':
        this.jointMatrix(s);
        return;
    }
  }

  /** A joint-matrix statement: u32 offset and stride, memory and values of the element type. */
  private jointMatrix(s: JointMatrixStmt<R>): void {
    const element: DataType = { kind: 'scalar', scalar: s.matrix.type.element };
    switch (s.fn) {
      case 'declare':
      case 'mad':
        return;
      case 'fill':
      case 'apply':
        this.expr(s.value);
        this.sameAs(s.value, element, `the value of a joint matrix ${s.fn}`);
        return;
      case 'load':
      case 'store': {
        for (const e of [s.memory, s.offset, s.stride]) this.expr(e);
        this.sameAs(s.offset, U32, `the offset of a joint matrix ${s.fn}`);
        this.sameAs(s.stride, U32, `the stride of a joint matrix ${s.fn}`);
        const memory = s.memory.type;
        if (!matrixMemoryParts(s.memory) || memory.kind !== 'array') {
          this.problem(s.span, `a joint matrix ${s.fn} from a ${s.memory.op}, not an array`);
        } else {
          this.sameAs(
            { ...s.memory, type: memory.element },
            element,
            `the memory of a joint matrix ${s.fn}`,
          );
        }
      }
    }
  }

  /** What is written must be a variable or a part of one, never a computed value. */
  private reference(target: Expr<R>): void {
    let root = target;
    while (root.op === 'index' || root.op === 'member' || root.op === 'swizzle') root = root.base;
    if (!['local', 'param', 'workgroupArray', 'deviceGlobal'].includes(root.op)) {
      this.problem(target.span, `the target of an assignment is a ${root.op}, not a variable`);
    }
  }

  private condition(e: Expr<R>, where: string): void {
    this.expr(e);
    this.sameAs(e, BOOL, `the condition of '${where}'`);
  }

  private sameAs(e: Expr<R>, type: DataType, what: string): void {
    this.typed(e.span, e.type, type, what);
  }

  private typed(span: Span, got: DataType, type: DataType, what: string): void {
    if (!sameType(got, type)) {
      this.problem(span, `${what} is ${typeName(got)}, expected ${typeName(type)}`);
    }
  }

  expr(e: Expr<R>): void {
    // Nothing stands for "no value": a call that gives none is a statement of its own.
    if (e.type.kind === 'struct' && e.type.fields.length === 0) {
      this.problem(e.span, `${e.op} has no value`);
    }
    switch (e.op) {
      case 'literal':
        this.literal(e);
        return;
      case 'local':
        if (!this.scopes.some((scope) => scope.has(e.name))) {
          this.problem(e.span, `'${e.name}' is used outside the scope of its declaration`);
        }
        return;
      case 'param':
        if (!this.params.has(e.name)) this.problem(e.span, `no kernel argument '${e.name}'`);
        return;
      case 'workgroupArray':
        if (!this.workgroupArrays.has(e.name)) {
          this.problem(e.span, `no workgroup array '${e.name}'`);
        }
        return;
      case 'specConstant':
      case 'deviceGlobal':
      case 'item':
      case 'launchSlot':
        return;
      case 'unary':
        this.expr(e.operand);
        if (e.operator === '!') this.boolShaped(e.operand, "the operand of '!'");
        return;
      case 'binary':
        this.expr(e.left);
        this.expr(e.right);
        if (e.operator === '&&' || e.operator === '||') {
          this.sameAs(e.left, BOOL, `the left operand of '${e.operator}'`);
          this.sameAs(e.right, BOOL, `the right operand of '${e.operator}'`);
        }
        if (COMPARISONS.has(e.operator)) this.boolShaped(e, `the result of '${e.operator}'`);
        return;
      case 'select':
        this.expr(e.condition);
        this.expr(e.whenTrue);
        this.expr(e.whenFalse);
        this.boolShaped(e.condition, 'the condition of select');
        this.sameAs(e.whenTrue, e.type, 'the first choice of select');
        this.sameAs(e.whenFalse, e.type, 'the second choice of select');
        return;
      case 'conditional':
        this.problem(e.span, 'a conditional left in the IR: it lowers to if/else statements');
        return;
      case 'call':
      case 'builtin':
      case 'construct':
        for (const a of e.args) this.expr(a);
        return;
      case 'group':
        this.group(e);
        return;
      case 'index':
        this.expr(e.base);
        this.expr(e.index);
        return;
      case 'member':
        this.member(e);
        return;
      case 'swizzle':
        this.swizzle(e);
        return;
      case 'atomic':
        this.expr(e.pointer);
        for (const a of e.args) this.expr(a);
        if (e.pointer.type.kind !== 'atomic') {
          this.problem(e.span, `${e.fn} on ${typeName(e.pointer.type)}, not an atomic`);
        }
        return;
      case 'fromHost': {
        this.expr(e.place);
        let root = e.place;
        while (root.op === 'index' || root.op === 'member') root = root.base;
        if (root.op !== 'deviceGlobal' && root.op !== 'param' && root.op !== 'specConstant') {
          this.problem(e.span, `fromHost of a ${root.op}, which is not host-shareable storage`);
        }
        this.sameAs(e.place, e.type, 'the place read by fromHost');
        return;
      }
      case 'toHost':
        this.expr(e.value);
        this.sameAs(e.value, e.type, 'the value of toHost');
        return;
    }
  }

  private literal(e: Expr<R> & { op: 'literal' }): void {
    const t = e.type;
    const ok =
      t.kind === 'scalar' &&
      (t.scalar === 'bool'
        ? typeof e.value === 'boolean'
        : typeof e.value === 'number' && fitsScalar(t.scalar, e.value));
    if (!ok) this.problem(e.span, `literal ${String(e.value)} is not a ${typeName(t)}`);
  }

  /** A group function's arity, operator and operand types, as the front end makes them. */
  private group(e: Expr<R> & { op: 'group' }): void {
    for (const a of e.args) this.expr(a);
    if (e.fn.startsWith('joint')) {
      this.joint(e);
      return;
    }
    if (e.comparison !== null) this.problem(e.span, `group function ${e.fn} with a comparison`);
    const [x, extra] = e.args;
    const scans = e.fn === 'reduce' || e.fn === 'exclusiveScan' || e.fn === 'inclusiveScan';
    const arity = scans ? [1, 2] : e.fn === 'any' || e.fn === 'all' || e.fn === 'none' ? [1] : [2];
    if (!arity.includes(e.args.length) || (e.operator !== null) !== scans) {
      this.problem(e.span, `group function ${e.fn} with ${e.args.length} arguments`);
      return;
    }
    if (
      scans ||
      e.fn === 'broadcast' ||
      e.fn === 'select' ||
      e.fn.startsWith('shift') ||
      e.fn === 'permuteXor'
    ) {
      this.sameAs(x!, e.type, `the value of group function ${e.fn}`);
    } else {
      this.sameAs(x!, BOOL, `the predicate of group function ${e.fn}`);
    }
    if (extra && scans) this.sameAs(extra, e.type, `the init of group function ${e.fn}`);
    if (extra && !scans) this.sameAs(extra, U32, `the index of group function ${e.fn}`);
    if (
      e.scope === 'workgroup' &&
      ['shiftLeft', 'shiftRight', 'permuteXor', 'select'].includes(e.fn)
    ) {
      this.problem(e.span, `${e.fn} over a work-group: sub-groups only`);
    }
  }

  /** The element type of a joint algorithm's workgroup array, or null (reported). */
  private jointElement(array: Expr<R>, span: Span, what: string): DataType | null {
    if (array.op !== 'workgroupArray' || array.type.kind !== 'array') {
      this.problem(span, `${what} is not a workgroup array`);
      return null;
    }
    return array.type.element;
  }

  /** `jointReduce`, `jointAny`, `jointAll`, `jointNone` over the work-group. */
  private joint(e: Expr<R> & { op: 'group' }): void {
    const [array, extra] = e.args;
    if (e.scope !== 'workgroup') this.problem(e.span, `${e.fn} over a sub-group`);
    const element = array && this.jointElement(array, e.span, `the array of ${e.fn}`);
    if (!element) return;
    if (e.fn === 'jointReduce') {
      if (e.operator === null || e.comparison !== null || e.args.length > 2) {
        this.problem(e.span, `group function ${e.fn} with ${e.args.length} arguments`);
        return;
      }
      this.typed(e.span, e.type, element, `the result of group function ${e.fn}`);
      if (extra) this.sameAs(extra, element, `the init of group function ${e.fn}`);
      return;
    }
    if (e.operator !== null || e.args.length !== (e.comparison === null ? 1 : 2)) {
      this.problem(e.span, `group function ${e.fn} with ${e.args.length} arguments`);
      return;
    }
    this.typed(e.span, e.type, BOOL, `the result of group function ${e.fn}`);
    if (e.comparison === null) {
      this.typed(e.span, element, BOOL, `the elements of group function ${e.fn}`);
    } else if (extra) {
      if (element.kind !== 'scalar' || element.scalar === 'bool') {
        this.problem(e.span, `${e.fn} compares ${typeName(element)} elements`);
      }
      this.sameAs(extra, element, `the compared value of group function ${e.fn}`);
    }
  }

  /** A joint scan: two workgroup arrays of one type (or one array), `init` of their element. */
  private jointScan(s: Stmt<R> & { kind: 'jointScan' }): void {
    this.expr(s.input);
    this.expr(s.output);
    if (s.init) this.expr(s.init);
    const element = this.jointElement(s.input, s.span, 'the input of a joint scan');
    if (!this.jointElement(s.output, s.span, 'the output of a joint scan') || !element) return;
    this.sameAs(s.output, s.input.type, 'the output of a joint scan');
    if (s.init) this.sameAs(s.init, element, 'the init of a joint scan');
  }

  private member(e: Expr<R> & { op: 'member' }): void {
    this.expr(e.base);
    const base = e.base.type;
    const field = base.kind === 'struct' ? base.fields.find((f) => f.name === e.member) : null;
    if (!field) this.problem(e.span, `${typeName(base)} has no member '${e.member}'`);
    else this.sameAs(e, field.type, `member '${e.member}'`);
  }

  private swizzle(e: Expr<R> & { op: 'swizzle' }): void {
    this.expr(e.base);
    const base = e.base.type;
    const size = base.kind === 'vector' ? base.size : 0;
    const set = SWIZZLE_SETS.find((s) => [...e.components].every((c) => s.includes(c)));
    const inRange = set !== undefined && [...e.components].every((c) => set.indexOf(c) < size);
    const n = e.components.length;
    const expected: DataType | null =
      base.kind !== 'vector'
        ? null
        : n === 1
          ? { kind: 'scalar', scalar: base.component }
          : n <= 4
            ? { kind: 'vector', component: base.component, size: n as 2 | 3 | 4 }
            : null;
    if (!inRange || !expected) {
      this.problem(e.span, `swizzle '.${e.components}' of ${typeName(base)}`);
    } else {
      this.sameAs(e, expected, `swizzle '.${e.components}'`);
    }
  }

  /** bool, or a vector of bool (component-wise comparisons and select conditions). */
  private boolShaped(e: Expr<R>, what: string): void {
    const t = e.type;
    const ok =
      (t.kind === 'scalar' && t.scalar === 'bool') ||
      (t.kind === 'vector' && t.component === 'bool');
    if (!ok) this.problem(e.span, `${what} is ${typeName(t)}, expected bool`);
  }
}
