/**
 * Joint matrices (SYCL's `sycl_ext_oneapi_matrix`): `const m = jointMatrix(sg, use, type, rows,
 * columns[, layout])` declares one, and the other matrix functions are statements on it. A
 * matrix is a name bound in the kernel body, never a value: an expression that names one is
 * refused, so it cannot reach memory, a device function, the host or a `?:`.
 */
import {
  MATRIX_FUNCTIONS,
  MATRIX_LAYOUTS,
  MATRIX_SCALAR_OPERATORS,
  MATRIX_USES,
  type MatrixElementName,
  type MatrixFunctionName,
  type MatrixLayout,
  type MatrixScalarOperator,
  type MatrixUse,
  typeName,
} from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expr, JointMatrixStmt, JointMatrixType, MatrixRef } from '../../ir/device-code.js';
import { matrixMemoryParts } from '../../ir/matrix-memory.js';
import { type Expression, unwrap } from '../ast.js';
import { DSL_TYPE_NAMES } from '../resolver/dsl-names.js';
import { scalarType, U32 } from '../resolver/types.js';
import {
  constantOf,
  fail,
  type Lowering,
  type Node,
  spanOf,
  textOf,
  topEntity,
} from './context.js';
import { lowerExpr, lowerValueOf } from './expressions.js';
import { groupCall } from './groups.js';

export const MATRIX_FUNCTION_NAMES: ReadonlySet<string> = new Set(MATRIX_FUNCTIONS);

/** The largest rows or columns a joint matrix may have (the devices' shapes are 8 to 32). */
const MAX_MATRIX_SIDE = 64;

const ELEMENTS: ReadonlySet<string> = new Set<MatrixElementName>(['f16', 'f32', 'i32', 'u32']);

/** The DSL function a call names, when it is a joint-matrix function. */
export function matrixFunction(cx: Lowering, node: CallExpression): MatrixFunctionName | null {
  const entity = topEntity(cx, unwrap(node.callee));
  return entity?.kind === 'dsl' && MATRIX_FUNCTION_NAMES.has(entity.name)
    ? (entity.name as MatrixFunctionName)
    : null;
}

/**
 * `const m = jointMatrix(...)`: binds `name` to a new matrix and gives its declaration; null
 * when reported; false when `init` is no such call.
 */
export function declareMatrix(
  cx: Lowering,
  name: string,
  init: Expression,
  node: Node,
): JointMatrixStmt | null | false {
  const call = unwrap(init);
  if (call.type !== 'CallExpression' || matrixFunction(cx, call) !== 'jointMatrix') return false;
  const args = call.arguments as Expression[];
  if (!inKernel(cx, call, 'jointMatrix') || !subGroupArgument(cx, args, call, 'jointMatrix')) {
    cx.scopes.declare(name, { kind: 'poisoned' });
    return null;
  }
  const type = matrixType(cx, args, call);
  if (!type) {
    cx.scopes.declare(name, { kind: 'poisoned' });
    return null;
  }
  const matrix: MatrixRef = { name, type };
  if (!cx.scopes.declare(name, { kind: 'matrix', matrix })) {
    return fail(cx, node, msg.alreadyDeclared(name));
  }
  return { kind: 'jointMatrix', fn: 'declare', matrix, span: spanOf(cx, call) };
}

