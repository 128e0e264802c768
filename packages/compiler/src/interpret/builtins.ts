/**
 * WGSL's built-in functions on interpreter values: the built-in table's implementations
 * (builtins/evaluate.ts), found by the WGSL name the IR gives them.
 */
import type { DataType } from '@syclts/dsl';
import { applyBuiltin, IMPLEMENTATIONS, type Value } from '../builtins/evaluate.js';
import { BUILTINS } from '../builtins/overloads.js';

type Fn = (args: readonly Value[], types: readonly DataType[], result: DataType) => Value;

const FUNCTIONS: ReadonlyMap<string, Fn> = new Map(
  [...BUILTINS.values()].map((b): [string, Fn] => {
    const impl = IMPLEMENTATIONS[b.name];
    return [b.wgsl, (args, types, result) => applyBuiltin(impl, args, types, result)];
  }),
);

/** The WGSL built-in `name` applied to `args`, or undefined when the interpreter has none. */
export function builtinFunction(name: string): Fn | undefined {
  return FUNCTIONS.get(name);
}

/** The names of the built-ins the interpreter implements (arrayLength is a place query, apart). */
export const INTERPRETED_BUILTINS: ReadonlySet<string> = new Set([
  ...FUNCTIONS.keys(),
  'arrayLength',
]);
