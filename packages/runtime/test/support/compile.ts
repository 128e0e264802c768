/**
 * Real builds: compiles `.sycl.ts` fixtures with the syclts compiler (compileModule, link,
 * emitProgram) and attaches their exported host objects as the integration footer would.
 */
import { readFileSync } from 'node:fs';
import { build } from '@syclts/compiler';
import { attach, type Program } from '@syclts/dsl';

/** One fixture as a program of its own, module path `src/<name>.sycl.ts`. */
export function compileFixture(name: string, exports: Record<string, unknown>): Program {
  return compileProgram([[name, exports]]);
}

/**
 * Fixtures of fixtures/compiled linked into one program, as modules `<root>/<name>.sycl.ts`
 * (relative imports between them resolve), each module's `exports` attached to its IDs.
 */
export function compileProgram(
  fixtures: readonly (readonly [name: string, exports: Record<string, unknown>])[],
  root = 'src',
): Program {
  return compileSources(
    fixtures.map(([name, exports]) => ({
      module: `${root}/${name}.sycl.ts`,
      source: readFileSync(
        new URL(`../fixtures/compiled/${name}.sycl.ts`, import.meta.url),
        'utf8',
      ),
      exports,
    })),
  );
}

/** Sources given as text, linked into one program; each module's `exports` attached to its IDs. */
export function compileSources(
  modules: readonly { module: string; source: string; exports: Record<string, unknown> }[],
): Program {
  const { program, diagnostics } = build(modules, { specConstants: 'both' });
  if (!program) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  for (const { module, exports } of modules) {
    const declarations = Object.entries(exports).filter(
      (entry): entry is [string, object] =>
        typeof entry[1] === 'object' && entry[1] !== null && 'declaration' in entry[1],
    );
    attach(
      program,
      declarations.map(([exportName, value]) => [value, `${module}#${exportName}`] as const),
    );
  }
  return program;
}
