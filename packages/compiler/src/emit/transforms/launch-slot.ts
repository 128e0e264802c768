/**
 * In the emulated variant a function that reads specialization constants finds them in the
 * record of its launch, whose index it takes as its last parameter: every call of such a
 * function, as an expression or as a statement, passes the caller's launch slot on.
 */
import { mapBlockExprs, mapChildren, mapUpdateParts } from '../../ir/children.js';
import type { Block, Expr, UpdateStmt } from '../../ir/device-code.js';

/** `block` with the launch slot passed to each call of a function in `takesSlot`. */
export function passLaunchSlot<R>(block: Block<R>, takesSlot: ReadonlySet<R>): Block<R> {
  if (takesSlot.size === 0) return block;
  const expr = (e: Expr<R>): Expr<R> => {
    const inner = mapChildren(e, expr);
    return inner.op === 'call' && takesSlot.has(inner.callee)
      ? { ...inner, args: [...inner.args, slotOf(inner)] }
      : inner;
  };
  const update = (s: UpdateStmt<R>): UpdateStmt<R> => {
    const inner = mapUpdateParts(s, expr);
    return inner.kind === 'call' && takesSlot.has(inner.callee)
      ? { ...inner, args: [...inner.args, slotOf(inner)] }
      : inner;
  };
  return mapBlockExprs(block, expr, update);
}

function slotOf<R>(at: { readonly span: Expr['span'] }): Expr<R> {
  return { op: 'launchSlot', type: { kind: 'scalar', scalar: 'u32' }, span: at.span };
}
