/**
 * Device code IR: typed expression trees and structured statements, close to WGSL. Every
 * expression carries its concrete type (abstract literals are concretised by the front end).
 */
import type {
  DataType,
  GroupOperatorName,
  JointComparison,
  MatrixElementName,
  MatrixLayout,
  MatrixScalarOperator,
  MatrixUse,
  TextureFunctionName,
} from '@syclts/dsl';
import type { SymbolRef } from './device-object.js';

/**
 * `R` is how device code names declarations: `SymbolRef` as the front end writes it, a
 * `SymbolicId` once the link step has resolved every reference.
 */
import type { Span } from './span.js';

export type UnaryOperator = '-' | '!' | '~';
export type BinaryOperator =
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '&'
  | '|'
  | '^'
  | '<<'
  | '>>'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '&&'
  | '||';
export type AssignOperator =
  | '='
  | '+='
  | '-='
  | '*='
  | '/='
  | '%='
  | '&='
  | '|='
  | '^='
  | '<<='
  | '>>=';

export type ItemQuery =
  | 'globalId'
  | 'globalRange'
  | 'localId'
  | 'localRange'
  | 'groupId'
  | 'groupRange'
  | 'globalLinearId'
  | 'localLinearId'
  | 'groupLinearId'
  | 'localLinearRange'
  | 'groupLinearRange'
  /** The sub-group's index in the work-group. */
  | 'subGroupId'
  /** The item's index in its sub-group. */
  | 'subGroupLocalId'
  /** The number of items in the item's sub-group. */
  | 'subGroupLocalRange'
  /** The number of items a sub-group can hold. */
  | 'subGroupMaxLocalRange'
  /** The number of sub-groups in the work-group. */
  | 'subGroupRange';

/** The group a group function works over. */
export type GroupScope = 'workgroup' | 'subgroup';

/**
 * The group functions, as the IR holds them: `reduce`, `exclusiveScan`, `inclusiveScan` take
 * `[x]` or `[x, init]` and an operator; `broadcast` `[x, id]`; `any`, `all`, `none` `[predicate]`;
 * `shiftLeft`, `shiftRight` `[x, delta]`; `permuteXor` `[x, mask]`; `select` `[x, id]`.
 */
export type GroupFunction =
  | 'reduce'
  | 'exclusiveScan'
  | 'inclusiveScan'
  | 'broadcast'
  | 'any'
  | 'all'
  | 'none'
  | 'shiftLeft'
  | 'shiftRight'
  | 'permuteXor'
  | 'select'
  /**
   * The joint algorithms over a kernel's workgroup array (always over the work-group): the first
   * argument is a `workgroupArray` expression. `jointReduce` takes `[array]` or `[array, init]`
   * and an operator; `jointAny`, `jointAll`, `jointNone` take `[array]` of bool, or `[array,
   * value]` and a comparison (`element <comparison> value`). The scans are `jointScan` statements.
   */
  | 'jointReduce'
  | 'jointAny'
  | 'jointAll'
  | 'jointNone';

/** The atomic built-ins that give a value; `atomicStore` is a statement of its own. */
export type AtomicFunction =
  | 'atomicLoad'
  | 'atomicAdd'
  | 'atomicSub'
  | 'atomicMax'
  | 'atomicMin'
  | 'atomicAnd'
  | 'atomicOr'
  | 'atomicXor'
  | 'atomicExchange'
  | 'atomicCompareExchangeWeak';

interface ExprBase {
  readonly type: DataType;
  readonly span: Span;
}

