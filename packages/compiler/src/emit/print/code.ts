/** Prints device code (expressions and statements) as WGSL for one image and variant. */

import type { DataType, FoldedArgs, ScalarName, SpecConstantMode, SymbolicId } from '@syclts/dsl';
import { HELPER_BUILTINS } from '../../builtins/overloads.js';
import { endsLine } from '../../diagnostics/lines.js';
import { matrixExprs } from '../../ir/children.js';
import type { Block, Expr, ItemQuery, Stmt } from '../../ir/device-code.js';
import type { WgslPart } from '../../ir/device-object.js';
import { matrixMemoryParts } from '../../ir/matrix-memory.js';
import type {
  LinkedDeviceGlobal,
  LinkedImage,
  LinkedKernel,
  LinkedSpecConstant,
  SizeValue,
} from '../../link/linked-image.js';
import { logKey } from '../../link/log.js';
import { EMULATION_WORDS, LAUNCH_FIELDS, LAUNCH_SLOT } from '../../link/wgsl-names.js';
import { elementsInPlace } from '../transforms/emulated-elements.js';
import { slotTakers } from '../transforms/index.js';
import { atomicSpace, isF32Atomic, isF32Helper } from './atomics.js';
import type { GroupPrinter, JointArray } from './collectives.js';
import { type BuiltinHelpers, wordRead } from './helpers.js';
import { fromHost, toHost } from './host-values.js';
import { LineOrigins, type Origin } from './line-origins.js';
import { literal } from './literals.js';
import type { MatrixPrinter } from './matrices.js';
import { type FunctionNames, fieldName, type ImageNames } from './names.js';
import { namesF16 } from './raw-f16.js';
import type { WgslTypes } from './types.js';

const INDENT = '  ';
const COMPARISONS: ReadonlySet<string> = new Set(['<', '>', '<=', '>=']);
const COMPONENTS = 'xyz';

/** Image-wide naming: what a symbolic ID is called in this variant's WGSL. */
export class ImageScope {
  readonly specConstants: ReadonlyMap<SymbolicId, LinkedSpecConstant>;
  readonly deviceGlobals: ReadonlyMap<SymbolicId, LinkedDeviceGlobal>;
  readonly functions: ReadonlyMap<SymbolicId, string>;
  /** Functions that take the launch slot as their last parameter (emulated variant). */
  readonly slotParams: ReadonlySet<SymbolicId>;
  readonly leafNames: ReadonlyMap<number, string>;
  readonly origins = new LineOrigins();

  constructor(
    readonly image: LinkedImage,
    readonly mode: SpecConstantMode,
    readonly types: WgslTypes,
    readonly names: ImageNames,
    readonly helpers: BuiltinHelpers,
    readonly groups: GroupPrinter,
    readonly matrices: MatrixPrinter,
  ) {
    this.specConstants = new Map(image.specConstants.map((c) => [c.symbolicId, c]));
    this.deviceGlobals = new Map(image.deviceGlobals.map((g) => [g.symbolicId, g]));
    this.functions = new Map(image.functions.map((f) => [f.symbolicId, f.wgslName]));
    this.slotParams = slotTakers(image, mode);
    this.leafNames = new Map(
      image.specConstants.flatMap((c) => c.info.leaves.map((l, i) => [l.id, c.leafNames[i]!])),
    );
  }

  /**
   * Where a specialization constant's value is: an override, a rebuilt private, a buffer field,
   * or a value rebuilt from the buffer's words.
   */
  specConstant(id: SymbolicId): string {
    const c = this.specConstants.get(id)!;
    if (this.mode === 'native') return c.wgslName;
    const emulation = this.image.emulation!;
    if (!emulation.inWords) return `${emulation.wgslName}[${LAUNCH_SLOT}].${c.wgslName}`;
    const record = `${emulation.wgslName}[${LAUNCH_SLOT}].${EMULATION_WORDS}`;
    if (c.info.type.kind === 'scalar') {
      return wordRead(record, c.info.emulationOffset, c.info.leaves[0]!);
    }
    return `${this.helpers.words(c, record)}(${LAUNCH_SLOT})`;
  }

