/**
 * Lowers device-code statements (kernel and device function bodies) to IR blocks.
 */
import type { DataType } from '@syclts/dsl';
import type { ForStatement, Statement, VariableDeclaration } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Block, JointMatrixStmt, LetStmt, Stmt, UpdateStmt } from '../../ir/device-code.js';
import { hasSideEffects } from '../../ir/effects.js';
import { type Expression, unwrap, walk } from '../ast.js';
import { BOOL, isFloat, isInteger, scalarOf, scalarType } from '../resolver/types.js';
import { lowerConditionals } from './conditionals.js';
import { checkConstants } from './const-check.js';
import { constantOf, fail, type Lowering, type Node, spanOf } from './context.js';
import { checkNesting } from './depth-check.js';
import { lowerValue, lowerValueOf } from './expressions.js';
import { declareGroup } from './groups.js';
import { declareMatrix } from './matrices.js';
import { lowerUnrolled } from './unroll.js';
import { lowerExpressionStatement } from './updates.js';

/** Whether control cannot fall off the end of the block (WGSL requires a return on every path). */
export function alwaysReturns(block: Block): boolean {
  const last = block[block.length - 1];
  if (!last) return false;
  if (last.kind === 'return') return true;
  if (last.kind === 'block') return alwaysReturns(last.body);
  if (last.kind === 'if')
    return last.else !== null && alwaysReturns(last.then) && alwaysReturns(last.else);
  return false;
}

/** Identifiers whose elements or fields are assigned somewhere in the body. */
export function collectMutatedRoots(body: unknown, into: Set<string>): void {
  walk(body, (node) => {
    if (node.type !== 'AssignmentExpression' && node.type !== 'UpdateExpression') return;
    const n = node as { left?: unknown; argument?: unknown };
    let target = (node.type === 'AssignmentExpression' ? n.left : n.argument) as
      | { type: string; object?: unknown; name?: string; expression?: unknown }
      | undefined;
    let depth = 0;
    while (target && target.type !== 'Identifier') {
      if (target.type === 'MemberExpression') depth++;
      target = (target.object ?? target.expression) as typeof target;
    }
    if (depth > 0 && target?.name) into.add(target.name);
  });
}

/** Lowers a whole body: a block, or an expression (the arrow's result). */
export function lowerBody(cx: Lowering, node: Statement | Expression): Block {
  collectMutatedRoots(node, cx.mutatedConsts);
  const block = lowerBodyStatements(cx, node);
  checkConstants(cx.reporter, block);
  const lowered = cx.conditionals
    ? lowerConditionals(
        block,
        [...cx.scopes.localNames(), ...declaredNames(block)],
        (span, message) => cx.reporter.error(span, message),
      )
    : block;
  checkNesting(cx.reporter, lowered);
  return lowered;
}

function lowerBodyStatements(cx: Lowering, node: Statement | Expression): Block {
  if (node.type === 'BlockStatement') return lowerStatements(cx, node.body as Statement[]);
  const expression = node as Expression;
  if (cx.returnType === undefined || cx.returnType === null) {
    const s = lowerExpressionStatement(cx, expression);
    return s ? [s] : [];
  }
  const value = lowerValueOf(cx, expression, cx.returnType, 'result');
  return value ? [{ kind: 'return', value, span: spanOf(cx, expression) }] : [];
}

/** The names of the locals a block declares, at any depth. */
function declaredNames(block: Block): string[] {
  return block.flatMap((s): string[] => {
    switch (s.kind) {
      case 'let':
        return [s.name];
      case 'if':
        return [...declaredNames(s.then), ...declaredNames(s.else ?? [])];
      case 'for':
        return [...(s.init?.kind === 'let' ? [s.init.name] : []), ...declaredNames(s.body)];
      case 'while':
      case 'block':
        return declaredNames(s.body);
      default:
        return [];
    }
  });
}

export function lowerStatements(cx: Lowering, list: readonly Statement[]): Block {
  const out: Stmt[] = [];
  for (const s of list) out.push(...lowerStatement(cx, s));
  return out;
}

