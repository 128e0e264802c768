/**
 * Side effects of device-code expressions, in the shape of Tint's `HasSideEffects`: what may
 * not be evaluated more or fewer times, or in another order, than the source says.
 */

import { holdsJointStatement, someChild, someExpr } from './children.js';
import type { Block, Expr } from './device-code.js';

/**
 * Whether evaluating `e` may change memory: an atomic that writes, a call of a device function
 * (which may write device globals or atomics; the front end does not see its body), or a group
 * function (every item of the group takes part: it acts as a barrier).
 */
export function hasSideEffects<R>(e: Expr<R>): boolean {
  if (e.op === 'call' || e.op === 'group') return true;
  if (e.op === 'atomic' && e.fn !== 'atomicLoad') return true;
  return someChild(e, hasSideEffects);
}

/**
 * Whether `block` holds a group function (a joint scan included) or a sub-group query: a kernel
 * holding one is printed in two lowerings, and the device's is chosen at run time. One walk over
 * the expressions (the footer, the emitter and each variant's printer ask it of every kernel).
 */
export function holdsGroups<R>(block: Block<R>): boolean {
  return (
    someExpr(
      block,
      (e) => e.op === 'group' || (e.op === 'item' && e.query.startsWith('subGroup')),
    ) || holdsJointStatement(block)
  );
}
