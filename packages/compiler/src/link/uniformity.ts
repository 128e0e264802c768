/**
 * WGSL's uniformity analysis, on the linked IR (in the shape of naga's `UniformityDisruptor`
 * and Tint's `uniformity.cc`): a barrier, and a call of a function that reaches one, must be
 * reached by every item of the work-group. Control flow stops being uniform under a condition
 * whose value varies between items (an item's id, storage the kernel may write, workgroup
 * memory, an atomic) and after an early exit under such a condition. The analysis is flow
 * sensitive for locals, as Tint's is, and summarises each device function by what it needs of
 * its parameters, so a call is checked where both sides are known. A build it accepts is one
 * Tint accepts; the messages point at the `.sycl.ts` line and name the condition.
 */
import type { SymbolicId } from '@syclts/dsl';
import type { Message } from '../diagnostics/codes.js';
import { type Diagnostic, errorAt } from '../diagnostics/diagnostic.js';
import * as msg from '../diagnostics/link-messages.js';
import { holdsGroupFunction, mapChildren, matrixExprs } from '../ir/children.js';
import type { Block, Expr, Stmt } from '../ir/device-code.js';
import type { KernelDecl } from '../ir/device-object.js';
import type { Span } from '../ir/span.js';
import type { ResolvedFunction, ResolvedKernel, Use } from './resolve.js';

/** Why a value or control flow varies between items, for the message. */
interface Reason {
  /** Where the varying value comes from. */
  readonly module: string;
  readonly span: Span;
  readonly source: msg.VaryingSource;
  /** For control flow: the condition that made it vary. */
  readonly condition?: Span;
}

/**
 * A value's uniformity: varying (with the reason), or uniform given that the listed parameters
 * of the function being analysed are (an empty set: uniform).
 */
type Uniformity = { readonly varies: Reason } | { readonly params: ReadonlySet<number> };

const UNIFORM: Uniformity = { params: new Set() };

function join(a: Uniformity, b: Uniformity): Uniformity {
  if ('varies' in a) return a;
  if ('varies' in b) return b;
  if (b.params.size === 0) return a;
  if (a.params.size === 0) return b;
  return { params: new Set([...a.params, ...b.params]) };
}

function sameUniformity(a: Uniformity, b: Uniformity): boolean {
  if ('varies' in a || 'varies' in b) return 'varies' in a && 'varies' in b;
  return a.params.size === b.params.size && [...a.params].every((p) => b.params.has(p));
}

/** What a caller must know of a device function. */
interface Summary {
  /** Where it reaches a barrier that needs the caller's control flow uniform, if it does. */
  readonly barrier: { readonly module: string; readonly span: Span } | null;
  /** Parameters whose values decide whether it reaches the barrier: the arguments must be uniform. */
  readonly uniformParams: ReadonlySet<number>;
  /** Its result's uniformity, in terms of its parameters. */
  readonly result: Uniformity;
}

/** Reports every barrier or barrier-reaching call under control flow that varies between items. */
export function checkUniformity(
  kernels: readonly ResolvedKernel[],
  functions: ReadonlyMap<SymbolicId, ResolvedFunction | null>,
  diagnostics: Diagnostic[],
): void {
  const summaries = new Map<SymbolicId, Summary>();
  const summaryOf = (id: SymbolicId): Summary => {
    const known = summaries.get(id);
    if (known) return known;
    const fn = functions.get(id);
    const summary = fn ? summarise(fn, summaryOf, diagnostics) : OPAQUE;
    summaries.set(id, summary);
    return summary;
  };
  // Only a barrier, or a call of a function that reaches one, is checked: a kernel that
  // reaches none can have nothing to report, and neither can the functions it calls.
  const reaches = barrierReach(functions);
  for (const kernel of kernels) {
    if (
      holdsBarrier(kernel.decl.body) ||
      holdsGroupFunction(kernel.decl.body) ||
      kernel.uses.some(reaches)
    ) {
      analyseKernel(kernel, summaryOf, diagnostics);
    }
  }
}

/**
 * Whether a use is a call of a function that reaches a barrier (its summary's `barrier` is
 * set): one that holds a barrier statement, raw WGSL that names a barrier, or a call of such a
 * function. It may err towards true (any use of a function counts, called or not), never
 * towards false.
 */
