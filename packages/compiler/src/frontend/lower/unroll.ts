/**
 * `for (const i of unroll(...)) body`: the body written out once per value, each copy a block
 * that binds `i` to its value in a u32 `let` marked `unrolled`. Nothing inlines or folds that
 * `let` (a WGSL `let` is no constant expression), so a copy accepts what the loop accepts: a
 * division by the counter's zero, an index past an array's end stay run-time operations. The
 * GPU's compiler still sees each copy's counter as the constant it is.
 */
import type { BindingIdentifier, CallExpression, ForOfStatement, Statement } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Stmt } from '../../ir/device-code.js';
import { type Expression, unwrap, walk } from '../ast.js';
import { U32 } from '../resolver/types.js';
import {
  constantOf,
  fail,
  type Lowering,
  type Node,
  spanOf,
  textOf,
  topEntity,
} from './context.js';
import { declareLocal, lowerBlock } from './statements.js';

/** The most copies of a body that unrolls write out, nested ones multiplied. */
export const MAX_UNROLL = 256;

export function lowerUnrolled(cx: Lowering, node: ForOfStatement): Stmt[] {
  const call = unwrap(node.right as Expression);
  const entity = call.type === 'CallExpression' ? topEntity(cx, call.callee as Expression) : null;
  if (
    call.type !== 'CallExpression' ||
    node.await ||
    entity?.kind !== 'dsl' ||
    entity.name !== 'unroll'
  ) {
    fail(cx, node.right, msg.forOfOther(textOf(cx, node.right)));
    return [];
  }
  const left = node.left;
  const declarator = left.type === 'VariableDeclaration' ? left.declarations[0] : undefined;
  if (
    left.type !== 'VariableDeclaration' ||
    left.kind !== 'const' ||
    left.declarations.length !== 1 ||
    declarator?.id.type !== 'Identifier'
  ) {
    fail(cx, left, msg.unrollVariable());
    return [];
  }
  const values = unrolledValues(cx, call);
  if (!values || !jumpsStayInside(cx, node.body)) return [];
  const copies = cx.unrolledCopies * values.length;
  if (copies > MAX_UNROLL) {
    fail(cx, call, msg.unrollCount(copies, MAX_UNROLL, true));
    return [];
  }
  const outer = cx.unrolledCopies;
  cx.unrolledCopies = Math.max(copies, 1);
  try {
    return copiesOf(cx, node, declarator.id, values);
  } finally {
    cx.unrolledCopies = outer;
  }
}

/** The body once per value, each copy a block binding the counter. */
function copiesOf(
  cx: Lowering,
  node: ForOfStatement,
  id: BindingIdentifier,
  values: readonly number[],
): Stmt[] {
  const name = id.name;
  const out: Stmt[] = [];
  for (const value of values) {
    const before = cx.reporter.errorCount;
    const body = cx.scopes.within(() => {
      const local = declareLocal(cx, name, id, U32, false);
      const init = { op: 'literal', value, type: U32, span: spanOf(cx, id) } as const;
      const bind: Stmt = {
        kind: 'let',
        name: local,
        mutable: false,
        type: U32,
        init,
        unrolled: true,
        span: spanOf(cx, id),
      };
      // The body is a block of its own: it may declare a name like the counter's, as in JS.
      const copy: Stmt = {
        kind: 'block',
        body: lowerBlock(cx, node.body),
        span: spanOf(cx, node.body),
      };
      return [bind, copy];
    });
    // A mistake in the body is reported once, not once per copy.
    if (cx.reporter.errorCount > before) return [];
    out.push({ kind: 'block', body, span: spanOf(cx, node) });
  }
  return out;
}

/** The values of `unroll(end)` or `unroll(start, end, step?)`, or null when reported. */
function unrolledValues(cx: Lowering, call: CallExpression) {
  const args = call.arguments as Expression[];
  if (args.length < 1 || args.length > 3) {
    fail(cx, call, msg.unrollArguments(args.length));
    return null;
  }
  const which = args.length === 1 ? (['end'] as const) : (['start', 'end', 'step'] as const);
  const bounds = { start: 0, end: 0, step: 1 };
  for (const [i, arg] of args.entries()) {
    const v = constantOf(cx, arg);
    const n = v?.kind === 'number' ? v.value : Number.NaN;
    const part = which[i]!;
    const least = part === 'step' ? 1 : 0;
    if (!(Number.isInteger(n) && n >= least && n <= 0xffff_ffff)) {
      fail(cx, arg, msg.unrollBound(part, textOf(cx, arg)));
      return null;
    }
    bounds[part] = n;
  }
  const count = Math.max(0, Math.ceil((bounds.end - bounds.start) / bounds.step));
  if (count > MAX_UNROLL) {
    fail(cx, call, msg.unrollCount(count, MAX_UNROLL, false));
    return null;
  }
  return Array.from({ length: count }, (_, k) => bounds.start + k * bounds.step);
}

const LOOPS: ReadonlySet<string> = new Set([
  'ForStatement',
  'WhileStatement',
  'DoWhileStatement',
  'ForOfStatement',
  'ForInStatement',
]);

/** A `break` or `continue` of the unrolled loop itself (not of a loop inside it) is refused. */
function jumpsStayInside(cx: Lowering, body: Statement): boolean {
  const jumps: (Node & { readonly type: string })[] = [];
  walk(body, (n) => {
    if (jumps.length > 0) return false;
    if (n.type === 'BreakStatement' || n.type === 'ContinueStatement') {
      jumps.push(n as Node & { readonly type: string });
      return false;
    }
    // A jump inside a loop of the body is that loop's.
    return !LOOPS.has(n.type);
  });
  const jump = jumps[0];
  if (!jump) return true;
  fail(cx, jump, msg.unrollJump(jump.type === 'BreakStatement' ? 'break' : 'continue'));
  return false;
}
