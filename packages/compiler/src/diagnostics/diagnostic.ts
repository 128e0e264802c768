import { codeFrameColumns } from '@babel/code-frame';
import type { Span } from '../ir/span.js';
import { docsAnchor, type Message } from './codes.js';
import { endsLine } from './lines.js';

/**
 * A build-time error or warning. Codes are stable (tests and docs refer to them):
 * SYCL1xxx front end, SYCL2xxx link, SYCL3xxx CLI.
 */
export interface Diagnostic {
  readonly code: `SYCL${number}`;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** Root-relative module path. */
  readonly file: string;
  readonly span: Span | null;
  /** What to write instead. */
  readonly hint?: string;
  /** Its code's entry in the error reference, below docs/: `errors.md#sycl1012-type-mismatch`. */
  readonly docs: string;
  /** Other places involved, e.g. the kernels that share a device_image_scope global. */
  readonly related?: readonly {
    readonly file: string;
    readonly span: Span | null;
    readonly message: string;
  }[];
}

/** The error `message` reports at `span` of `file`, with notes at the places `related` names. */
export function errorAt(
  message: Message,
  file: string,
  span: Span | null,
  related?: Diagnostic['related'],
): Diagnostic {
  return {
    code: message.code,
    severity: 'error',
    message: message.message,
    file,
    span,
    ...(message.hint === undefined ? {} : { hint: message.hint }),
    docs: docsAnchor(message.code),
    ...(related === undefined ? {} : { related }),
  };
}

/**
 * How a diagnostic is written out. Bundlers that print the location and the code frame themselves
 * (from the `loc` and `frame` of the error) take the message without them, so neither is printed
 * twice.
 */
export interface FormatOptions {
  /** Lead with `file:line:col: ` (default true). */
  readonly location?: boolean;
  /** Follow with the code frame when the source is at hand (default true). */
  readonly frame?: boolean;
}

/**
 * `file:line:col: error: message`, then a code frame when the source is at hand, the hint, the
 * notes, and last the code's entry in the error reference.
 */
export function formatDiagnostic(
  diagnostic: Diagnostic,
  source?: string,
  options: FormatOptions = {},
): string {
  const { file, span } = diagnostic;
  const where = span ? `${file}:${span.line}:${span.column}` : file;
  const headline = `${diagnostic.severity}: ${diagnostic.message} [${diagnostic.code}]`;
  const lines = [options.location === false ? headline : `${where}: ${headline}`];
  if (span && source !== undefined && options.frame !== false) lines.push(codeFrame(source, span));
  if (diagnostic.hint) lines.push(`  hint: ${diagnostic.hint}`);
  for (const related of diagnostic.related ?? []) {
    const at = related.span
      ? `${related.file}:${related.span.line}:${related.span.column}`
      : related.file;
    lines.push(`  ${at}: note: ${related.message}`);
  }
  lines.push(`  see: docs/${diagnostic.docs}`);
  return lines.join('\n');
}

/** The lines around `span` with the span underlined. */
export function codeFrame(source: string, span: Span): string {
  return codeFrameColumns(source, spanLocation(source, span), { highlightCode: false });
}

function spanLocation(source: string, span: Span) {
  const end = lineColumn(source, span.end);
  return { start: { line: span.line, column: span.column }, end };
}

/** 1-based line and column of a byte offset (UTF-16 code units, as JavaScript strings count). */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (endsLine(source, i)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Thrown only across API boundaries that cannot return diagnostics (bundler hooks). */
export class DiagnosticError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[], sources: Readonly<Record<string, string>> = {}) {
    super(diagnostics.map((d) => formatDiagnostic(d, sources[d.file])).join('\n\n'));
    this.name = 'DiagnosticError';
    this.diagnostics = diagnostics;
  }
}
