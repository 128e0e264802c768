/**
 * What a kernel reaches through its calls: specialization constants and device globals in
 * order of first use (calls expanded where they happen), device functions callees first.
 */
import type { SymbolicId } from '@syclts/dsl';
import type { ResolvedFunction, ResolvedKernel, Use } from './resolve.js';

export interface Reach {
  readonly specConstants: readonly SymbolicId[];
  readonly deviceGlobals: readonly SymbolicId[];
  /** Callees first. */
  readonly functions: readonly ResolvedFunction[];
}

export function reachOf(
  kernel: ResolvedKernel,
  functionOf: (id: SymbolicId) => ResolvedFunction | null,
): Reach {
  const specConstants: SymbolicId[] = [];
  const deviceGlobals: SymbolicId[] = [];
  const functions: ResolvedFunction[] = [];
  const active: SymbolicId[] = [];

  const visit = (uses: readonly Use[]): void => {
    for (const use of uses) {
      if (use.kind === 'specConstant') {
        if (!specConstants.includes(use.id)) specConstants.push(use.id);
      } else if (use.kind === 'deviceGlobal') {
        if (!deviceGlobals.includes(use.id)) deviceGlobals.push(use.id);
      } else if (!active.includes(use.id) && !functions.some((f) => f.id === use.id)) {
        // A call back into the path is recursion, reported by the link step's check.
        const fn = functionOf(use.id);
        // A function with an unresolved reference is reported and left out.
        if (!fn) continue;
        active.push(use.id);
        visit(fn.uses);
        active.pop();
        functions.push(fn);
      }
    }
  };
  visit(kernel.uses);
  return { specConstants, deviceGlobals, functions };
}