function barrierReach(
  functions: ReadonlyMap<SymbolicId, ResolvedFunction | null>,
): (use: Use) => boolean {
  const known = new Map<SymbolicId, boolean>();
  const reaches = (use: Use): boolean => {
    if (use.kind !== 'function') return false;
    const cached = known.get(use.id);
    if (cached !== undefined) return cached;
    // A call back into the path (recursion, reported before this check runs) adds nothing.
    known.set(use.id, false);
    const fn = functions.get(use.id);
    let result = false;
    if (fn) {
      const { body } = fn.decl;
      result =
        body.kind === 'wgsl'
          ? RAW_BARRIERS.test(body.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''))
          : holdsBarrier(body.block) || fn.uses.some(reaches);
    }
    known.set(use.id, result);
    return result;
  };
  return reaches;
}

/** Whether a barrier statement (or a joint scan, which holds barriers) is anywhere in `block`. */
function holdsBarrier(block: Block<SymbolicId>): boolean {
  const barrier = (s: Stmt<SymbolicId> | null) => s?.kind === 'barrier' || s?.kind === 'jointScan';
  return block.some((s) => {
    switch (s.kind) {
      case 'barrier':
      case 'jointScan':
        return true;
      case 'if':
        return holdsBarrier(s.then) || (s.else !== null && holdsBarrier(s.else));
      case 'for':
        return barrier(s.init) || barrier(s.update) || holdsBarrier(s.body);
      case 'while':
      case 'block':
        return holdsBarrier(s.body);
      default:
        return false;
    }
  });
}

const OPAQUE: Summary = { barrier: null, uniformParams: new Set(), result: UNIFORM };

const RAW_BARRIERS = /\b(workgroupBarrier|storageBarrier|textureBarrier|workgroupUniformLoad)\b/;

function summarise(
  fn: ResolvedFunction,
  summaryOf: (id: SymbolicId) => Summary,
  diagnostics: Diagnostic[],
): Summary {
  const { decl } = fn;
  const params = decl.params.map((_, i): Uniformity => ({ params: new Set([i]) }));
  if (decl.body.kind === 'wgsl') {
    // Raw WGSL is checked by the GPU's compiler; a barrier in it is taken as needing all arguments.
    const text = decl.body.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
    const result = params.reduce(join, UNIFORM);
    return RAW_BARRIERS.test(text)
      ? {
          barrier: { module: fn.module, span: decl.span },
          uniformParams: new Set(params.keys()),
          result,
        }
      : { barrier: null, uniformParams: new Set(), result };
  }
  const analysis = new Analysis(fn.module, summaryOf, diagnostics, {
    locals: new Map(decl.params.map((p, i) => [p.name, params[i]!])),
    kernel: null,
  });
  analysis.run(decl.body.block, UNIFORM);
  return {
    barrier: analysis.barrier,
    uniformParams: analysis.uniformParams,
    result: analysis.result,
  };
}

function analyseKernel(
  kernel: ResolvedKernel,
  summaryOf: (id: SymbolicId) => Summary,
  diagnostics: Diagnostic[],
): void {
  const { decl } = kernel;
  for (const p of decl.params) {
    if (p.kind !== 'reduction' || p.operator.kind !== 'function') continue;
    const { barrier } = summaryOf(p.operator.fn);
    if (!barrier) continue;
    const name = p.operator.fn.slice(p.operator.fn.indexOf('#') + 1);
    diagnostics.push(
      errorAt(msg.combinerBarrier(name, p.name), kernel.module, p.span, [
        { file: barrier.module, span: barrier.span, message: msg.barrierReached() },
      ]),
    );
  }
  const analysis = new Analysis(kernel.module, summaryOf, diagnostics, {
    locals: new Map(),
    kernel: decl,
  });
  // A basic kernel's items past the range return before its body (the printed bounds guard).
  const start: Uniformity =
    decl.range.kind === 'basic'
      ? {
          varies: {
            module: kernel.module,
            span: decl.span,
            source: { kind: 'pastRange' },
          },
        }
      : UNIFORM;
  analysis.run(decl.body, start);
}

