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
/** Every host object attached so far: a relink re-points those of its lineage, old versions included. */
const attached = new Set<object>();
/** A relinked program's first predecessor: state kept per program survives relinks under it. */
const origins = new WeakMap<Program, Program>();
/** Bumped by every attach and relink: what a declaration resolves to may have changed. */
let generation = 0;

/**
 * A number that changes whenever an attach or a relink may have changed what declarations
 * resolve to: the runtime keeps its resolutions until it changes (they are looked up per launch).
 */
export function attachGeneration(): number {
  return generation;
}

/**
 * Every copy of this module loaded in the process, on a process-wide key: an app that ends up
 * with two copies of `@syclts/dsl` (one bundled, one external, say) has its footers attach to
 * one and its runtime look in the other, and the runtime's error should say so.
 */
interface DslCopy {
  readonly location: string;
  readonly attached: (declaration: object) => boolean;
}
const COPIES = Symbol.for('@syclts/dsl copies');
const registry = globalThis as { [COPIES]?: DslCopy[] };
registry[COPIES] ??= [];
const copies = registry[COPIES];
const ownUrl: unknown = import.meta.url;
const thisCopy: DslCopy = {
  location: typeof ownUrl === 'string' ? ownUrl : '<unknown location>',
  attached: (declaration) => bindings.has(declaration),
};
copies.push(thisCopy);

/**
 * Where the other copy of `@syclts/dsl` that attached `declaration` was loaded from, when this
 * copy did not attach it but another one did; otherwise undefined.
 */
export function attachedByAnotherCopy(
  declaration: object,
): { readonly other: string; readonly self: string } | undefined {
  if (bindings.has(declaration)) return undefined;
  const other = copies.find((copy) => copy !== thisCopy && copy.attached(declaration));
  return other && { other: other.location, self: thisCopy.location };
}

/** Called by the integration footer of each `.sycl.ts` module; not for user code. */
export function attach(
  program: Program,
  declarationList: readonly (readonly [object, SymbolicId])[],
): void {
  generation++;
  let byId = declarations.get(program);
  if (!byId) {
    byId = new Map();
    declarations.set(program, byId);
  }
  for (const [declaration, symbolicId] of declarationList) {
    bindings.set(declaration, { symbolicId, program });
    byId.set(symbolicId, declaration);
    attached.add(declaration);
  }
}

/**
 * Called by the dev server's program module when it is relinked after an edit; not for user code.
 * `program` replaces `previous`, the program module's version before the edit, and every program
 * relinked under it: the host objects attached to them (those the page's modules imported before
 * the edit included) now resolve to `program`, by symbolic ID. Other programs in the page (a
 * library built with syclts, say) keep theirs. Without `previous` (the module's first version),
 * nothing is replaced.
 */
export function relink(program: Program, previous?: Program): void {
  generation++;
  if (!previous || previous === program) return;
  const origin = originOf(previous);
  if (!origins.has(program)) origins.set(program, origin);
  let byId = declarations.get(program);
  for (const [earlier, earlierById] of declarations) {
    if (earlier === program || originOf(earlier) !== origin) continue;
    if (!byId) {
      byId = new Map();
      declarations.set(program, byId);
    }
    for (const [symbolicId, declaration] of earlierById) {
      if (!byId.has(symbolicId)) byId.set(symbolicId, declaration);
    }
    declarations.delete(earlier);
  }
  for (const declaration of attached) {
    const binding = bindings.get(declaration);
    if (binding && binding.program !== program && originOf(binding.program) === origin) {
      bindings.set(declaration, { symbolicId: binding.symbolicId, program });
    }
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

/**
 * The latest host object attached under the same symbolic ID and program as `declaration` (after
 * a relink, the edited module's new version of it), or `declaration` itself.
 */
export function latestDeclaration<T extends object>(declaration: T): T {
  const binding = bindings.get(declaration);
  const latest = binding && declarations.get(binding.program)?.get(binding.symbolicId);
  return (latest as T | undefined) ?? declaration;
}

/** The program `program` was relinked from, first in line; `program` itself when it never was. */
export function originOf(program: Program): Program {
  return origins.get(program) ?? program;
}

/** Every program some footer attached declarations to, in attachment order. */
export function attachedPrograms(): readonly Program[] {
  return [...declarations.keys()];
}