  /**
   * The helper that reads one element of array constant `id` from the words of its emulation
   * record (as `emulated-elements` leaves such reads), or null where the constant is indexed as
   * printed: an override's private, or a record declared member by member.
   */
  specConstantElement(id: SymbolicId): string | null {
    const emulation = this.image.emulation;
    if (this.mode === 'native' || !emulation?.inWords) return null;
    const c = this.specConstants.get(id)!;
    const { type } = c.info;
    if (!elementsInPlace(type, true) || type.kind !== 'array' || type.element.kind !== 'scalar') {
      return null;
    }
    const record = `${emulation.wgslName}[${LAUNCH_SLOT}].${EMULATION_WORDS}`;
    return this.helpers.element(c, type.element.scalar, type.length, record);
  }

  /** The number of items in a kernel's work-group, as a u32 override-expression. */
  items(kernel: LinkedKernel): string {
    const sizes = kernel.workgroupSize.filter((v) => v.kind !== 'literal' || v.value !== 1);
    if (sizes.every((v) => v.kind === 'literal')) {
      return `${sizes.reduce((n, v) => n * (v.kind === 'literal' ? v.value : 1), 1)}u`;
    }
    return `(${sizes.map((v) => this.size(v)).join(' * ')})`;
  }

  /** A size as a u32 override-expression. */
  size(value: SizeValue): string {
    switch (value.kind) {
      case 'literal':
        return `${value.value}u`;
      case 'specConstant': {
        const name = this.leafNames.get(value.leafId)!;
        return value.scalar === 'u32' ? name : `u32(${name})`;
      }
      case 'binary':
        return `(${this.size(value.left)} ${value.operator} ${this.size(value.right)})`;
    }
  }
}

/** Prints transformed IR: every conversion and substitution is already in the tree. */
export class CodePrinter {
  constructor(
    private readonly scope: ImageScope,
    private readonly kernel: LinkedKernel | null,
    /** The `.sycl.ts` module of the code printed: lines are tagged with places in it. */
    readonly module: string,
    /** The WGSL names of the printed function's parameters and locals. */
    readonly names: FunctionNames,
    /** In a folded entry point, the overrides its folded arguments are read from, by argument. */
    private readonly foldedArgs: FoldedArgs['args'] | null = null,
  ) {}

  /** `hint` names a struct type on first sight: the variable or function that holds it. */
  type(type: DataType, hint = 'value'): string {
    return this.scope.types.type(type, hint);
  }

