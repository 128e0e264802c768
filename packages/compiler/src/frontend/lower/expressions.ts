/**
 * Lowers device-code expressions to typed IR: the dispatch over expression kinds, names,
 * operators and the conditional. Abstract literals (and top-level numeric consts) stay abstract
 * until the context gives them a type, as in WGSL; without context they default to i32 / f32.
 */

import type { DataType } from '@syclts/dsl';
import { sameType } from '@syclts/dsl';
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { BinaryOperator, Expr } from '../../ir/device-code.js';
import { hasSideEffects } from '../../ir/effects.js';
import { type Expression, unwrap } from '../ast.js';
import { BOOL, scalarOf, U32 } from '../resolver/types.js';
import { nearest } from '../suggest.js';
import { lowerMember, runtimeArray, workgroupArrayType } from './access.js';
import { plainAtomic } from './atomics.js';
import { lowerCall } from './calls.js';
import { lowerArrayLiteral, lowerObjectLiteral } from './composites.js';
import { constantOf, fail, type Lowering, type Node, spanOf, textOf } from './context.js';
import { constantFor, literalOf, lowerConstant } from './literals.js';
import { binaryType, unaryType } from './operators.js';
import type { LocalBinding } from './scope.js';
import { describeTexture } from './textures.js';

export function splat(e: Expr, vector: DataType): Expr {
  return { op: 'construct', args: [e], type: vector, span: e.span };
}

/** A value expression: reports atomics read as plain values. */
export function lowerValue(cx: Lowering, node: Expression, expected?: DataType): Expr | null {
  const e = lowerExpr(cx, node, expected);
  if (!e) return null;
  if (e.type.kind === 'atomic') return plainAtomic(cx, node, 'read');
  return e;
}

/** A value of exactly `type` (abstract literals take it). */
export function lowerValueOf(
  cx: Lowering,
  node: Expression,
  type: DataType,
  subject: msg.Subject,
): Expr | null {
  const c = constantOf(cx, node);
  if (c) return literalOf(cx, c, type, node);
  const n = unwrap(node);
  // A composite literal takes `type` as its shape when it can; one that cannot (an array
  // where a scalar belongs) is a mismatch like any other value.
  const composite = n.type === 'ObjectExpression' || n.type === 'ArrayExpression';
  const e = lowerValue(cx, composite ? n : node, type);
  if (!e) return null;
  if (!sameType(e.type, type)) {
    return fail(cx, node, msg.valueType(subject, type, e.type, textOf(cx, node)));
  }
  return e;
}

export function lowerExpr(cx: Lowering, input: Expression, expected?: DataType): Expr | null {
  const node = unwrap(input);
  const c = constantOf(cx, node);
  if (c) return constantFor(cx, c, expected, node);
  switch (node.type) {
    case 'Identifier':
      return lowerIdentifier(cx, node.name, node, expected);
    case 'Literal':
      return fail(cx, node, msg.notADeviceValue(textOf(cx, node)));
    case 'UnaryExpression':
      return lowerUnary(cx, node.operator, node.argument, node, 'operator', expected);
    case 'BinaryExpression': {
      const op = node.operator;
      if (op === 'in' || op === 'instanceof' || op === '**') {
        return fail(cx, node, msg.unsupportedOperator(op));
      }
      return lowerBinary(cx, op, node.left as Expression, node.right, node, 'operator', expected);
    }
    case 'LogicalExpression':
      if (node.operator === '??') {
        return fail(cx, node, msg.unsupportedOperator(node.operator));
      }
      return lowerBinary(cx, node.operator, node.left, node.right, node, 'operator', expected);
    case 'ConditionalExpression':
      return lowerConditional(cx, node.test, node.consequent, node.alternate, node, expected);
    case 'MemberExpression':
      return lowerMember(cx, node, expected);
    case 'CallExpression':
      return lowerCall(cx, node, expected);
    case 'ArrayExpression':
      return lowerArrayLiteral(cx, node.elements, node, expected);
    case 'ObjectExpression':
      return lowerObjectLiteral(cx, node, expected);
    case 'AssignmentExpression':
    case 'UpdateExpression':
      return fail(cx, node, msg.assignmentInExpression(textOf(cx, node)));
    case 'TemplateLiteral':
    case 'TaggedTemplateExpression':
      return fail(cx, node, msg.templateLiteral());
    default:
      return fail(cx, node, msg.unsupportedExpression(node.type));
  }
}

