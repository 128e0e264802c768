import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourceText } from './source-text.js';

/**
 * Front-end diagnostic codes (SYCL1xxx). Stable: tests and docs refer to them.
 */
export const codes = {
  internal: 'SYCL1000',
  syntax: 'SYCL1001',
  notTopLevel: 'SYCL1002',
  notDslType: 'SYCL1003',
  badDefault: 'SYCL1004',
  badProperties: 'SYCL1005',
  badKernelSpec: 'SYCL1006',
  badFunctionSpec: 'SYCL1007',
  unresolvedImport: 'SYCL1008',
  unsupportedSyntax: 'SYCL1010',
  unknownName: 'SYCL1011',
  typeMismatch: 'SYCL1012',
  literalRange: 'SYCL1013',
  badCall: 'SYCL1014',
  notAssignable: 'SYCL1015',
  badMember: 'SYCL1016',
  badIndex: 'SYCL1017',
  badControlFlow: 'SYCL1018',
  badWgsl: 'SYCL1019',
  badAtomic: 'SYCL1020',
  badBarrier: 'SYCL1021',
  recursion: 'SYCL1022',
  duplicate: 'SYCL1023',
  constantOperand: 'SYCL1024',
  /** A function's locals take more than WGSL's 8192 bytes of function-address-space memory. */
  functionMemory: 'SYCL1050',
  /** An array literal with more elements than WGSL's array value constructor takes. */
  arrayConstructor: 'SYCL1051',
  /** A struct with more members than WGSL allows. */
  structMembers: 'SYCL1052',
  /** A device function with more parameters than WGSL allows. */
  functionParams: 'SYCL1053',
  /** A composite type nested deeper than WGSL allows. */
  typeNesting: 'SYCL1054',
} as const satisfies Record<string, `SYCL${number}`>;

export type Code = (typeof codes)[keyof typeof codes];

interface Located {
  readonly start: number;
  readonly end: number;
}

/** Collects diagnostics for one module. `muted` lets a speculative lowering run silently. */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  private muteDepth = 0;
  private mutedErrors = 0;

  constructor(
    readonly source: SourceText,
    readonly file: string,
  ) {}

  /** `quiet`: a consequence of an error already reported; it fails the lowering, adds no message. */
  error(code: Code, at: Located | null, message: string, hint?: string, quiet = false): void {
    if (this.muteDepth > 0 || quiet) {
      this.mutedErrors++;
      return;
    }
    this.diagnostics.push({
      code,
      severity: 'error',
      message,
      file: this.file,
      span: at ? this.source.span(at.start, at.end) : null,
      ...(hint === undefined ? {} : { hint }),
    });
  }

  /** Runs `fn`; the errors it reports get `context` in front of their message. */
  inContext<T>(context: string, fn: () => T): T {
    const from = this.diagnostics.length;
    const result = fn();
    for (let i = from; i < this.diagnostics.length; i++) {
      const d = this.diagnostics[i]!;
      this.diagnostics[i] = { ...d, message: `${context}: ${d.message}` };
    }
    return result;
  }

  get errorCount(): number {
    return this.diagnostics.length;
  }

  /** Runs `fn` without reporting; returns its result and whether it would have reported. */
  silently<T>(fn: () => T): { result: T; failed: boolean } {
    const before = this.mutedErrors;
    this.muteDepth++;
    try {
      const result = fn();
      return { result, failed: this.mutedErrors > before };
    } finally {
      this.muteDepth--;
      if (this.muteDepth === 0) this.mutedErrors = 0;
    }
  }
}