/** `jointMatrixFill(sg, m, v)` and the other operations, as statements. */
export function lowerMatrixStatement(
  cx: Lowering,
  fn: Exclude<MatrixFunctionName, 'jointMatrix'>,
  node: CallExpression,
): JointMatrixStmt | null {
  const args = node.arguments as Expression[];
  if (!inKernel(cx, node, fn) || !subGroupArgument(cx, args, node, fn)) return null;
  const span = spanOf(cx, node);
  switch (fn) {
    case 'jointMatrixFill':
    case 'jointMatrixApply': {
      const apply = fn === 'jointMatrixApply';
      if (args.length !== (apply ? 4 : 3)) {
        return fail(cx, node, msg.builtinArguments(fn, apply ? 4 : 3, args.length));
      }
      const matrix = matrixArgument(cx, fn, args[1]!, 2);
      if (!matrix) return null;
      const operator = apply ? scalarOperator(cx, args[2]!) : null;
      if (apply && !operator) return null;
      const at = apply ? 3 : 2;
      const value = lowerValueOf(cx, args[at]!, scalarType(matrix.type.element), {
        kind: 'argument',
        position: at + 1,
        callee: fn,
      });
      if (!value) return null;
      return operator
        ? { kind: 'jointMatrix', fn: 'apply', matrix, operator, value, span }
        : { kind: 'jointMatrix', fn: 'fill', matrix, value, span };
    }
    case 'jointMatrixLoad':
    case 'jointMatrixStore':
      return lowerTransfer(cx, fn, args, node);
    case 'jointMatrixMad': {
      if (args.length !== 5) return fail(cx, node, msg.builtinArguments(fn, 5, args.length));
      const [d, a, b, c] = [1, 2, 3, 4].map((i) => matrixArgument(cx, fn, args[i]!, i + 1));
      if (!d || !a || !b || !c) return null;
      const problem = madProblem(d.type, a.type, b.type, c.type);
      if (problem) return fail(cx, node, msg.jointMatrixOperands(fn, problem));
      return { kind: 'jointMatrix', fn: 'mad', matrix: d, a, b, c, span };
    }
  }
}

/** Why `d = a × b + c` does not fit together, or null when it does. */
function madProblem(
  d: JointMatrixType,
  a: JointMatrixType,
  b: JointMatrixType,
  c: JointMatrixType,
): string | null {
  const uses: [JointMatrixType, MatrixUse, string][] = [
    [d, 'accumulator', 'd'],
    [a, 'a', 'a'],
    [b, 'b', 'b'],
    [c, 'accumulator', 'c'],
  ];
  for (const [m, use, name] of uses) {
    if (m.use !== use) return `\`${name}\` is a matrix of use '${m.use}', not '${use}'`;
  }
  if (a.element !== b.element) {
    return `a holds ${a.element} and b ${b.element}: they hold one element type`;
  }
  if (c.element !== d.element) {
    return `c holds ${c.element} and d ${d.element}: they hold one element type`;
  }
  if (a.columns !== b.rows) return `a is ${shape(a)} and b ${shape(b)}: a's columns are b's rows`;
  if (c.rows !== a.rows || c.columns !== b.columns) {
    return `a is ${shape(a)} and b ${shape(b)}, so c is ${a.rows} × ${b.columns}, not ${shape(c)}`;
  }
  if (d.rows !== c.rows || d.columns !== c.columns) {
    return `c is ${shape(c)} and d ${shape(d)}: they have one shape`;
  }
  if (!madElements(a.element, c.element)) {
    return `${a.element} matrices multiply into ${a.element === 'f16' ? 'f16 or f32' : a.element}, not ${c.element}`;
  }
  return null;
}

/** The element types a product of `a`'s type may accumulate in: f16 into f16 or f32, else its own. */
function madElements(a: MatrixElementName, c: MatrixElementName): boolean {
  return a === c || (a === 'f16' && c === 'f32');
}

const shape = (m: JointMatrixType) => `${m.rows} × ${m.columns}`;

