/**
 * Where printed WGSL lines come from. The printer tags each line it prints for device code
 * with the place in its `.sycl.ts` module (a statement's start, or exact columns for raw WGSL
 * text) through a marker no WGSL contains; `lineMap` strips the markers from the module text
 * and turns them into the image's `LineMap`.
 */
import type { LineMap, LineSegment } from '@syclts/dsl';
import { splitLines } from '../../diagnostics/lines.js';
import type { Span } from '../../ir/span.js';

const MARK = '\u0000';

/** One run of a line: from WGSL column `column` on, it comes from `line`:`sourceColumn`. */
export interface Origin {
  readonly column: number;
  readonly module: string;
  readonly line: number;
  readonly sourceColumn: number;
  /** Columns correspond one to one (raw WGSL text), or the run comes from one place. */
  readonly exact: boolean;
}

export class LineOrigins {
  readonly #origins: (readonly Origin[])[] = [];

  /** `line` tagged as coming from `span` of `module` (unless a nested statement tagged it). */
  mark(line: string, module: string, span: Span): string {
    return this.markRuns(line, [
      { column: 1, module, line: span.line, sourceColumn: span.column, exact: false },
    ]);
  }

  markRuns(line: string, runs: readonly Origin[]): string {
    if (line.includes(MARK)) return line;
    this.#origins.push(runs);
    return `${line}${MARK}${this.#origins.length - 1}${MARK}`;
  }

  /**
   * The WGSL without markers, and where its lines come from; `sources` gives the text of each
   * module named, for quoting its lines.
   */
  lineMap(
    code: string,
    sources: ReadonlyMap<string, string>,
  ): { readonly code: string; readonly map: LineMap } {
    const modules: string[] = [];
    const quotes: Record<string, string> = {};
    const sourceLines = new Map<string, readonly string[]>();
    const lines: (readonly LineSegment[] | null)[] = [];
    const out = code.split('\n').map((text) => {
      const at = text.indexOf(MARK);
      if (at < 0) {
        lines.push(null);
        return text;
      }
      const runs = this.#origins[Number(text.slice(at + 1, -1))]!;
      lines.push(
        runs.map((run) => {
          let index = modules.indexOf(run.module);
          if (index < 0) index = modules.push(run.module) - 1;
          let textLines = sourceLines.get(run.module);
          if (!textLines) {
            textLines = splitLines(sources.get(run.module) ?? '');
            sourceLines.set(run.module, textLines);
          }
          quotes[`${index}:${run.line}`] = (textLines[run.line - 1] ?? '').trimEnd();
          return [run.column, index, run.line, run.sourceColumn, run.exact ? 1 : 0] as const;
        }),
      );
      return text.slice(0, at);
    });
    return { code: out.join('\n'), map: { version: 1, sources: modules, lines, quotes } };
  }
}
