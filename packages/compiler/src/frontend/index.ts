import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DeviceObject } from '../ir/device-object.js';

export interface CompileOptions {
  /** Root-relative module path with '/' separators: it prefixes every symbolic ID. */
  readonly module: string;
}

export interface CompileResult {
  /** null when an error was reported. */
  readonly object: DeviceObject | null;
  readonly diagnostics: readonly Diagnostic[];
}

/** Compiles one `.sycl.ts` module to its device object. Never throws on any input. */
export function compileModule(_source: string, _options: CompileOptions): CompileResult {
  throw new Error('compileModule: not implemented yet');
}