/** `jointMatrixLoad(sg, m, memory, offset, stride[, layout])`, `jointMatrixStore(...)`. */
function lowerTransfer(
  cx: Lowering,
  fn: 'jointMatrixLoad' | 'jointMatrixStore',
  args: Expression[],
  node: CallExpression,
): JointMatrixStmt | null {
  if (args.length < 5) return fail(cx, node, msg.builtinArguments(fn, 6, args.length));
  const matrix = matrixArgument(cx, fn, args[1]!, 2);
  if (!matrix) return null;
  const accumulator = matrix.type.use === 'accumulator';
  if (fn === 'jointMatrixStore' && !accumulator) {
    return fail(cx, args[1]!, msg.matrixStoreUse(matrix.name, matrix.type.use));
  }
  const takes = accumulator ? 6 : 5;
  if (args.length !== takes) {
    return accumulator
      ? fail(cx, node, msg.matrixLayoutMissing(fn, matrix.name))
      : fail(cx, args[5]!, msg.matrixLayoutGiven(fn, matrix.name));
  }
  const memory = matrixMemory(cx, fn, args[2]!, matrix.type.element);
  const offset = lowerValueOf(cx, args[3]!, U32, { kind: 'argument', position: 4, callee: fn });
  const stride = lowerValueOf(cx, args[4]!, U32, { kind: 'argument', position: 5, callee: fn });
  const layout = accumulator ? layoutOf(cx, args[5]!) : matrix.type.layout;
  if (!memory || !offset || !stride || !layout) return null;
  const root = matrixMemoryParts(memory)!.root;
  if (
    fn === 'jointMatrixStore' &&
    root.op === 'param' &&
    cx.accessModes.get(root.name) === 'read'
  ) {
    return fail(cx, args[2]!, msg.matrixStoreReadOnly(root.name));
  }
  return {
    kind: 'jointMatrix',
    fn: fn === 'jointMatrixLoad' ? 'load' : 'store',
    matrix,
    memory,
    offset,
    stride,
    layout,
    span: spanOf(cx, node),
  };
}

/**
 * An accessor or workgroup array of the matrix's element type, or one element of one whose
 * elements are such arrays (`local.tiles[w]`): the index picks a region, the offset within it can
 * then be a constant, which a bounds-checking WebGPU implementation checks once at compile time.
 */
function matrixMemory(
  cx: Lowering,
  fn: string,
  node: Expression,
  element: MatrixElementName,
): Expr | null {
  const n = unwrap(node);
  const root = n.type === 'MemberExpression' && n.computed ? unwrap(n.object) : n;
  const named =
    root.type === 'Identifier' ||
    (root.type === 'MemberExpression' &&
      !root.computed &&
      unwrap(root.object).type === 'Identifier');
  if (!named) return fail(cx, node, msg.matrixMemory(fn, textOf(cx, node)));
  const lowered = lowerExpr(cx, node);
  if (!lowered) return null;
  if (!matrixMemoryParts(lowered) || lowered.type.kind !== 'array') {
    return fail(cx, node, msg.matrixMemory(fn, textOf(cx, node)));
  }
  const held = lowered.type.element;
  if (held.kind !== 'scalar' || held.scalar !== element) {
    return fail(cx, node, msg.matrixMemoryElement(fn, textOf(cx, node), typeName(held), element));
  }
  return regionIndexU32(lowered);
}

/** The region's index as u32, the type the plain lowering's helpers take it in. */
function regionIndexU32(memory: Expr): Expr {
  if (memory.op !== 'index' || memory.index.type.kind !== 'scalar') return memory;
  if (memory.index.type.scalar === 'u32') return memory;
  const index: Expr = { op: 'construct', args: [memory.index], type: U32, span: memory.index.span };
  return { ...memory, index };
}

/** A kernel body of an nd-range kernel: where a sub-group exists and a matrix can live. */
function inKernel(cx: Lowering, node: Node, fn: string): boolean {
  if (cx.kernel?.nd && cx.returnType === undefined) return true;
  fail(cx, node, msg.matrixOutsideKernel(fn));
  return false;
}

