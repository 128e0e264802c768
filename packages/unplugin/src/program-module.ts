/**
 * The virtual module every integration footer imports the linked program from. Its code holds a
 * placeholder until the whole module graph is known; a late bundler hook (after linking) replaces
 * the placeholder in the output with the program's JSON, so bundles ship the final WGSL and
 * property sets and never the compiler.
 */
import type { Program } from '@syclts/dsl';

/** Not a URI scheme (webpack would read one as such) and not a valid package name. */
export const PROGRAM_MODULE = '~syclts/program';

/** The program module's resolved ID (the `\0` prefix keeps other plugins away from it). */
export const RESOLVED_PROGRAM_MODULE = `\0${PROGRAM_MODULE}`;

/**
 * The resolved ID for a bundler. esbuild prints every module's ID into the bundle as a comment,
 * and a NUL byte there makes tools take the bundle for a binary file; its modules live in the
 * plugin's own namespace, which keeps other plugins away without the prefix.
 */
export function resolvedProgramModule(framework: string): string {
  return framework === 'esbuild' ? PROGRAM_MODULE : RESOLVED_PROGRAM_MODULE;
}

const PLACEHOLDER = '__syclts_linked_program__';

export const PROGRAM_MODULE_CODE = `export default JSON.parse(${JSON.stringify(PLACEHOLDER)});\n`;

/** The placeholder as it appears in bundler output: a string literal, quoted in any style. */
const PLACEHOLDER_LITERAL = new RegExp(`(["'\`])${PLACEHOLDER}\\1`, 'g');

export interface PlaceholderMatch {
  readonly start: number;
  readonly end: number;
}

export function findPlaceholders(code: string): PlaceholderMatch[] {
  return [...code.matchAll(PLACEHOLDER_LITERAL)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The JavaScript string literal that replaces the placeholder literal. */
export function programLiteral(program: Program): string {
  return JSON.stringify(JSON.stringify(program));
}