export function lowerIdentifier(
  cx: Lowering,
  name: string,
  node: Node,
  expected?: DataType,
): Expr | null {
  const local = cx.scopes.lookup(name);
  if (local) return lowerLocal(cx, local, name, node);
  const entity = cx.resolver.entity(name);
  if (entity?.kind === 'constant') return lowerConstant(cx, entity.value, expected, node);
  if (!entity) {
    if (name === 'undefined' || name === 'NaN' || name === 'Infinity') {
      return fail(cx, node, msg.noWgslEquivalent(name));
    }
    return fail(
      cx,
      node,
      msg.undefinedName(
        name,
        nearest(name, [...cx.scopes.visibleNames(), ...cx.resolver.top.bindings.keys()]),
      ),
    );
  }
  switch (entity.kind) {
    case 'deviceGlobal':
      return fail(cx, node, msg.deviceGlobalAsValue(name));
    case 'specConstant':
      return fail(cx, node, msg.specConstantAsValue(name));
    case 'opaque':
      return fail(
        cx,
        node,
        msg.unusableName(name, entity.why, cx.resolver.top.bindings.get(name)?.kind === 'import'),
      );
    default:
      return fail(cx, node, msg.notAValue(name, entity.kind));
  }
}

export function lowerLocal(cx: Lowering, b: LocalBinding, name: string, node: Node): Expr | null {
  switch (b.kind) {
    case 'poisoned':
      // Already reported where it was declared; count it without a second message.
      cx.reporter.alreadyReported();
      return null;
    case 'local':
      return { op: 'local', name: b.name, type: b.type, span: spanOf(cx, node) };
    case 'kernelArg':
      if (b.param.kind === 'accessor') {
        return {
          op: 'param',
          name: b.param.name,
          type: runtimeArray(b.param.element),
          span: spanOf(cx, node),
        };
      }
      if (b.param.kind === 'reduction') return fail(cx, node, msg.reductionAsValue(name));
      if (b.param.kind === 'texture') {
        return fail(cx, node, msg.textureAsValue(name, describeTexture(b.param.texture)));
      }
      return { op: 'param', name: b.param.name, type: b.param.type, span: spanOf(cx, node) };
    case 'workgroupArray':
      return {
        op: 'workgroupArray',
        name: b.decl.name,
        type: workgroupArrayType(b.decl),
        span: spanOf(cx, node),
      };
    case 'group':
      return fail(cx, node, msg.groupAsValue(name));
    case 'matrix':
      return fail(cx, node, msg.matrixAsValue(name));
    default:
      return fail(cx, node, msg.kernelParameterNotAValue(name, b.kind));
  }
}

/** How the source wrote an operation: `a + b`, or the DSL's `add(a, b)`. */
export type Spelling = 'operator' | 'function';

export function lowerUnary(
  cx: Lowering,
  op: string,
  argument: Expression,
  node: Node,
  spelled: Spelling,
  expected?: DataType,
): Expr | null {
  if (op !== '+' && op !== '-' && op !== '!' && op !== '~') {
    return fail(cx, node, msg.unsupportedOperator(op));
  }
  const operand = lowerValue(cx, argument, op === '!' ? BOOL : expected);
  if (!operand) return null;
  // TypeScript takes these on any object and types the result as a number or boolean: the
  // editor cannot refuse them, so the build does (`neg(v)` is the DSL's spelling).
  if (spelled === 'operator' && isComposite(operand.type)) {
    return fail(cx, node, msg.compositeUnary(op, operand.type, textOf(cx, argument)));
  }
  if (op === '+') return operand;
  const t = unaryType(op, operand.type);
  if (!t.ok) return fail(cx, node, t.message);
  return { op: 'unary', operator: op, operand, type: t.type, span: spanOf(cx, node) };
}

