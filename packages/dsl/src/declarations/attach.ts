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
/** The reverse map, per program: the runtime needs a declaration's host object from its symbolic ID. */
const declarations = new Map<Program, Map<SymbolicId, object>>();

/** Called by the integration footer of each `.sycl.ts` module; not for user code. */
export function attach(
  program: Program,
  declarationList: readonly (readonly [object, SymbolicId])[],
): void {
  let byId = declarations.get(program);
  if (!byId) {
    byId = new Map();
    declarations.set(program, byId);
  }
  for (const [declaration, symbolicId] of declarationList) {
    bindings.set(declaration, { symbolicId, program });
    byId.set(symbolicId, declaration);
  }
}

/** The footer's record for a declaration, or undefined when it did not come through the plugin. */
export function bindingOf(declaration: object): Binding | undefined {
  return bindings.get(declaration);
}

/** The host object attached under `symbolicId` in `program`, if its module's footer ran. */
export function declarationOf(program: Program, symbolicId: SymbolicId): object | undefined {
  return declarations.get(program)?.get(symbolicId);
}

/** Every program some footer attached declarations to, in attachment order. */
export function attachedPrograms(): readonly Program[] {
  return [...declarations.keys()];
}