/** The first argument: the item's sub-group. */
function subGroupArgument(
  cx: Lowering,
  args: readonly Expression[],
  node: Node,
  fn: string,
): boolean {
  const first = args[0];
  if (!first) {
    fail(cx, node, msg.matrixNotSubGroup(fn, 'nothing'));
    return false;
  }
  const arg = unwrap(first);
  const bound = arg.type === 'Identifier' ? cx.scopes.lookup(arg.name) : undefined;
  const scope = groupCall(cx, first) ?? (bound?.kind === 'group' ? bound.scope : null);
  if (scope === 'subgroup') return true;
  fail(cx, first, msg.matrixNotSubGroup(fn, textOf(cx, first)));
  return false;
}

/** A matrix argument: the name of a matrix declared in the kernel. */
function matrixArgument(
  cx: Lowering,
  fn: string,
  node: Expression,
  position: number,
): MatrixRef | null {
  const n = unwrap(node);
  const b = n.type === 'Identifier' ? cx.scopes.lookup(n.name) : undefined;
  if (b?.kind === 'matrix') return b.matrix;
  if (b?.kind === 'poisoned') {
    cx.reporter.alreadyReported();
    return null;
  }
  return fail(cx, node, msg.notAMatrix(fn, position, textOf(cx, node)));
}

/** `jointMatrix`'s arguments after the sub-group: use, element type, rows, columns, layout. */
function matrixType(
  cx: Lowering,
  args: Expression[],
  node: CallExpression,
): JointMatrixType | null {
  if (args.length < 5 || args.length > 6) {
    return fail(cx, node, msg.builtinArguments('jointMatrix', 6, args.length));
  }
  const use = stringOf(args[1]!);
  if (use === null || !(MATRIX_USES as readonly string[]).includes(use)) {
    return fail(cx, args[1]!, msg.matrixUse(textOf(cx, args[1]!)));
  }
  const entity = topEntity(cx, args[2]!);
  const type =
    entity?.kind === 'type'
      ? entity.type
      : entity?.kind === 'dsl'
        ? DSL_TYPE_NAMES.get(entity.name)
        : undefined;
  const element =
    type?.kind === 'scalar' && ELEMENTS.has(type.scalar)
      ? (type.scalar as MatrixElementName)
      : null;
  if (!element) return fail(cx, args[2]!, msg.matrixElement(textOf(cx, args[2]!)));
  const [rows, columns] = [args[3]!, args[4]!].map((a, i) => {
    const c = constantOf(cx, a);
    const ok =
      c?.kind === 'number' &&
      !c.float &&
      Number.isInteger(Number(c.value)) &&
      Number(c.value) >= 1 &&
      Number(c.value) <= MAX_MATRIX_SIDE;
    if (!ok)
      fail(cx, a, msg.matrixSide(i === 0 ? 'rows' : 'columns', textOf(cx, a), MAX_MATRIX_SIDE));
    return ok ? Number(c.value) : null;
  });
  if (rows == null || columns == null) return null;
  if (use === 'accumulator') {
    if (args[5]) return fail(cx, args[5], msg.accumulatorLayout());
    return { use, element, rows, columns, layout: null };
  }
  const layout = args[5] ? layoutOf(cx, args[5]) : 'rowMajor';
  return layout && { use: use as MatrixUse, element, rows, columns, layout };
}

function layoutOf(cx: Lowering, node: Expression): MatrixLayout | null {
  const s = stringOf(node);
  if (s !== null && (MATRIX_LAYOUTS as readonly string[]).includes(s)) return s as MatrixLayout;
  return fail(cx, node, msg.matrixLayout(textOf(cx, node)));
}

function scalarOperator(cx: Lowering, node: Expression): MatrixScalarOperator | null {
  const s = stringOf(node);
  if (s !== null && (MATRIX_SCALAR_OPERATORS as readonly string[]).includes(s)) {
    return s as MatrixScalarOperator;
  }
  return fail(cx, node, msg.matrixScalarOperator(textOf(cx, node)));
}

function stringOf(node: Expression): string | null {
  const n = unwrap(node);
  return n.type === 'Literal' && typeof n.value === 'string' ? n.value : null;
}