export type Expr<R = SymbolRef> = ExprBase &
  (
    | { readonly op: 'literal'; readonly value: number | boolean }
    /** A function-scope `let`/`var`, or a function parameter. */
    | { readonly op: 'local'; readonly name: string }
    /** A kernel argument (accessor or value). */
    | { readonly op: 'param'; readonly name: string }
    /** A kernel's `var<workgroup>` array. */
    | { readonly op: 'workgroupArray'; readonly name: string }
    /** The whole value of a specialization constant; `member`/`index` select parts. */
    | { readonly op: 'specConstant'; readonly ref: R }
    /** A device global's storage (an lvalue). */
    | { readonly op: 'deviceGlobal'; readonly ref: R }
    | { readonly op: 'unary'; readonly operator: UnaryOperator; readonly operand: Expr<R> }
    | {
        readonly op: 'binary';
        readonly operator: BinaryOperator;
        readonly left: Expr<R>;
        readonly right: Expr<R>;
      }
    /** WGSL's `select`: both choices are evaluated; scalars and vectors only. */
    | {
        readonly op: 'select';
        readonly condition: Expr<R>;
        readonly whenTrue: Expr<R>;
        readonly whenFalse: Expr<R>;
      }
    /**
     * A `?:` that evaluates one branch only (a branch has side effects, or its type is no
     * scalar or vector). The front end's last pass turns it into `if`/`else` statements
     * (frontend/lower/conditionals.ts): a device object never holds one.
     */
    | {
        readonly op: 'conditional';
        readonly condition: Expr<R>;
        readonly whenTrue: Expr<R>;
        readonly whenFalse: Expr<R>;
      }
    /** A device function of this or another module. */
    | { readonly op: 'call'; readonly callee: R; readonly args: readonly Expr<R>[] }
    /** A WGSL built-in function (`min`, `sqrt`, `select`, ...). */
    | { readonly op: 'builtin'; readonly name: string; readonly args: readonly Expr<R>[] }
    /** Value constructor or conversion: `vec3f(...)`, `f32(x)`, a struct or array literal. */
    | { readonly op: 'construct'; readonly args: readonly Expr<R>[] }
    | { readonly op: 'index'; readonly base: Expr<R>; readonly index: Expr<R> }
    | { readonly op: 'member'; readonly base: Expr<R>; readonly member: string }
    | { readonly op: 'swizzle'; readonly base: Expr<R>; readonly components: string }
    | { readonly op: 'item'; readonly query: ItemQuery; readonly dimension: number }
    /**
     * A group function: every item of the group evaluates it together (under uniform control
     * flow), so it acts as a barrier. `operator` is set for reduce, the scans and `jointReduce`
     * only; `comparison` for the joint predicates over a non-bool array only.
     */
    | {
        readonly op: 'group';
        readonly scope: GroupScope;
        readonly fn: GroupFunction;
        readonly operator: GroupOperatorName | null;
        readonly comparison: JointComparison | null;
        readonly args: readonly Expr<R>[];
      }
    /** `pointer` is an lvalue of atomic type. */
    | {
        readonly op: 'atomic';
        readonly fn: AtomicFunction;
        readonly pointer: Expr<R>;
        readonly args: readonly Expr<R>[];
      }
    /**
     * A texture built-in other than `textureStore`: `texture` (and `sampler`) name the kernel's
     * texture arguments; `args` are the others in WGSL's order (`textureGather`'s component
     * first).
     */
    | {
        readonly op: 'texture';
        readonly fn: Exclude<TextureFunctionName, 'textureStore'>;
        readonly texture: string;
        readonly sampler: string | null;
        readonly args: readonly Expr<R>[];
      }
    /**
     * The index of this launch's record in the emulated variant's buffers (u32): the last
     * argument of a call to a function that reads specialization constants there. Put in by
     * the emitter's launch-slot transform, never by the front end.
     */
    | { readonly op: 'launchSlot' }
    /**
     * The value held by a host-shareable place (a device global, a kernel's value argument, an
     * emulated specialization constant), where bool is stored as u32. Put in by the
     * emitter's host-storage transform, never by the front end.
     */
    | { readonly op: 'fromHost'; readonly place: Expr<R> }
    /** `value` in its host-shareable form, for storing into a device global. */
    | { readonly op: 'toHost'; readonly value: Expr<R> }
  );

/**
 * A sub-group's joint matrix: no `DataType`, since it is never a value an expression gives. It
 * lives in a kernel's local only, declared and changed by `jointMatrix` statements.
 */
export interface JointMatrixType {
  readonly use: MatrixUse;
  readonly element: MatrixElementName;
  readonly rows: number;
  readonly columns: number;
  /** How a or b is laid out in memory; null for an accumulator (its loads and stores say). */
  readonly layout: MatrixLayout | null;
}

/** A joint matrix named in a statement: its local's name and its type. */
export interface MatrixRef {
  readonly name: string;
  readonly type: JointMatrixType;
}

/**
 * The joint-matrix operations, each on `matrix` (the one declared, filled, loaded, stored,
 * changed or written): every item of the sub-group runs it together, as a group function.
 * `memory` is an accessor `param` or a `workgroupArray` of the element type, or an `index` of
 * one whose elements are such arrays (`matrixMemoryParts`); `offset` and `stride` are u32
 * elements; `value` has the element type.
 */
export type JointMatrixStmt<R = SymbolRef> = {
  readonly kind: 'jointMatrix';
  readonly matrix: MatrixRef;
  readonly span: Span;
} & (
  | { readonly fn: 'declare' }
  | { readonly fn: 'fill'; readonly value: Expr<R> }
  | {
      readonly fn: 'load' | 'store';
      readonly memory: Expr<R>;
      readonly offset: Expr<R>;
      readonly stride: Expr<R>;
      readonly layout: MatrixLayout;
    }
  | { readonly fn: 'mad'; readonly a: MatrixRef; readonly b: MatrixRef; readonly c: MatrixRef }
  | { readonly fn: 'apply'; readonly operator: MatrixScalarOperator; readonly value: Expr<R> }
);