export function lowerBinary(
  cx: Lowering,
  sourceOp: string,
  leftNode: Expression,
  rightNode: Expression,
  node: Node,
  spelled: Spelling,
  expected?: DataType,
): Expr | null {
  const op = binaryOperator(cx, sourceOp, node);
  if (!op) return null;
  const shift = op === '<<' || op === '>>';
  const logical = op === '&&' || op === '||';
  const comparison = ['==', '!=', '<', '<=', '>', '>='].includes(op);
  const operandExpected = logical ? BOOL : comparison ? undefined : expected;
  const lc = constantOf(cx, leftNode);
  const rc = constantOf(cx, rightNode);
  let left: Expr | null;
  let right: Expr | null;
  if (lc && !rc) {
    right = lowerValue(cx, rightNode, shift ? undefined : operandExpected);
    if (!right) return null;
    left = shift
      ? constantFor(cx, lc, expected, leftNode)
      : constantFor(cx, lc, right.type, leftNode);
  } else if (rc && !lc) {
    left = lowerValue(cx, leftNode, operandExpected);
    if (!left) return null;
    right = constantFor(cx, rc, shift ? U32 : left.type, rightNode);
  } else {
    left = lowerValue(cx, leftNode, operandExpected);
    right = lowerValue(cx, rightNode, shift ? undefined : (left?.type ?? operandExpected));
  }
  if (!left || !right) return null;
  if (sourceOp === '>>>' && scalarOf(left.type) !== 'u32') {
    return fail(cx, node, msg.unsignedShift(left.type));
  }
  if (spelled === 'operator') {
    const refused = operatorRefused(cx, node, sourceOp, left.type, right.type, leftNode, rightNode);
    if (refused) return fail(cx, node, refused);
  }
  const t = binaryType(op, left.type, right.type);
  if (!t.ok) {
    return fail(
      cx,
      node,
      msg.withOperandHint(t.message, shift, left.type, right.type, textOf(cx, rightNode)),
    );
  }
  return { op: 'binary', operator: op, left, right, type: t.type, span: spanOf(cx, node) };
}

/**
 * An operator written in the source that TypeScript does not have for these operands, which
 * the DSL's functions spell instead (`add(a, b)`, `eq(a, b)`), so that the editor and the build
 * accept the same code; WGSL has them, and `add` and `eq` lower to them.
 */
function operatorRefused(
  cx: Lowering,
  node: Node,
  op: string,
  left: DataType,
  right: DataType,
  leftNode: Expression,
  rightNode: Expression,
): Message | null {
  if (isComposite(left) || isComposite(right)) {
    return msg.compositeOperator(op, left, right, textOf(cx, leftNode), textOf(cx, rightNode));
  }
  if ((op === '&' || op === '|' || op === '^') && scalarOf(left) === 'bool') {
    // The operands as written, parentheses kept, around the operator TypeScript has.
    const between = textOf(cx, { start: leftNode.end, end: rightNode.start });
    const fixed = `${textOf(cx, { start: node.start, end: leftNode.end })}${between.replace(op, op === '^' ? '!==' : `${op}${op}`)}${textOf(cx, { start: rightNode.start, end: node.end })}`;
    return msg.boolBitwise(op, fixed);
  }
  return null;
}

export function isComposite(type: DataType): boolean {
  return type.kind === 'vector' || type.kind === 'matrix';
}

export function binaryOperator(cx: Lowering, op: string, node: Node): BinaryOperator | null {
  switch (op) {
    case '===':
      return '==';
    case '!==':
      return '!=';
    case '>>>':
      return '>>';
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '&':
    case '|':
    case '^':
    case '<<':
    case '>>':
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
    case '&&':
    case '||':
      return op;
    default:
      return fail(cx, node, msg.unsupportedOperator(op));
  }
}

export function lowerConditional(
  cx: Lowering,
  test: Expression,
  whenTrueNode: Expression,
  whenFalseNode: Expression,
  node: Node,
  expected?: DataType,
): Expr | null {
  const condition = lowerValueOf(cx, test, BOOL, 'condition');
  const tc = constantOf(cx, whenTrueNode);
  const fc = constantOf(cx, whenFalseNode);
  let whenTrue: Expr | null;
  let whenFalse: Expr | null;
  if (tc && !fc) {
    whenFalse = lowerValue(cx, whenFalseNode, expected);
    whenTrue = whenFalse ? constantFor(cx, tc, whenFalse.type, whenTrueNode) : null;
  } else {
    whenTrue = lowerValue(cx, whenTrueNode, expected);
    whenFalse = whenTrue ? lowerValueOf(cx, whenFalseNode, whenTrue.type, 'branches') : null;
  }
  if (!condition || !whenTrue || !whenFalse) return null;
  if (!sameType(whenTrue.type, whenFalse.type)) {
    return fail(cx, node, msg.branchTypes(whenTrue.type, whenFalse.type));
  }
  const type = whenTrue.type;
  if (type.kind === 'array' && type.length === 0) {
    return fail(cx, node, msg.conditionalAccessors());
  }
  // `select` evaluates both branches and takes scalars and vectors only.
  const selectable =
    (type.kind === 'scalar' || type.kind === 'vector') &&
    !hasSideEffects(whenTrue) &&
    !hasSideEffects(whenFalse);
  if (!selectable) cx.conditionals = true;
  return {
    op: selectable ? 'select' : 'conditional',
    condition,
    whenTrue,
    whenFalse,
    type,
    span: spanOf(cx, node),
  };
}