/** The state at a point of a body: each local's uniformity and the control flow's. */
interface Flow {
  locals: Map<string, Uniformity>;
  control: Uniformity;
}

/** The flows that leave a loop body other than by falling off its end. */
interface LoopExits {
  breaks: Flow[];
  continues: Flow[];
}

class Analysis {
  barrier: { module: string; span: Span } | null = null;
  readonly uniformParams = new Set<number>();
  result: Uniformity = UNIFORM;
  /** Control flow at the returns seen in the loop being analysed (and beyond). */
  #returns: Uniformity = UNIFORM;
  #loop: LoopExits | null = null;
  /** Each loop's last analysis, by its body: the state it began in and what it gave. */
  readonly #loops = new Map<
    Block<SymbolicId>,
    { entry: Flow; after: Flow; returns: Uniformity; leaves: boolean }
  >();
  readonly #reported = new Set<string>();

  constructor(
    private readonly module: string,
    private readonly summaryOf: (id: SymbolicId) => Summary,
    private readonly diagnostics: Diagnostic[],
    private readonly start: {
      readonly locals: Map<string, Uniformity>;
      readonly kernel: KernelDecl<SymbolicId> | null;
    },
  ) {}

  run(body: Block<SymbolicId>, control: Uniformity): void {
    this.block(body, { locals: new Map(this.start.locals), control });
  }

  /** Runs `block` from `flow`; returns whether it may leave by return, break or continue. */
  block(block: Block<SymbolicId>, flow: Flow): boolean {
    let exits = false;
    for (const s of block) exits = this.stmt(s, flow) || exits;
    return exits;
  }

  stmt(s: Stmt<SymbolicId>, flow: Flow): boolean {
    switch (s.kind) {
      case 'let':
        flow.locals.set(s.name, s.init ? this.value(s.init, flow) : UNIFORM);
        return false;
      case 'assign': {
        let value = join(this.value(s.value, flow), this.value(s.target, flow, true));
        if (s.operator !== '=') value = join(value, this.value(s.target, flow));
        this.store(s.target, value, flow);
        return false;
      }
      case 'increment':
        this.store(s.target, this.value(s.target, flow), flow);
        return false;
      case 'expr':
        this.value(s.expr, flow);
        return false;
      case 'call': {
        this.call(s.callee, s.args, s.span, flow);
        return false;
      }
      case 'atomicStore':
        this.value(s.pointer, flow, true);
        this.value(s.value, flow);
        return false;
      case 'barrier':
        this.needUniform(flow.control, s.span, null, msg.nonUniformBarrier());
        return false;
      // Any item may combine, any number of times: the reduction's own combining is uniform.
      case 'combine':
        if (s.index) this.value(s.index, flow);
        this.value(s.value, flow);
        return false;
      case 'textureStore':
      case 'log':
        for (const a of s.args) this.value(a, flow);
        return false;
      case 'jointScan': {
        if (s.init) this.value(s.init, flow);
        const name = s.fn === 'exclusiveScan' ? 'jointExclusiveScan' : 'jointInclusiveScan';
        this.needUniform(flow.control, s.span, null, msg.nonUniformGroupFunction(name));
        return false;
      }
      // Every item of the sub-group takes part; a declaration is only a zero value.
      case 'jointMatrix':
        for (const e of matrixExprs(s)) this.value(e, flow);
        if (s.fn !== 'declare') {
          this.needUniform(flow.control, s.span, null, msg.nonUniformMatrixFunction(s.fn));
        }
        return false;
      case 'if': {
        const condition = this.value(s.condition, flow);
        const inner = join(flow.control, decidedBy(condition, s.condition.span));
        const then: Flow = { locals: new Map(flow.locals), control: inner };
        const otherwise: Flow = { locals: new Map(flow.locals), control: inner };
        const thenExits = this.block(s.then, then);
        const exits = (s.else !== null && this.block(s.else, otherwise)) || thenExits;
        flow.locals = joinLocals(then.locals, otherwise.locals);
        // Items that left inside the branches leave the others to go on alone.
        if (exits) flow.control = [inner, then.control, otherwise.control].reduce(join);
        return exits;
      }
      case 'while':
        return this.loop(null, s.condition, null, s.body, flow);
      case 'for': {
        if (s.init) this.stmt(s.init, flow);
        return this.loop(
          s.init?.kind === 'let' ? s.init.name : null,
          s.condition,
          s.update,
          s.body,
          flow,
        );
      }
      case 'break':
      case 'continue':
        this.#loop?.[s.kind === 'break' ? 'breaks' : 'continues'].push(copy(flow));
        return true;
      case 'return':
        if (s.value) {
          this.result = join(this.result, join(this.value(s.value, flow), asValue(flow.control)));
        }
        this.#returns = join(this.#returns, flow.control);
        return true;
      case 'block': {
        const inner: Flow = { locals: new Map(flow.locals), control: flow.control };
        const exits = this.block(s.body, inner);
        for (const name of flow.locals.keys()) flow.locals.set(name, inner.locals.get(name)!);
        flow.control = inner.control;
        return exits;
      }
    }
  }