export interface LetStmt<R = SymbolRef> {
  readonly kind: 'let';
  readonly name: string;
  readonly mutable: boolean;
  readonly type: DataType;
  readonly init: Expr<R> | null;
  readonly span: Span;
  /**
   * An unrolled loop's counter (frontend/lower/unroll.ts): immutable and a literal, yet never
   * inlined or folded as a constant, so that a copy of the body accepts what the loop accepts (a
   * division by the counter's zero, an index past an array's end stay run-time operations).
   */
  readonly unrolled?: true;
}

/**
 * A statement WGSL allows as a `for` loop's update: an assignment, `++`/`--`, or a call (a
 * barrier included). An expression statement of JavaScript lowers to exactly one of these. A
 * call whose result is unused is an `expr`; a call that gives no result is a statement of its
 * own (`call`, `atomicStore`), so that no expression has to stand for "nothing".
 */
export type UpdateStmt<R = SymbolRef> =
  | {
      readonly kind: 'assign';
      readonly target: Expr<R>;
      readonly operator: AssignOperator;
      readonly value: Expr<R>;
      readonly span: Span;
    }
  | {
      readonly kind: 'increment';
      readonly target: Expr<R>;
      readonly operator: '++' | '--';
      readonly span: Span;
    }
  | { readonly kind: 'expr'; readonly expr: Expr<R>; readonly span: Span }
  /** A device function that returns nothing. */
  | {
      readonly kind: 'call';
      readonly callee: R;
      readonly args: readonly Expr<R>[];
      readonly span: Span;
    }
  /** `pointer` is an lvalue of atomic type; `value` its scalar. */
  | {
      readonly kind: 'atomicStore';
      readonly pointer: Expr<R>;
      readonly value: Expr<R>;
      readonly span: Span;
    }
  | { readonly kind: 'barrier'; readonly scope: 'workgroup' | 'storage'; readonly span: Span }
  /** `textureStore(texture, coords[, arrayIndex], texel)`: `args` after the texture argument. */
  | {
      readonly kind: 'textureStore';
      readonly texture: string;
      readonly args: readonly Expr<R>[];
      readonly span: Span;
    }
  /**
   * `console.log(...)`: the text between the values (`parts`, one more than `args`; constants
   * already folded in) and the values, each a scalar or vector of i32, u32, f32, f16 or bool.
   */
  | {
      readonly kind: 'log';
      readonly parts: readonly string[];
      readonly args: readonly Expr<R>[];
      readonly span: Span;
    }
  /**
   * `sum.combine(x)`: folds `value` into the kernel's reduction variable `reduction`; `bins[i]
   * .combine(x)` into element `index` (a u32) of a span reduction, whose `index` is not null.
   */
  | {
      readonly kind: 'combine';
      readonly reduction: string;
      readonly index: Expr<R> | null;
      readonly value: Expr<R>;
      readonly span: Span;
    }
  /**
   * SYCL's `joint_exclusive_scan`/`joint_inclusive_scan` over the work-group: `input` and
   * `output` are `workgroupArray` expressions of one element type and length (or the same
   * array); `init`, when given, has the element type. Every item of the work-group runs it
   * together, as a group function.
   */
  | {
      readonly kind: 'jointScan';
      readonly fn: 'exclusiveScan' | 'inclusiveScan';
      readonly operator: GroupOperatorName;
      readonly input: Expr<R>;
      readonly output: Expr<R>;
      readonly init: Expr<R> | null;
      readonly span: Span;
    }
  | JointMatrixStmt<R>;

export type Stmt<R = SymbolRef> =
  | LetStmt<R>
  | UpdateStmt<R>
  | {
      readonly kind: 'if';
      readonly condition: Expr<R>;
      readonly then: Block<R>;
      readonly else: Block<R> | null;
      readonly span: Span;
    }
  | {
      readonly kind: 'for';
      readonly init: LetStmt<R> | UpdateStmt<R> | null;
      readonly condition: Expr<R> | null;
      readonly update: UpdateStmt<R> | null;
      readonly body: Block<R>;
      readonly span: Span;
    }
  | {
      readonly kind: 'while';
      readonly condition: Expr<R>;
      readonly body: Block<R>;
      readonly span: Span;
    }
  | { readonly kind: 'break'; readonly span: Span }
  | { readonly kind: 'continue'; readonly span: Span }
  | { readonly kind: 'return'; readonly value: Expr<R> | null; readonly span: Span }
  | { readonly kind: 'block'; readonly body: Block<R>; readonly span: Span };

export type Block<R = SymbolRef> = readonly Stmt<R>[];
