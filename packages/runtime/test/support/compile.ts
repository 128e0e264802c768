/**
 * Real builds: compiles a `.sycl.ts` fixture with the syclts compiler (compileModule, link,
 * emitProgram) and attaches its exported host objects as the integration footer would.
 */
import { readFileSync } from 'node:fs';
import { build } from '@syclts/compiler';
import { attach, type Program } from '@syclts/dsl';

export function compileFixture(name: string, exports: Record<string, unknown>): Program {
  const module = `src/${name}.sycl.ts`;
  const source = readFileSync(
    new URL(`../fixtures/compiled/${name}.sycl.ts`, import.meta.url),
    'utf8',
  );
  const { program, diagnostics } = build([{ module, source }], { specConstants: 'both' });
  if (!program) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const declarations = Object.entries(exports).filter(
    (entry): entry is [string, object] =>
      typeof entry[1] === 'object' && entry[1] !== null && 'declaration' in entry[1],
  );
  attach(
    program,
    declarations.map(([exportName, value]) => [value, `${module}#${exportName}`] as const),
  );
  return program;
}
