import type { Message } from '../diagnostics/codes.js';
import { type Diagnostic, errorAt } from '../diagnostics/diagnostic.js';
import type { SourceText } from './source-text.js';

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

  /** Reports `message` at `at` (a message of diagnostics/frontend-messages.ts). */
  error(at: Located | null, message: Message): void {
    if (this.muteDepth > 0) {
      this.mutedErrors++;
      return;
    }
    this.diagnostics.push(
      errorAt(message, this.file, at ? this.source.span(at.start, at.end) : null),
    );
  }

  /** A consequence of an error already reported: it fails the lowering, adds no message. */
  alreadyReported(): void {
    this.mutedErrors++;
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
