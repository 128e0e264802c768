import { lineStarts } from '../diagnostics/lines.js';
import type { Span } from '../ir/span.js';

/**
 * Offsets are JavaScript string offsets (UTF-16 code units): oxc-parser's JS binding already
 * reports them that way, so no conversion is needed; lines end as JavaScript ends them
 * (diagnostics/lines.ts) and are found by binary search.
 */
export class SourceText {
  /** Made at the first span: the text of an imported module often needs none. */
  #lineStarts: readonly number[] | null = null;

  constructor(readonly text: string) {}

  span(start: number, end: number): Span {
    const clampedStart = Math.max(0, Math.min(start, this.text.length));
    this.#lineStarts ??= lineStarts(this.text);
    const starts = this.#lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= clampedStart) lo = mid;
      else hi = mid - 1;
    }
    const lineStart = starts[lo] ?? 0;
    return {
      start: clampedStart,
      end: Math.max(clampedStart, Math.min(end, this.text.length)),
      line: lo + 1,
      column: clampedStart - lineStart + 1,
    };
  }

  slice(node: { start: number; end: number }): string {
    return this.text.slice(node.start, node.end);
  }
}