export function lowerBlock(cx: Lowering, node: Statement): Block {
  return cx.scopes.within(() =>
    node.type === 'BlockStatement' ? lowerStatements(cx, node.body) : lowerStatement(cx, node),
  );
}

export function lowerStatement(cx: Lowering, node: Statement): Stmt[] {
  const span = spanOf(cx, node);
  switch (node.type) {
    case 'EmptyStatement':
      return [];
    case 'BlockStatement':
      return [{ kind: 'block', body: lowerBlock(cx, node), span }];
    case 'VariableDeclaration':
      return lowerDeclaration(cx, node);
    case 'ExpressionStatement': {
      const s = lowerExpressionStatement(cx, node.expression);
      return s ? [s] : [];
    }
    case 'IfStatement': {
      const condition = lowerValueOf(cx, node.test, BOOL, 'ifCondition');
      const then = lowerBlock(cx, node.consequent);
      const otherwise = node.alternate ? lowerBlock(cx, node.alternate) : null;
      return condition ? [{ kind: 'if', condition, then, else: otherwise, span }] : [];
    }
    case 'WhileStatement': {
      const condition = lowerValueOf(cx, node.test, BOOL, 'whileCondition');
      const body = lowerLoopBody(cx, node.body);
      return condition ? [{ kind: 'while', condition, body, span }] : [];
    }
    case 'ForStatement':
      return cx.scopes.within(() => lowerFor(cx, node));
    case 'BreakStatement':
    case 'ContinueStatement': {
      const kind = node.type === 'BreakStatement' ? 'break' : 'continue';
      if (node.label) {
        fail(cx, node, msg.labelledJump());
        return [];
      }
      if (cx.loopDepth === 0) {
        fail(cx, node, msg.jumpOutsideLoop(kind));
        return [];
      }
      return [{ kind, span }];
    }
    case 'ReturnStatement':
      return lowerReturn(cx, node.argument, node);
    case 'SwitchStatement':
      fail(cx, node, msg.switchStatement());
      return [];
    case 'DoWhileStatement':
      fail(cx, node, msg.doWhile());
      return [];
    case 'ForInStatement':
      fail(cx, node, msg.forIn());
      return [];
    case 'ForOfStatement':
      return lowerUnrolled(cx, node);
    case 'FunctionDeclaration':
      fail(cx, node, msg.nestedFunction());
      return [];
    default:
      fail(cx, node, msg.unsupportedStatement(node.type));
      return [];
  }
}

export function lowerLoopBody(cx: Lowering, node: Statement): Block {
  cx.loopDepth++;
  try {
    return lowerBlock(cx, node);
  } finally {
    cx.loopDepth--;
  }
}

export function lowerDeclaration(
  cx: Lowering,
  node: VariableDeclaration,
  hint?: DataType,
): (LetStmt | JointMatrixStmt)[] {
  if (node.kind !== 'let' && node.kind !== 'const') {
    fail(cx, node, msg.varDeclaration(node.kind));
    return [];
  }
  const out: (LetStmt | JointMatrixStmt)[] = [];
  for (const d of node.declarations) {
    if (d.id.type !== 'Identifier') {
      fail(cx, d.id, msg.destructuring());
      continue;
    }
    const name = d.id.name;
    if (!d.init) {
      fail(cx, d, msg.uninitialized(name));
      continue;
    }
    if (declareGroup(cx, name, d.init, d.id)) continue;
    const matrix = declareMatrix(cx, name, d.init, d.id);
    if (matrix !== false) {
      if (matrix) out.push(matrix);
      continue;
    }
    const init = hint
      ? lowerValueOf(cx, d.init, hint, { kind: 'local', name })
      : lowerValue(cx, d.init);
    if (!init) {
      cx.scopes.declare(name, { kind: 'poisoned' });
      continue;
    }
    const mutable = node.kind === 'let' || cx.mutatedConsts.has(name);
    const local = declareLocal(cx, name, d.id, init.type, mutable);
    out.push({ kind: 'let', name: local, mutable, type: init.type, init, span: spanOf(cx, d) });
  }
  return out;
}

