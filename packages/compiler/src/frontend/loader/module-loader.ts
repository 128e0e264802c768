/**
 * Parses `.sycl.ts` modules for a build: a module that others import is parsed once however many
 * import it, and a module's own compilation reuses the parse its import scan made just before.
 * One loader serves one build, or one plugin instance across rebuilds. It keeps the syntax trees
 * of imported modules only (the last parse of each), not those of every module compiled: most
 * modules are imported by none, and a tree is many times the size of its text.
 */
import { type OxcError, type Program, parseSync } from 'oxc-parser';
import { parseNestingOverflow } from '../nesting-scan.js';

export interface ParsedModule {
  /** Root-relative module path. */
  readonly module: string;
  readonly source: string;
  /** null when the source does not parse: `errors` says why. */
  readonly program: Program | null;
  readonly errors: readonly OxcError[];
  /** The specifiers of its static imports and re-exports, in source order. */
  readonly specifiers: readonly string[];
  /**
   * Where the text nests too deeply for the parser (parseNestingOverflow), or null: such text
   * is never parsed, and `program` is null with no `errors`.
   */
  readonly nestingOverflow: number | null;
}

export class ModuleLoader {
  /** Modules read as imports. */
  readonly #imported = new Map<string, ParsedModule>();
  /** The latest parse of any other module: its compilation usually follows its import scan. */
  #latest: ParsedModule | null = null;

  /** `imported`: the module is read for another one's compilation, so its parse is kept. */
  parse(module: string, source: string, imported = true): ParsedModule {
    const latest = this.#latest?.module === module ? this.#latest : undefined;
    const known = this.#imported.get(module) ?? latest;
    if (known?.source === source) {
      if (imported) this.#imported.set(module, known);
      return known;
    }
    // Text that would exhaust the parser's stack never reaches it: compileModule reports it at
    // its place; a module importing it finds it does not parse.
    const nestingOverflow = parseNestingOverflow(source);
    if (nestingOverflow !== null) {
      const refused: ParsedModule = {
        module,
        source,
        program: null,
        errors: [],
        specifiers: [],
        nestingOverflow,
      };
      if (imported) this.#imported.set(module, refused);
      return refused;
    }
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
      nestingOverflow: null,
    };
    if (imported) this.#imported.set(module, parsed);
    else this.#latest = parsed;
    return parsed;
  }
}
