/**
 * `console.log(...)` in device code: its text (string literals, template literals' text and
 * constants, folded as JavaScript prints them) and its values (scalars and vectors), as one
 * `log` statement. The arguments are joined by single spaces, as JavaScript joins them.
 */
import { LOG_MAX_WORDS } from '@syclts/dsl';
import type { CallExpression } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expr, UpdateStmt } from '../../ir/device-code.js';
import { type Expression, unwrap } from '../ast.js';
import { fail, type Lowering, mentionsLocal, spanOf, textOf } from './context.js';
import { lowerValue } from './expressions.js';

/** The method of a `console.<method>(...)` call, when `console` is JavaScript's. */
export function consoleMethod(cx: Lowering, node: CallExpression): string | null {
  const callee = unwrap(node.callee);
  if (callee.type !== 'MemberExpression' || callee.computed) return null;
  const object = unwrap(callee.object);
  if (object.type !== 'Identifier' || object.name !== 'console') return null;
  if (cx.scopes.lookup('console') || cx.resolver.top.bindings.has('console')) return null;
  return callee.property.type === 'Identifier' ? callee.property.name : null;
}

export function lowerConsoleCall(
  cx: Lowering,
  method: string,
  node: CallExpression,
): UpdateStmt | null {
  if (method !== 'log') return fail(cx, node.callee, msg.consoleMethod(method));
  const parts = [''];
  const args: Expr[] = [];
  let ok = true;
  const text = (s: string) => {
    parts[parts.length - 1] += s;
  };
  const value = (n: Expression) => {
    const folded = mentionsLocal(cx, n) ? null : cx.resolver.evalConst(n, 'device');
    if (folded?.kind === 'string' || folded?.kind === 'bool') return text(String(folded.value));
    if (folded?.kind === 'number') return text(String(folded.exact ?? folded.value));
    if (joinsText(n)) {
      ok = false;
      return fail(cx, n, msg.logText(textOf(cx, n)));
    }
    const e = lowerValue(cx, n);
    if (!e) {
      ok = false;
      return;
    }
    if (e.type.kind !== 'scalar' && e.type.kind !== 'vector') {
      ok = false;
      return fail(cx, n, msg.logArgument(textOf(cx, n), e.type));
    }
    args.push(e);
    parts.push('');
  };
  for (const [i, a] of node.arguments.entries()) {
    if (i > 0) text(' ');
    if (a.type === 'SpreadElement') {
      ok = false;
      fail(cx, a, msg.logText(textOf(cx, a)));
      continue;
    }
    const n = unwrap(a);
    if (n.type !== 'TemplateLiteral') {
      value(n);
      continue;
    }
    for (const [j, q] of n.quasis.entries()) {
      text(q.value.cooked ?? q.value.raw);
      const hole = n.expressions[j];
      if (hole) value(hole);
    }
  }
  if (!ok) return null;
  const words = args.reduce((w, e) => w + (e.type.kind === 'vector' ? e.type.size : 1), 0);
  if (words > LOG_MAX_WORDS) return fail(cx, node, msg.logTooLarge(words, LOG_MAX_WORDS));
  return { kind: 'log', parts, args, span: spanOf(cx, node) };
}

/** Whether `n` joins text to a value (`'n = ' + n`): text known only at run time. */
function joinsText(n: Expression): boolean {
  const e = unwrap(n);
  if (e.type === 'TaggedTemplateExpression') return true;
  if (e.type !== 'BinaryExpression' || e.operator !== '+') return false;
  const side = (s: Expression) => {
    const u = unwrap(s);
    return (
      (u.type === 'Literal' && typeof u.value === 'string') ||
      u.type === 'TemplateLiteral' ||
      joinsText(u)
    );
  };
  return side(e.left as Expression) || side(e.right);
}