  expr(e: Expr<SymbolicId>): string {
    switch (e.op) {
      case 'literal':
        return literal(e.value, this.scope.types.scalar(scalarOf(e.type)));
      case 'local':
        return this.names.of(e.name);
      case 'param': {
        const kernel = this.kernel!;
        return (
          kernel.bindingNames.get(e.name) ??
          this.foldedArgs?.find((a) => a.name === e.name)?.override ??
          `${launchPlace(kernel)}.${this.scope.names.launchField(kernel, e.name)}`
        );
      }
      case 'workgroupArray':
        return this.kernel!.workgroupArrays.find((w) => w.name === e.name)!.wgslName;
      case 'specConstant':
        return this.scope.specConstant(e.ref);
      case 'deviceGlobal':
        return this.scope.deviceGlobals.get(e.ref)!.place;
      case 'unary':
        return `${e.operator}${this.#operand(e.operand)}`;
      case 'binary': {
        const text = `${this.#operand(e.left)} ${e.operator} ${this.#operand(e.right)}`;
        // `f(a < b, c > d)` parses as a template list: comparisons carry their own parentheses.
        return COMPARISONS.has(e.operator) ? `(${text})` : text;
      }
      case 'select':
        return `select(${this.expr(e.whenFalse)}, ${this.expr(e.whenTrue)}, ${this.expr(e.condition)})`;
      case 'conditional':
        throw new Error('syclts compiler bug: a conditional reached the printer');
      case 'call':
        return `${this.scope.functions.get(e.callee)!}(${e.args.map((a) => this.expr(a)).join(', ')})`;
      case 'launchSlot':
        return LAUNCH_SLOT;
      case 'texture': {
        const names = this.kernel!.bindingNames;
        const handles = [names.get(e.texture)!, ...(e.sampler ? [names.get(e.sampler)!] : [])];
        const args = e.args.map((a) => this.expr(a));
        // textureGather's component comes before the texture.
        const all =
          e.fn === 'textureGather'
            ? [args[0]!, ...handles, ...args.slice(1)]
            : [...handles, ...args];
        return `${e.fn}(${all.join(', ')})`;
      }
      case 'builtin': {
        if (HELPER_BUILTINS.has(e.name)) {
          const helper = this.scope.helpers.call(e.name, e.args[0]!.type);
          return `${helper}(${e.args.map((a) => this.expr(a)).join(', ')})`;
        }
        // arrayLength takes a pointer to the runtime-sized array.
        const args = e.args.map((a) =>
          e.name === 'arrayLength' ? `&${this.expr(a)}` : this.expr(a),
        );
        return `${e.name}(${args.join(', ')})`;
      }
      case 'construct':
        return `${this.type(e.type)}(${e.args.map((a) => this.expr(a)).join(', ')})`;
      case 'index':
        if (e.base.op === 'specConstant') {
          const at = this.scope.specConstantElement(e.base.ref);
          if (at !== null) {
            const i = this.expr(e.index);
            const unsigned = e.index.type.kind === 'scalar' && e.index.type.scalar === 'u32';
            return `${at}(${LAUNCH_SLOT}, ${unsigned ? i : `u32(${i})`})`;
          }
        }
        return `${this.#operand(e.base)}[${this.expr(e.index)}]`;
      case 'member':
        return `${this.#operand(e.base)}.${fieldName(e.base.type, e.member)}`;
      case 'swizzle':
        return `${this.#operand(e.base)}.${e.components}`;
      case 'item':
        return convert(this.#item(e.query, e.dimension), e.type);
      case 'group':
        if (e.fn.startsWith('joint')) {
          return this.scope.groups.joint(
            this.kernel!,
            e,
            this.#workgroupArray(e.args[0]!),
            e.args[1] && this.expr(e.args[1]),
            this.scope.items(this.kernel!),
          );
        }
        return this.scope.groups.call(
          this.kernel!,
          e,
          e.args.map((a) => this.expr(a)),
          this.scope.items(this.kernel!),
        );
      case 'atomic':
        if (isF32Atomic(e.pointer)) return this.#f32Atomic(e);
        return `${e.fn}(&${this.expr(e.pointer)}${e.args.map((a) => `, ${this.expr(a)}`).join('')})`;
      case 'fromHost':
        return fromHost(this.expr(e.place), e.type, this.#hint(e.place), this.scope.types);
      case 'toHost':
        return toHost(this.expr(e.value), e.type, 'value', this.scope.types);
    }
  }

  /** An operation on an `atomic(f32)`, held as the bits of an `atomic<u32>` (atomics.ts). */
  #f32Atomic(e: Extract<Expr<SymbolicId>, { op: 'atomic' }>): string {
    const pointer = `&${this.expr(e.pointer)}`;
    const args = e.args.map((a) => this.expr(a));
    if (isF32Helper(e.fn)) {
      const helper = this.scope.helpers.atomic(e.fn, atomicSpace(e.pointer), e.type);
      return `${helper}(${[pointer, ...args].join(', ')})`;
    }
    const bits = args.map((a) => `, bitcast<u32>(${a})`).join('');
    return `bitcast<f32>(${e.fn}(${pointer}${bits}))`;
  }

  /** Names a struct type first met converting a host place: after the place's variable. */
  #hint(place: Expr<SymbolicId>): string {
    let root = place;
    while (root.op === 'index' || root.op === 'member') root = root.base;
    switch (root.op) {
      case 'deviceGlobal':
        return this.scope.deviceGlobals.get(root.ref)!.wgslName;
      case 'specConstant':
        return this.scope.specConstants.get(root.ref)!.wgslName;
      case 'param':
        return `${this.kernel!.launchName}_${root.name}`;
      default:
        return 'value';
    }
  }

