/** Lowers device-code statements (kernel and device function bodies) to IR blocks. */
import type { AccessMode, DataType } from '@syclts/dsl';
import { sameType } from '@syclts/dsl';
import type {
  AssignmentExpression,
  ForStatement,
  Statement,
  VariableDeclaration,
} from 'oxc-parser';
import type {
  AssignOperator,
  Block,
  Expr,
  LetStmt,
  Stmt,
  UpdateStmt,
} from '../../ir/device-code.js';
import { type Expression, unwrap, walk } from '../ast.js';
import { codes } from '../report.js';
import { BOOL, isFloat, isInteger, scalarOf, scalarType, typeName } from '../resolver/types.js';
import { ExpressionLowering, invalidConstantOperand } from './expressions.js';
import { binaryType } from './operators.js';
import { localName } from './scope.js';

type Node = { readonly start: number; readonly end: number };

export class StatementLowering extends ExpressionLowering {
  /** Accessor arguments by IR name, for write checks. */
  accessModes = new Map<string, AccessMode>();
  /** Declared return type of a device function (null: returns nothing), or undefined in a kernel. */
  returnType: DataType | null | undefined = undefined;
  /** Names of `const`s whose parts are written, which WGSL needs as `var`. */
  private mutatedConsts = new Set<string>();
  private loopDepth = 0;

  protected override readOnlyAccessor(name: string): boolean {
    return this.accessModes.get(name) === 'read';
  }

  /** Lowers a whole body: a block, or an expression (the arrow's result). */
  body(node: Statement | Expression): Block {
    collectMutatedRoots(node, this.mutatedConsts);
    if (node.type === 'BlockStatement') return this.statements(node.body as Statement[]);
    const expression = node as Expression;
    if (this.returnType === undefined || this.returnType === null) {
      const s = this.expressionStatement(expression);
      return s ? [s] : [];
    }
    const value = this.valueOf(expression, this.returnType, 'the result');
    return value ? [{ kind: 'return', value, span: this.span(expression) }] : [];
  }

  private statements(list: readonly Statement[]): Block {
    const out: Stmt[] = [];
    for (const s of list) out.push(...this.statement(s));
    return out;
  }

  private block(node: Statement): Block {
    return this.scopes.within(() =>
      node.type === 'BlockStatement' ? this.statements(node.body) : this.statement(node),
    );
  }

  private statement(node: Statement): Stmt[] {
    const span = this.span(node);
    switch (node.type) {
      case 'EmptyStatement':
        return [];
      case 'BlockStatement':
        return [{ kind: 'block', body: this.block(node), span }];
      case 'VariableDeclaration':
        return this.declaration(node);
      case 'ExpressionStatement': {
        const s = this.expressionStatement(node.expression);
        return s ? [s] : [];
      }
      case 'IfStatement': {
        const condition = this.valueOf(node.test, BOOL, 'an if condition');
        const then = this.block(node.consequent);
        const otherwise = node.alternate ? this.block(node.alternate) : null;
        return condition ? [{ kind: 'if', condition, then, else: otherwise, span }] : [];
      }
      case 'WhileStatement': {
        const condition = this.valueOf(node.test, BOOL, 'a while condition');
        const body = this.loopBody(node.body);
        return condition ? [{ kind: 'while', condition, body, span }] : [];
      }
      case 'ForStatement':
        return this.scopes.within(() => this.forStatement(node));
      case 'BreakStatement':
      case 'ContinueStatement': {
        const kind = node.type === 'BreakStatement' ? 'break' : 'continue';
        if (node.label) {
          this.fail(
            codes.unsupportedSyntax,
            node,
            'labelled break/continue has no WGSL equivalent',
          );
          return [];
        }
        if (this.loopDepth === 0) {
          this.fail(codes.badControlFlow, node, `\`${kind}\` outside a loop`);
          return [];
        }
        return [{ kind, span }];
      }
      case 'ReturnStatement':
        return this.returnStatement(node.argument, node);
      case 'SwitchStatement':
        this.fail(
          codes.unsupportedSyntax,
          node,
          '`switch` is not supported in device code',
          'write if / else if',
        );
        return [];
      case 'DoWhileStatement':
        this.fail(
          codes.unsupportedSyntax,
          node,
          '`do ... while` is not supported in device code',
          'write while (true) { ...; if (!condition) break; }',
        );
        return [];
      case 'ForInStatement':
      case 'ForOfStatement':
        this.fail(
          codes.unsupportedSyntax,
          node,
          `\`${node.type === 'ForInStatement' ? 'for ... in' : 'for ... of'}\` is not supported in device code`,
          'write for (let i = 0; i < n; i++)',
        );
        return [];
      case 'FunctionDeclaration':
        this.fail(
          codes.unsupportedSyntax,
          node,
          'functions cannot be declared inside device code',
          'declare a top-level deviceFunction and call it',
        );
        return [];
      default:
        this.fail(
          codes.unsupportedSyntax,
          node,
          `${node.type.replace(/Statement$|Declaration$/, '').toLowerCase() || 'this'} statements are not supported in device code`,
        );
        return [];
    }
  }