  /**
   * A loop: its start's state is the entry's joined with every way back to the start (the end
   * of the body, `continue`), and with the control flow of every exit, until nothing changes.
   * After it, items that broke out have rejoined; items that returned have not.
   */
  loop(
    counter: string | null,
    condition: Expr<SymbolicId> | null,
    update: Stmt<SymbolicId> | null,
    body: Block<SymbolicId>,
    flow: Flow,
  ): boolean {
    const outerLoop = this.#loop;
    const outerReturns = this.#returns;
    // An enclosing loop's later rounds meet this loop again, usually in the same state.
    const known = this.#loops.get(body);
    if (known && sameFlow(known.entry, flow)) {
      this.#returns = join(outerReturns, known.returns);
      flow.locals = new Map(known.after.locals);
      flow.control = known.after.control;
      return known.leaves;
    }
    const entry = copy(flow);
    let start: Flow = copy(flow);
    let breaks: Flow[] = [];
    // The states only ever vary more, and there are finitely many: this ends.
    for (;;) {
      this.#loop = { breaks: [], continues: [] };
      this.#returns = UNIFORM;
      const iteration = copy(start);
      if (condition) {
        const test = this.value(condition, iteration);
        iteration.control = join(iteration.control, decidedBy(test, condition.span));
      }
      this.block(body, iteration);
      const back = joinFlows([iteration, ...this.#loop.continues]);
      if (update) this.stmt(update, back);
      const exits = [...this.#loop.breaks, ...this.#loop.continues];
      const control = [back.control, this.#returns, ...exits.map((e) => e.control)].reduce(join);
      // Only what was declared before the loop is carried into the next iteration.
      const locals = new Map(start.locals);
      for (const [name, u] of locals) locals.set(name, join(u, back.locals.get(name) ?? UNIFORM));
      const next: Flow = { locals, control: join(start.control, control) };
      breaks = this.#loop.breaks;
      if (sameFlow(next, start)) break;
      start = next;
    }
    const returns = this.#returns;
    this.#loop = outerLoop;
    this.#returns = join(outerReturns, returns);
    const after = joinFlows([start, ...breaks]);
    if (counter) after.locals.delete(counter);
    flow.locals = after.locals;
    flow.control = join(flow.control, returns);
    // A break or continue leaves only this loop; a return leaves the enclosing code too.
    const leaves = holdsReturn(body);
    this.#loops.set(body, { entry, after: copy(flow), returns, leaves });
    return leaves;
  }

  /** The locals written through `target` take `value`, and the control flow's variation. */
  store(target: Expr<SymbolicId>, value: Uniformity, flow: Flow): void {
    let root = target;
    let whole = true;
    while (root.op === 'index' || root.op === 'member' || root.op === 'swizzle') {
      whole = false;
      root = root.base;
    }
    if (root.op !== 'local') return;
    const written = join(value, asValue(flow.control));
    const before = flow.locals.get(root.name) ?? UNIFORM;
    flow.locals.set(root.name, whole ? written : join(before, written));
  }

  /** A value's uniformity; `place`: only the indices of a written place are read. */
  value(e: Expr<SymbolicId>, flow: Flow, place = false): Uniformity {
    switch (e.op) {
      case 'literal':
      case 'specConstant':
      case 'launchSlot':
        return UNIFORM;
      case 'local':
        return place ? UNIFORM : (flow.locals.get(e.name) ?? UNIFORM);
      case 'param':
        return place ? UNIFORM : this.param(e);
      case 'workgroupArray':
        return place ? UNIFORM : this.varies(e.span, { kind: 'workgroupMemory' });
      case 'deviceGlobal':
        return place ? UNIFORM : this.varies(e.span, { kind: 'deviceGlobal' });
      case 'item':
        return e.query === 'globalId' ||
          e.query === 'localId' ||
          e.query === 'globalLinearId' ||
          e.query === 'localLinearId'
          ? this.varies(e.span, { kind: 'itemId' })
          : UNIFORM;
      case 'atomic':
        this.value(e.pointer, flow, true);
        for (const a of e.args) this.value(a, flow);
        return this.varies(e.span, { kind: 'atomic' });
      case 'group': {
        const values = e.args.map((a) => this.value(a, flow));
        this.needUniform(flow.control, e.span, null, msg.nonUniformGroupFunction(e.fn));
        return this.groupResult(e, values);
      }
      case 'call':
        return this.call(e.callee, e.args, e.span, flow);
      case 'texture': {
        const args = this.children(e, flow);
        const param = this.start.kernel?.params.find((p) => p.name === e.texture);
        const writable =
          param?.kind === 'texture' &&
          param.texture.kind === 'storageTexture' &&
          param.texture.access === 'read_write';
        // Other items may write a read_write storage texture's texels between two loads.
        return writable && e.fn === 'textureLoad'
          ? this.varies(e.span, { kind: 'writable', accessor: e.texture })
          : args;
      }
      case 'builtin':
        if (e.name === 'arrayLength') return UNIFORM;
        return this.children(e, flow);
      case 'binary':
        if (e.operator === '&&' || e.operator === '||') {
          const left = this.value(e.left, flow);
          // The right operand runs only for the items the left one lets through.
          const right = this.value(e.right, {
            ...flow,
            control: join(flow.control, decidedBy(left, e.left.span)),
          });
          return join(left, right);
        }
        return this.children(e, flow);
      case 'index':
        return join(this.value(e.base, flow, place), this.value(e.index, flow));
      case 'member':
      case 'swizzle':
        return this.value(e.base, flow, place);
      default:
        return this.children(e, flow);
    }
  }

  /**
   * A work-group's reduction, broadcast and predicates give every item the same value (the
   * printer reads it with `workgroupUniformLoad`, so that Tint agrees); an `init` combined in
   * per item keeps its own uniformity. Scans, and every sub-group function, vary.
   */
  groupResult(e: Expr<SymbolicId> & { op: 'group' }, values: readonly Uniformity[]): Uniformity {
    if (e.scope === 'subgroup') return this.varies(e.span, { kind: 'groupResult' });
    switch (e.fn) {
      case 'reduce':
      case 'jointReduce':
        return values[1] ?? UNIFORM;
      case 'any':
      case 'all':
      case 'none':
      case 'jointAny':
      case 'jointAll':
      case 'jointNone':
        return UNIFORM;
      case 'broadcast':
        this.needUniform(values[1]!, e.args[1]!.span, null, msg.nonUniformBroadcastId());
        return UNIFORM;
      default:
        return this.varies(e.span, { kind: 'groupResult' });
    }
  }

  children(e: Expr<SymbolicId>, flow: Flow): Uniformity {
    let u = UNIFORM;
    mapChildren(e, (child) => {
      u = join(u, this.value(child, flow));
      return child;
    });
    return u;
  }

  param(e: Expr<SymbolicId> & { op: 'param' }): Uniformity {
    const param = this.start.kernel?.params.find((p) => p.name === e.name);
    // Value arguments live in a uniform buffer and read-only accessors in read-only storage.
    if (param?.kind !== 'accessor' || param.access === 'read') return UNIFORM;
    return this.varies(e.span, { kind: 'writable', accessor: e.name });
  }

  varies(span: Span, source: msg.VaryingSource): Uniformity {
    return { varies: { module: this.module, span, source } };
  }

  call(callee: SymbolicId, args: readonly Expr<SymbolicId>[], span: Span, flow: Flow): Uniformity {
    const values = args.map((a) => this.value(a, flow));
    const summary = this.summaryOf(callee);
    if (summary.barrier) {
      const name = callee.slice(callee.indexOf('#') + 1);
      this.needUniform(flow.control, span, summary.barrier, msg.nonUniformCall(name));
      for (const p of summary.uniformParams) {
        const u = values[p];
        if (!u) continue;
        this.needUniform(u, args[p]!.span, summary.barrier, msg.nonUniformArgument(p + 1, name));
      }
    }
    if ('varies' in summary.result) return summary.result;
    return [...summary.result.params].reduce(
      (u, p) => join(u, values[p] ?? UNIFORM),
      UNIFORM as Uniformity,
    );
  }

  /** What is at `span` needs `u` uniform: an error where it varies, a need of the caller's where it depends on parameters. */
  needUniform(
    u: Uniformity,
    span: Span,
    barrier: { module: string; span: Span } | null,
    message: Message,
  ): void {
    this.barrier ??= barrier ?? { module: this.module, span };
    if ('params' in u) {
      for (const p of u.params) this.uniformParams.add(p);
      return;
    }
    const key = `${span.start}:${span.end}`;
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    const { condition, ...origin } = u.varies;
    // An origin inside the condition is named by the condition's note already.
    const inCondition =
      condition !== undefined &&
      origin.module === this.module &&
      origin.span.start >= condition.start &&
      origin.span.end <= condition.end;
    const related = [
      ...(condition
        ? [
            {
              file: this.module,
              span: condition,
              message: msg.varyingCondition(origin.source),
            },
          ]
        : []),
      ...(inCondition
        ? []
        : [
            {
              file: origin.module,
              span: origin.span,
              message: msg.varyingValue(origin.source),
            },
          ]),
      ...(barrier && barrier.span !== span
        ? [{ file: barrier.module, span: barrier.span, message: msg.barrierReached() }]
        : []),
    ];
    this.diagnostics.push(errorAt(message, this.module, span, related));
  }
}

/** Control flow under a condition of uniformity `u`: where it varies, the condition is named. */
function decidedBy(u: Uniformity, condition: Span): Uniformity {
  return 'varies' in u && !u.varies.condition ? { varies: { ...u.varies, condition } } : u;
}

/** A value written under control flow `u` varies as it does; the condition is the flow's own. */
function asValue(u: Uniformity): Uniformity {
  if (!('varies' in u) || !u.varies.condition) return u;
  const { condition: _, ...origin } = u.varies;
  return { varies: origin };
}

function holdsReturn(block: Block<SymbolicId>): boolean {
  return block.some((s) => {
    switch (s.kind) {
      case 'return':
        return true;
      case 'if':
        return holdsReturn(s.then) || (s.else !== null && holdsReturn(s.else));
      case 'for':
      case 'while':
      case 'block':
        return holdsReturn(s.body);
      default:
        return false;
    }
  });
}

function copy(flow: Flow): Flow {
  return { locals: new Map(flow.locals), control: flow.control };
}

function joinLocals(
  a: ReadonlyMap<string, Uniformity>,
  b: ReadonlyMap<string, Uniformity>,
): Map<string, Uniformity> {
  const out = new Map(a);
  for (const [name, u] of b) out.set(name, join(out.get(name) ?? UNIFORM, u));
  return out;
}

function joinFlows(flows: readonly Flow[]): Flow {
  const [first, ...rest] = flows;
  const out = copy(first!);
  for (const f of rest) {
    out.locals = joinLocals(out.locals, f.locals);
    out.control = join(out.control, f.control);
  }
  return out;
}

function sameFlow(a: Flow, b: Flow): boolean {
  if (!sameUniformity(a.control, b.control) || a.locals.size !== b.locals.size) return false;
  for (const [name, u] of a.locals) {
    const other = b.locals.get(name);
    if (!other || !sameUniformity(u, other)) return false;
  }
  return true;
}
