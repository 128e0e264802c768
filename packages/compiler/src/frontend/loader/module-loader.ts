/**
 * Parses `.sycl.ts` modules, each once per source text: a build compiles each module and reads
 * the modules it imports (for their types, constants and declarations), and all of them share
 * one parse per module. One loader serves one build, or one plugin instance across rebuilds:
 * it keeps the last parse of each module, so it holds no more than the build has modules.
 */
import { type OxcError, type Program, parseSync } from 'oxc-parser';

export interface ParsedModule {
  /** Root-relative module path. */
  readonly module: string;
  readonly source: string;
  /** null when the source does not parse: `errors` says why. */
  readonly program: Program | null;
  readonly errors: readonly OxcError[];
  /** The specifiers of its static imports and re-exports, in source order. */
  readonly specifiers: readonly string[];
}

export class ModuleLoader {
  readonly #parsed = new Map<string, ParsedModule>();

  parse(module: string, source: string): ParsedModule {
    const known = this.#parsed.get(module);
    if (known?.source === source) return known;
    const result = parseSync(module, source, {
      lang: 'ts',
      sourceType: 'module',
      preserveParens: false,
    });
    const specifiers = new Set(result.module.staticImports.map((i) => i.moduleRequest.value));
    for (const e of result.module.staticExports) {
      for (const entry of e.entries) {
        if (entry.moduleRequest) specifiers.add(entry.moduleRequest.value);
      }
    }
    const parsed: ParsedModule = {
      module,
      source,
      program: result.errors.length > 0 ? null : result.program,
      errors: result.errors,
      specifiers: [...specifiers],
    };
    this.#parsed.set(module, parsed);
    return parsed;
  }
}
