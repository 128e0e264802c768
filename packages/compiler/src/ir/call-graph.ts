/**
 * Recursion in a call graph: WGSL has none, so every call that closes a cycle is an error. One
 * check for the front end (calls within a module) and the link step (calls across modules).
 */

/** A call to `callee`, made at `site` (what a diagnostic points at). */
export interface Call<K, S> {
  readonly callee: K;
  readonly site: S;
}

export interface RecursiveCall<K, S> {
  readonly call: Call<K, S>;
  /** The functions of the cycle in call order, starting and ending with the callee. */
  readonly cycle: readonly K[];
}

/** Each call that closes a cycle, found depth-first from the graph's functions in its order. */
export function recursiveCalls<K, S>(
  graph: ReadonlyMap<K, readonly Call<K, S>[]>,
): RecursiveCall<K, S>[] {
  const found: RecursiveCall<K, S>[] = [];
  const done = new Set<K>();
  const active: K[] = [];
  const visit = (fn: K): void => {
    active.push(fn);
    for (const call of graph.get(fn) ?? []) {
      const at = active.indexOf(call.callee);
      if (at !== -1) found.push({ call, cycle: [...active.slice(at), call.callee] });
      else if (!done.has(call.callee)) visit(call.callee);
    }
    active.pop();
    done.add(fn);
  };
  for (const fn of graph.keys()) if (!done.has(fn)) visit(fn);
  return found;
}