  private loopBody(node: Statement): Block {
    this.loopDepth++;
    try {
      return this.block(node);
    } finally {
      this.loopDepth--;
    }
  }

  private declaration(node: VariableDeclaration, hint?: DataType): LetStmt[] {
    if (node.kind !== 'let' && node.kind !== 'const') {
      this.fail(
        codes.unsupportedSyntax,
        node,
        `\`${node.kind}\` is not supported in device code`,
        'write let or const',
      );
      return [];
    }
    const out: LetStmt[] = [];
    for (const d of node.declarations) {
      if (d.id.type !== 'Identifier') {
        this.fail(
          codes.unsupportedSyntax,
          d.id,
          'destructuring is not supported in device code',
          'declare one name per value',
        );
        continue;
      }
      const name = d.id.name;
      if (!d.init) {
        this.fail(
          codes.unsupportedSyntax,
          d,
          `\`${name}\` needs an initial value (its WGSL type comes from it)`,
          `write let ${name} = f32(0); or the value it should start with`,
        );
        continue;
      }
      const init = hint ? this.valueOf(d.init, hint, `\`${name}\``) : this.value(d.init);
      if (!init) {
        this.scopes.declare(name, { kind: 'poisoned' });
        continue;
      }
      const mutable = node.kind === 'let' || this.mutatedConsts.has(name);
      const wgsl = this.declareLocal(name, d.id, init.type, mutable);
      out.push({ kind: 'let', name: wgsl, mutable, type: init.type, init, span: this.span(d) });
    }
    return out;
  }

  private declareLocal(name: string, node: Node, type: DataType, mutable: boolean): string {
    const wgsl = localName(name);
    const declared = this.scopes.declare(name, {
      kind: 'local',
      name: wgsl,
      type,
      mutable,
      parameter: false,
    });
    if (!declared)
      this.fail(codes.duplicate, node, `\`${name}\` is already declared in this scope`);
    return wgsl;
  }

  private forStatement(node: ForStatement): Stmt[] {
    let init: LetStmt | UpdateStmt | null = null;
    if (node.init?.type === 'VariableDeclaration') {
      if (node.init.declarations.length !== 1) {
        this.fail(codes.unsupportedSyntax, node.init, 'a for loop declares one counter in WGSL');
        return [];
      }
      init = this.declaration(node.init, this.counterType(node))[0] ?? null;
    } else if (node.init) {
      init = this.expressionStatement(node.init as Expression);
    }
    const condition = node.test ? this.valueOf(node.test, BOOL, 'a for condition') : null;
    const update = node.update ? this.expressionStatement(node.update) : null;
    const body = this.loopBody(node.body);
    return [{ kind: 'for', init, condition, update, body, span: this.span(node) }];
  }

  /**
   * A counter initialised with an integer literal takes the type of the bound it is compared
   * with (`for (let i = 0; i < n; i++)` with `n: u32` counts in u32), not WGSL's default i32.
   */
  private counterType(node: ForStatement): DataType | undefined {
    const decl = node.init?.type === 'VariableDeclaration' ? node.init.declarations[0] : undefined;
    const test = node.test ? unwrap(node.test) : null;
    if (!decl?.init || decl.id.type !== 'Identifier' || !test || test.type !== 'BinaryExpression') {
      return undefined;
    }
    const c = this.constantOf(decl.init);
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
    if (!bound || this.constantOf(bound)) return undefined;
    const { result } = this.reporter.silently(() => this.value(bound));
    const s = result ? scalarOf(result.type) : null;
    return result?.type.kind === 'scalar' && (isInteger(s) || isFloat(s))
      ? scalarType(s!)
      : undefined;
  }