  /** An expression that stands alone (a condition, an initializer): no template-list ambiguity to guard. */
  #whole(e: Expr<SymbolicId>): string {
    if (e.op === 'binary' && COMPARISONS.has(e.operator)) {
      return `${this.#operand(e.left)} ${e.operator} ${this.#operand(e.right)}`;
    }
    return this.expr(e);
  }

  /** Operands of operators and bases of accesses get parentheses when they are operators themselves. */
  #operand(e: Expr<SymbolicId>): string {
    const text = this.expr(e);
    return e.op === 'binary' || e.op === 'unary' || text.startsWith('-') ? `(${text})` : text;
  }

  /** A joint algorithm's workgroup array: its WGSL name and its length. */
  #workgroupArray(e: Expr<SymbolicId>): JointArray {
    const w = this.kernel!.workgroupArrays.find(
      (w) => e.op === 'workgroupArray' && w.name === e.name,
    )!;
    return { name: w.wgslName, length: w.lengthOverride ?? this.scope.size(w.length) };
  }

  #item(query: ItemQuery, d: number): string {
    const kernel = this.kernel!;
    const dims = kernel.info.dimensions;
    const c = COMPONENTS[dims - 1 - d]!;
    const range = `${launchPlace(kernel)}.${LAUNCH_FIELDS.globalRange}`;
    switch (query) {
      case 'globalId':
        return `gid.${c}`;
      case 'globalRange':
        return `${range}.${c}`;
      case 'localId':
        return `lid.${c}`;
      case 'localRange':
        return this.scope.size(kernel.workgroupSize['xyz'.indexOf(c)]!);
      case 'groupId':
        return `wid.${c}`;
      case 'groupRange': {
        // A basic range need not be a multiple of the work-group: its last one is partial.
        const size = this.scope.size(kernel.workgroupSize['xyz'.indexOf(c)]!);
        return kernel.info.ndRange
          ? `(${range}.${c} / ${size})`
          : `((${range}.${c} + ${size} - 1u) / ${size})`;
      }
      case 'globalLinearId':
        return dims === 1
          ? 'gid.x'
          : dims === 2
            ? `(gid.x + gid.y * ${range}.x)`
            : `(gid.x + gid.y * ${range}.x + gid.z * ${range}.x * ${range}.y)`;
      case 'localLinearId':
        return 'lindex';
      case 'groupLinearId': {
        // Per WGSL component (x is the last SYCL dimension).
        const groups = Array.from({ length: dims }, (_, i) =>
          this.#item('groupRange', dims - 1 - i),
        );
        return dims === 1
          ? 'wid.x'
          : dims === 2
            ? `(wid.x + wid.y * ${groups[0]})`
            : `(wid.x + wid.y * ${groups[0]} + wid.z * ${groups[0]} * ${groups[1]})`;
      }
      case 'localLinearRange':
        return this.scope.items(kernel);
      case 'groupLinearRange':
        return `(${Array.from({ length: dims }, (_, i) => this.#item('groupRange', i)).join(' * ')})`;
      default:
        return this.scope.groups.query(kernel, query, this.scope.items(kernel));
    }
  }

  /** Statements at `depth` levels of indentation, one per line. */
  block(block: Block<SymbolicId>, depth: number): string[] {
    return block.flatMap((s) =>
      this.stmt(s, depth).map((line) => this.scope.origins.mark(line, this.module, s.span)),
    );
  }

  stmt(s: Stmt<SymbolicId>, depth: number): string[] {
    const pad = INDENT.repeat(depth);
    switch (s.kind) {
      case 'if': {
        const lines = [
          `${pad}if (${this.#whole(s.condition)}) {`,
          ...this.block(s.then, depth + 1),
        ];
        if (s.else) lines.push(`${pad}} else {`, ...this.block(s.else, depth + 1));
        return [...lines, `${pad}}`];
      }
      case 'for': {
        const init = s.init ? this.simple(s.init) : '';
        const cond = s.condition ? this.#whole(s.condition) : '';
        const update = s.update ? this.simple(s.update) : '';
        return [
          `${pad}for (${init}; ${cond}; ${update}) {`,
          ...this.block(s.body, depth + 1),
          `${pad}}`,
        ];
      }
      case 'while':
        return [
          `${pad}while (${this.#whole(s.condition)}) {`,
          ...this.block(s.body, depth + 1),
          `${pad}}`,
        ];
      case 'block':
        return [`${pad}{`, ...this.block(s.body, depth + 1), `${pad}}`];
      default:
        return [`${pad}${this.simple(s)};`];
    }
  }

  /** A statement that fits in a `for` header (no trailing semicolon). */
  simple(s: Stmt<SymbolicId>): string {
    switch (s.kind) {
      case 'let': {
        const keyword = s.mutable || s.init === null ? 'var' : 'let';
        const init = s.init ? ` = ${this.#whole(s.init)}` : '';
        // The result type of atomicCompareExchangeWeak is predeclared and cannot be spelled.
        const exchange = s.init?.op === 'atomic' && s.init.fn === 'atomicCompareExchangeWeak';
        return `${keyword} ${this.names.of(s.name)}${exchange ? '' : `: ${this.type(s.type, s.name)}`}${init}`;
      }
      case 'assign':
        return `${this.expr(s.target)} ${s.operator} ${this.expr(s.value)}`;
      case 'increment':
        return `${this.expr(s.target)}${s.operator}`;
      case 'expr':
        // An f32 atomic is a bitcast or a helper's value, which a statement cannot drop.
        return s.expr.op === 'call' || (s.expr.op === 'atomic' && !isF32Atomic(s.expr.pointer))
          ? this.expr(s.expr)
          : `_ = ${this.expr(s.expr)}`;
      case 'call':
        return `${this.scope.functions.get(s.callee)!}(${s.args.map((a) => this.expr(a)).join(', ')})`;
      case 'log': {
        const log = this.scope.image.log!;
        const id = log.index.get(logKey(this.module, s))!;
        const helper = this.scope.helpers.log(log, log.formats[id]!.args);
        return `${helper}(${[`${id}u`, ...s.args.map((a) => this.expr(a))].join(', ')})`;
      }
      case 'textureStore': {
        const args = s.args.map((a) => this.expr(a));
        return `textureStore(${[this.kernel!.bindingNames.get(s.texture)!, ...args].join(', ')})`;
      }
      case 'atomicStore': {
        const value = this.expr(s.value);
        const bits = isF32Atomic(s.pointer) ? `bitcast<u32>(${value})` : value;
        return `atomicStore(&${this.expr(s.pointer)}, ${bits})`;
      }
      case 'break':
        return 'break';
      case 'continue':
        return 'continue';
      case 'return':
        return s.value ? `return ${this.#whole(s.value)}` : 'return';
      case 'barrier':
        return s.scope === 'workgroup' ? 'workgroupBarrier()' : 'storageBarrier()';
      case 'jointMatrix': {
        const transfer = s.fn === 'load' || s.fn === 'store';
        const parts = transfer ? matrixMemoryParts(s.memory) : null;
        const memory = parts && {
          root: this.expr(parts.root),
          index: parts.index && this.expr(parts.index),
        };
        const args = (transfer ? [s.offset, s.stride] : matrixExprs(s)).map((e) => this.expr(e));
        return this.scope.matrices.statement(s, (name) => this.names.of(name), memory, args);
      }
      case 'jointScan':
        return this.scope.groups.jointScan(
          this.kernel!,
          s,
          this.#workgroupArray(s.input),
          this.#workgroupArray(s.output),
          s.init && this.expr(s.init),
          this.scope.items(this.kernel!),
        );
      default:
        return this.stmt(s, 0).join(' ');
    }
  }

  /**
   * A raw-WGSL function body with its references spliced in, indented one level, each line
   * tagged with the columns of the `.sycl.ts` text it comes from.
   */
  wgsl(parts: readonly WgslPart<SymbolicId>[]): string[] {
    // The spliced parts stand apart from the text around them, as whole tokens.
    const written = parts.map((p) => (p.kind === 'text' ? p.text : ' ')).join('');
    if (namesF16(written)) this.scope.types.usesF16 = true;
    const raw: { text: string; runs: Origin[] }[] = [{ text: '', runs: [] }];
    for (const p of parts) {
      let current = raw.at(-1)!;
      let { line, column } = p.span;
      current.runs.push({
        column: current.text.length + 1,
        module: this.module,
        line,
        sourceColumn: column,
        exact: p.kind === 'text',
      });
      if (p.kind !== 'text') {
        current.text += this.#splice(p);
        continue;
      }
      const { text } = p;
      for (let i = 0; i < text.length; i++) {
        if (!endsLine(text, i)) {
          // `\r` of `\r\n` goes, as WGSL would end the line there too.
          if (text[i] !== '\r') current.text += text[i];
          column++;
          continue;
        }
        line++;
        column = 1;
        current = {
          text: '',
          runs: [{ column: 1, module: this.module, line, sourceColumn: 1, exact: true }],
        };
        raw.push(current);
      }
    }
    // The source's indentation goes: the first line usually follows the opening backtick, so
    // only the other lines set the common indent; blank lines go too.
    const indents = raw
      .slice(1)
      .filter((l) => l.text.trim() !== '')
      .map((l) => l.text.length - l.text.trimStart().length);
    const common = indents.length ? Math.min(...indents) : 0;
    return raw.flatMap((l, i) => {
      const removed = i === 0 ? l.text.length - l.text.trimStart().length : common;
      const text = l.text.slice(removed).trimEnd();
      if (text === '') return [];
      const runs = l.runs.map((r) => ({
        ...r,
        column: Math.max(1, r.column - removed) + INDENT.length,
        // Text cut from the start of an exact run moves where it begins in the source.
        sourceColumn: r.exact
          ? r.sourceColumn + Math.max(0, removed - (r.column - 1))
          : r.sourceColumn,
      }));
      return [this.scope.origins.markRuns(`${INDENT}${text}`, runs)];
    });
  }

  #splice(p: Exclude<WgslPart<SymbolicId>, { kind: 'text' }>): string {
    if (p.kind === 'param') return this.names.of(p.name);
    if (p.kind === 'value') return this.expr(p.expr);
    if (this.scope.specConstants.has(p.ref)) return this.scope.specConstant(p.ref);
    if (this.scope.deviceGlobals.has(p.ref)) return this.scope.deviceGlobals.get(p.ref)!.place;
    return this.scope.functions.get(p.ref)!;
  }
}

/** The launch uniform's record of this launch: the kernel's variable, or its element `slot`. */
export function launchPlace(kernel: LinkedKernel): string {
  const launch = kernel.info.bindings.find((b) => b.kind === 'launch');
  return launch?.kind === 'launch' && launch.records !== null
    ? `${kernel.launchName}[${LAUNCH_SLOT}]`
    : kernel.launchName;
}

function scalarOf(type: DataType): ScalarName {
  if (type.kind === 'scalar' || type.kind === 'atomic') return type.scalar;
  if (type.kind === 'vector') return type.component;
  return 'f32';
}

/** Item queries are u32 in WGSL; convert when the IR typed them otherwise. */
function convert(text: string, type: DataType): string {
  return type.kind === 'scalar' && type.scalar !== 'u32' ? `${type.scalar}(${text})` : text;
}
