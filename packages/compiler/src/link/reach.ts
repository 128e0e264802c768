/**
 * What a kernel reaches through its calls: specialization constants and device globals in
 * order of first use (calls expanded where they happen), device functions callees first.
 */
import type { SymbolicId } from '@syclts/dsl';
import type { ResolvedFunction, ResolvedKernel, Use } from './resolve.js';

export interface Reach {
  readonly specConstants: readonly SymbolicId[];
  readonly deviceGlobals: readonly SymbolicId[];
  readonly functions: readonly SymbolicId[];
}

export function reachOf(
  kernel: ResolvedKernel,
  functionOf: (id: SymbolicId) => ResolvedFunction,
): Reach {
  const specConstants: SymbolicId[] = [];
  const deviceGlobals: SymbolicId[] = [];
  const functions: SymbolicId[] = [];
  const active: SymbolicId[] = [];

  const visit = (uses: readonly Use[]): void => {
    for (const use of uses) {
      if (use.id === '') continue; // unresolved, already reported
      if (use.kind === 'specConstant') {
        if (!specConstants.includes(use.id)) specConstants.push(use.id);
      } else if (use.kind === 'deviceGlobal') {
        if (!deviceGlobals.includes(use.id)) deviceGlobals.push(use.id);
      } else if (!active.includes(use.id) && !functions.includes(use.id)) {
        // A call back into the path is recursion, reported by the link step's check.
        const fn = functionOf(use.id);
        active.push(use.id);
        visit(fn.uses);
        active.pop();
        functions.push(use.id);
      }
    }
  };
  visit(kernel.uses);
  return { specConstants, deviceGlobals, functions };
}