export function declareLocal(
  cx: Lowering,
  name: string,
  node: Node,
  type: DataType,
  mutable: boolean,
): string {
  const declared = cx.scopes.declare(name, {
    kind: 'local',
    name,
    type,
    mutable,
    parameter: false,
  });
  if (!declared) fail(cx, node, msg.alreadyDeclared(name));
  return name;
}

export function lowerFor(cx: Lowering, node: ForStatement): Stmt[] {
  let init: LetStmt | UpdateStmt | null = null;
  if (node.init?.type === 'VariableDeclaration') {
    if (node.init.declarations.length !== 1) {
      fail(cx, node.init, msg.forCounters());
      return [];
    }
    const declared = lowerDeclaration(cx, node.init, counterType(cx, node))[0] ?? null;
    if (declared?.kind === 'jointMatrix') {
      fail(cx, node.init, msg.matrixInLoopHeader());
      return [];
    }
    init = declared;
  } else if (node.init) {
    init = loopClause(cx, node.init as Expression, 'initializer');
  }
  const condition = node.test ? lowerValueOf(cx, node.test, BOOL, 'forCondition') : null;
  const update = node.update ? loopClause(cx, node.update, 'update') : null;
  const body = lowerLoopBody(cx, node.body);
  return [{ kind: 'for', init, condition, update, body, span: spanOf(cx, node) }];
}

/**
 * A loop's initializer or update: one WGSL statement, where a span reduction's combine reads its
 * index twice (elsewhere the link step binds it to a local first), so the index must be free of
 * side effects there.
 */
function loopClause(
  cx: Lowering,
  node: Expression,
  clause: 'initializer' | 'update',
): UpdateStmt | null {
  const s = lowerExpressionStatement(cx, node);
  if (s?.kind === 'combine' && s.index && hasSideEffects(s.index)) {
    return fail(cx, node, msg.spanIndexEffects(s.reduction, clause));
  }
  return s;
}

/**
 * A counter initialised with an integer literal takes the type of the bound it is compared
 * with (`for (let i = 0; i < n; i++)` with `n: u32` counts in u32), not WGSL's default i32.
 */
export function counterType(cx: Lowering, node: ForStatement): DataType | undefined {
  const decl = node.init?.type === 'VariableDeclaration' ? node.init.declarations[0] : undefined;
  const test = node.test ? unwrap(node.test) : null;
  if (!decl?.init || decl.id.type !== 'Identifier' || !test || test.type !== 'BinaryExpression') {
    return undefined;
  }
  const c = constantOf(cx, decl.init);
  if (c?.kind !== 'number' || c.float) return undefined;
  const counter = decl.id.name;
  const left = unwrap(test.left as Expression);
  const right = unwrap(test.right);
  const bound =
    left.type === 'Identifier' && left.name === counter
      ? right
      : right.type === 'Identifier' && right.name === counter
        ? left
        : null;
  if (!bound || constantOf(cx, bound)) return undefined;
  const { result } = cx.reporter.silently(() => lowerValue(cx, bound));
  const s = result ? scalarOf(result.type) : null;
  return result?.type.kind === 'scalar' && (isInteger(s) || isFloat(s))
    ? scalarType(s!)
    : undefined;
}

export function lowerReturn(cx: Lowering, argument: Expression | null, node: Node): Stmt[] {
  const span = spanOf(cx, node);
  if (cx.returnType === undefined || cx.returnType === null) {
    if (argument) {
      fail(
        cx,
        argument,
        cx.returnType === undefined ? msg.kernelReturnsValue() : msg.functionReturnsNothing(),
      );
      return [];
    }
    return [{ kind: 'return', value: null, span }];
  }
  if (!argument) {
    fail(cx, node, msg.returnWithoutValue(cx.returnType));
    return [];
  }
  const value = lowerValueOf(cx, argument, cx.returnType, 'returnedValue');
  return value ? [{ kind: 'return', value, span }] : [];
}
