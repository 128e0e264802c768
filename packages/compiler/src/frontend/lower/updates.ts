/**
 * Expression statements, assignments and barriers: what a `for` loop's update may be too.
 */
import { sameType } from '@syclts/dsl';
import type { AssignmentExpression } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { AssignOperator, Expr, UpdateStmt } from '../../ir/device-code.js';
import { type Expression, unwrap } from '../ast.js';
import { isFloat, isInteger, scalarOf, scalarType } from '../resolver/types.js';
import { lowerTarget } from './access.js';
import { lowerCallStatement } from './calls.js';
import { fail, type Lowering, type Node, spanOf, textOf } from './context.js';
import { isComposite, lowerExpr, lowerValueOf } from './expressions.js';
import { consoleMethod, lowerConsoleCall } from './log.js';
import { binaryType } from './operators.js';

export function assignOperator(op: string): AssignOperator | null {
  if (op === '>>>=') return '>>=';
  const allowed: readonly string[] = [
    '=',
    '+=',
    '-=',
    '*=',
    '/=',
    '%=',
    '&=',
    '|=',
    '^=',
    '<<=',
    '>>=',
  ];
  return allowed.includes(op) ? (op as AssignOperator) : null;
}

export function lowerExpressionStatement(cx: Lowering, input: Expression): UpdateStmt | null {
  const node = unwrap(input);
  const span = spanOf(cx, node);
  if (node.type === 'AssignmentExpression') return lowerAssignment(cx, node);
  if (node.type === 'UpdateExpression') {
    const target = lowerTarget(cx, node.argument);
    if (!target) return null;
    const s = scalarOf(target.type);
    if (target.type.kind === 'scalar' && isInteger(s)) {
      return { kind: 'increment', target, operator: node.operator, span };
    }
    if (target.type.kind === 'scalar' && isFloat(s)) {
      // WGSL's ++/-- are for integers only: a float steps by one through += / -=.
      const one: Expr = { op: 'literal', value: 1, type: target.type, span };
      return {
        kind: 'assign',
        target,
        operator: node.operator === '++' ? '+=' : '-=',
        value: one,
        span,
      };
    }
    return fail(cx, node, msg.incrementOperand(node.operator, target.type));
  }
  if (node.type === 'CallExpression') {
    const callee = unwrap(node.callee);
    if (
      callee.type === 'MemberExpression' &&
      !callee.computed &&
      callee.property.type === 'Identifier' &&
      callee.property.name === 'barrier' &&
      unwrap(callee.object).type === 'Identifier'
    ) {
      const b = cx.scopes.lookup((unwrap(callee.object) as { name: string }).name);
      if (b?.kind === 'item') return lowerBarrier(cx, node.arguments as Expression[], node);
    }
    const method = consoleMethod(cx, node);
    if (method !== null) return lowerConsoleCall(cx, method, node);
    return lowerCallStatement(cx, node);
  }
  if (node.type === 'SequenceExpression') {
    return fail(cx, node, msg.unsupportedExpression(node.type));
  }
  const e = lowerExpr(cx, node);
  if (!e) return null;
  return fail(cx, node, msg.noEffect(textOf(cx, node)));
}

export function lowerBarrier(cx: Lowering, args: Expression[], node: Node): UpdateStmt | null {
  if (!cx.kernel?.nd) {
    return fail(cx, node, msg.barrierNeedsNdRange());
  }
  let scope: 'workgroup' | 'storage' = 'workgroup';
  if (args.length === 1) {
    const c = cx.resolver.evalConst(args[0]!);
    if (c?.kind === 'string' && (c.value === 'local' || c.value === 'global')) {
      scope = c.value === 'local' ? 'workgroup' : 'storage';
    } else {
      return fail(cx, args[0]!, msg.barrierScope());
    }
  } else if (args.length > 1) {
    return fail(cx, node, msg.barrierArguments());
  }
  return { kind: 'barrier', scope, span: spanOf(cx, node) };
}

export function lowerAssignment(cx: Lowering, node: AssignmentExpression): UpdateStmt | null {
  const span = spanOf(cx, node);
  const operator = assignOperator(node.operator);
  if (!operator) {
    return fail(cx, node, msg.unsupportedOperator(node.operator));
  }
  const right = unwrap(node.right);
  if (right.type === 'AssignmentExpression') {
    return fail(cx, node, msg.chainedAssignment());
  }
  const target = lowerTarget(cx, node.left);
  if (!target) return null;
  if (operator === '=') {
    const value = lowerValueOf(cx, right, target.type, {
      kind: 'assigned',
      name: textOf(cx, node.left),
    });
    return value ? { kind: 'assign', target, operator, value, span } : null;
  }
  if (isComposite(target.type)) {
    return fail(
      cx,
      node,
      msg.compositeAssignment(
        node.operator,
        target.type,
        textOf(cx, node.left),
        textOf(cx, node.right),
      ),
    );
  }
  const binaryOp = operator.slice(0, -1) as '+';
  const shift = binaryOp === ('<<' as string) || binaryOp === ('>>' as string);
  const value = lowerValueOf(
    cx,
    right,
    shift
      ? target.type.kind === 'vector'
        ? { ...target.type, component: 'u32' }
        : scalarType('u32')
      : target.type,
    'rightHandSide',
  );
  if (!value) return null;
  if (node.operator === '>>>=' && scalarOf(target.type) !== 'u32') {
    return fail(cx, node, msg.unsignedShiftAssignment());
  }
  const t = binaryType(binaryOp, target.type, value.type);
  if (!t.ok || !sameType(t.type, target.type)) {
    return fail(cx, node, t.ok ? msg.compoundResult(target.type) : t.message);
  }
  return { kind: 'assign', target, operator, value, span };
}
