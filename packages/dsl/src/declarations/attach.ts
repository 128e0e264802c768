import type { Program, SymbolicId } from '../image/program.js';

/**
 * What the integration footer records on each declaration's host object: its symbolic ID and
 * the linked program that holds its device images.
 */
export interface Binding {
  readonly symbolicId: SymbolicId;
  readonly program: Program;
}

const bindings = new WeakMap<object, Binding>();

/** Called by the integration footer of each `.sycl.ts` module; not for user code. */
export function attach(
  program: Program,
  declarations: readonly (readonly [object, SymbolicId])[],
): void {
  for (const [declaration, symbolicId] of declarations) {
    bindings.set(declaration, { symbolicId, program });
  }
}

/** The footer's record for a declaration, or undefined when it did not come through the plugin. */
export function bindingOf(declaration: object): Binding | undefined {
  return bindings.get(declaration);
}
