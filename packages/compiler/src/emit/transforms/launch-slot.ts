/**
 * In the emulated variant a function that reads specialization constants finds them in the
 * record of its launch, whose index it takes as its last parameter: every call of such a
 * function, as an expression or as a statement, passes the caller's launch slot on.
 */
import {
  mapAll,
  mapChildren,
  mapStmt,
  mapUpdateParts,
  type StmtMapper,
} from '../../ir/children.js';
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
  const mapper: StmtMapper<R> = {
    expr,
    block: (b) => mapAll(b, (s) => mapStmt(s, mapper)),
    let: (s) => {
      const init = s.init && expr(s.init);
      return init === s.init ? s : { ...s, init };
    },
    update,
    scoped: (f) => f(),
  };
  return mapper.block(block);
}

function slotOf<R>(at: { readonly span: Expr['span'] }): Expr<R> {
  return { op: 'launchSlot', type: { kind: 'scalar', scalar: 'u32' }, span: at.span };
}