  private expressionStatement(input: Expression): UpdateStmt | null {
    const node = unwrap(input);
    const span = this.span(node);
    if (node.type === 'AssignmentExpression') return this.assignment(node);
    if (node.type === 'UpdateExpression') {
      const target = this.target(node.argument);
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
      return this.fail(
        codes.typeMismatch,
        node,
        `\`${node.operator}\` needs a number, not ${typeName(target.type)}`,
      );
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
        const b = this.scopes.lookup((unwrap(callee.object) as { name: string }).name);
        if (b?.kind === 'item') return this.barrier(node.arguments as Expression[], node);
      }
      const e = this.expr(node);
      return e ? { kind: 'expr', expr: e, span } : null;
    }
    if (node.type === 'SequenceExpression') {
      return this.fail(
        codes.unsupportedSyntax,
        node,
        'the comma operator is not supported in device code',
      );
    }
    const e = this.expr(node);
    if (!e) return null;
    return this.fail(codes.unsupportedSyntax, node, `\`${this.text(node)}\` has no effect`);
  }

  private barrier(args: Expression[], node: Node): UpdateStmt | null {
    if (!this.kernel?.nd) {
      return this.fail(
        codes.badBarrier,
        node,
        'barriers need an nd-range kernel',
        'declare the kernel with { ndRange: D, workgroupSize: [...] }',
      );
    }
    let scope: 'workgroup' | 'storage' = 'workgroup';
    if (args.length === 1) {
      const c = this.resolver.evalConst(args[0]!);
      if (c?.kind === 'string' && (c.value === 'local' || c.value === 'global')) {
        scope = c.value === 'local' ? 'workgroup' : 'storage';
      } else {
        return this.fail(codes.badBarrier, args[0]!, "barrier takes 'local' or 'global'");
      }
    } else if (args.length > 1) {
      return this.fail(
        codes.badBarrier,
        node,
        "barrier takes at most one argument ('local' or 'global')",
      );
    }
    return { kind: 'barrier', scope, span: this.span(node) };
  }

  private assignment(node: AssignmentExpression): UpdateStmt | null {
    const span = this.span(node);
    const operator = assignOperator(node.operator);
    if (!operator) {
      return this.fail(
        codes.unsupportedSyntax,
        node,
        `\`${node.operator}\` is not supported in device code`,
      );
    }
    const right = unwrap(node.right);
    if (right.type === 'AssignmentExpression') {
      return this.fail(
        codes.unsupportedSyntax,
        node,
        'chained assignments are not supported',
        'assign one at a time',
      );
    }
    const target = this.target(node.left);
    if (!target) return null;
    if (operator === '=') {
      const value = this.valueOf(
        right,
        target.type,
        `the value assigned to \`${this.text(node.left)}\``,
      );
      return value ? { kind: 'assign', target, operator, value, span } : null;
    }
    const binaryOp = operator.slice(0, -1) as '+';
    const shift = binaryOp === ('<<' as string) || binaryOp === ('>>' as string);
    const value = this.valueOf(
      right,
      shift
        ? target.type.kind === 'vector'
          ? { ...target.type, component: 'u32' }
          : scalarType('u32')
        : target.type,
      'the right-hand side',
    );
    if (!value) return null;
    if (node.operator === '>>>=' && scalarOf(target.type) !== 'u32') {
      return this.fail(codes.typeMismatch, node, '`>>>=` is a logical shift of a u32');
    }
    const invalid = invalidConstantOperand(binaryOp, target.type, value);
    if (invalid) return this.fail(codes.constantOperand, right, invalid);
    const t = binaryType(binaryOp, target.type, value.type);
    if (!t.ok || !sameType(t.type, target.type)) {
      return this.fail(
        codes.typeMismatch,
        node,
        t.ok ? `the result is not ${typeName(target.type)}` : t.why,
      );
    }
    return { kind: 'assign', target, operator, value, span };
  }

  private returnStatement(argument: Expression | null, node: Node): Stmt[] {
    const span = this.span(node);
    if (this.returnType === undefined || this.returnType === null) {
      if (argument) {
        this.fail(
          codes.badControlFlow,
          argument,
          this.returnType === undefined
            ? 'a kernel returns no value'
            : 'this function declares no `returns` type',
        );
        return [];
      }
      return [{ kind: 'return', value: null, span }];
    }
    if (!argument) {
      this.fail(
        codes.badControlFlow,
        node,
        `this function must return ${typeName(this.returnType)}`,
      );
      return [];
    }
    const value = this.valueOf(argument, this.returnType, 'the returned value');
    return value ? [{ kind: 'return', value, span }] : [];
  }
}

function assignOperator(op: string): AssignOperator | null {
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
function collectMutatedRoots(body: unknown, into: Set<string>): void {
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
