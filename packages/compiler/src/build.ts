/** Compile many `.sycl.ts` sources, link and emit in one call (what the CLI runs). */
import type { Program } from '@syclts/dsl';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import { type EmitOptions, emitProgram } from './emit/index.js';
import { compileModule } from './frontend/index.js';
import { ModuleLoader } from './frontend/loader/module-loader.js';
import type { DeviceObject } from './ir/device-object.js';
import { type LinkOptions, link } from './link/index.js';

export interface BuildSource {
  /** Root-relative module path with '/' separators: it prefixes every symbolic ID. */
  readonly module: string;
  readonly source: string;
}

export interface BuildResult {
  /** null when an error was reported. */
  readonly program: Program | null;
  readonly diagnostics: readonly Diagnostic[];
}

export function build(
  sources: readonly BuildSource[],
  options: LinkOptions & EmitOptions = {},
): BuildResult {
  const diagnostics: Diagnostic[] = [];
  const texts = new Map(sources.map((s) => [s.module, s.source]));
  const resolveSource = relativeResolver(texts);
  // Device code may use types and functions of the other given modules: the front end reads them.
  const loadImport = (fromModule: string, specifier: string) => {
    const module = resolveSource(fromModule, specifier);
    return module === null ? null : { module, source: texts.get(module)! };
  };
  const objects = new Map<string, DeviceObject>();
  const loader = new ModuleLoader();
  for (const { module, source } of sources) {
    const result = compileModule(source, { module, loadImport, loader });
    diagnostics.push(...result.diagnostics);
    if (result.object) objects.set(module, result.object);
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { program: null, diagnostics };
  const linked = link({ modules: objects, resolveImport: relativeResolver(objects) }, options);
  diagnostics.push(...linked.diagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return { program: null, diagnostics };
  return { program: emitProgram(linked, options), diagnostics };
}

/**
 * Resolves relative specifiers among the given modules the way TypeScript's NodeNext and
 * bundlers do: as written, with `.js` standing for `.ts`, or with `.ts` appended.
 */
export function relativeResolver(
  modules: ReadonlyMap<string, unknown>,
): (fromModule: string, specifier: string) => string | null {
  return (fromModule, specifier) => {
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
    const parts = fromModule.split('/').slice(0, -1);
    for (const part of specifier.split('/')) {
      if (part === '..') parts.pop();
      else if (part !== '.') parts.push(part);
    }
    const path = parts.join('/');
    const candidates = [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, `${path}/index.sycl.ts`];
    return candidates.find((c) => modules.has(c)) ?? null;
  };
}
