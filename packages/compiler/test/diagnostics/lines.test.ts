/** Line tables and line splitting agree with `endsLine` on every kind of line end. */
import { describe, expect, test } from 'vitest';
import { endsLine, lineStarts, splitLines } from '../../src/diagnostics/lines.js';
import { SourceText } from '../../src/frontend/source-text.js';

/** The reference: every offset after a code unit that ends a line. */
function starts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (endsLine(text, i)) out.push(i + 1);
  return out;
}

const ENDS = ['\n', '\r\n', '\r', '\u2028', '\u2029'];
const texts = [
  '',
  'one line',
  'a\nb\n',
  '\r\n\r\n',
  '\n\r',
  '\r\r\n\n',
  ...ENDS.map((end) => `first${end}second${end}third`),
  ENDS.join('x'),
  'tab\tand\u000bvertical\ftab\u0085next line\u00a0nbsp\n',
];

describe('lines', () => {
  test.each(texts.map((t) => [JSON.stringify(t), t]))('lineStarts of %s', (_, text) => {
    expect(lineStarts(text)).toEqual(starts(text));
  });

  test.each(texts.map((t) => [JSON.stringify(t), t]))('splitLines of %s', (_, text) => {
    const s = starts(text);
    const expected = s.map((start, i) => {
      const next = s[i + 1];
      if (next === undefined) return text.slice(start);
      // Without the terminator: one code unit, or two for `\r\n`.
      return text.slice(
        start,
        text[next - 2] === '\r' && text[next - 1] === '\n' ? next - 2 : next - 1,
      );
    });
    expect(splitLines(text)).toEqual(expected);
  });

  test('a SourceText finds lines and columns at any offset', () => {
    const text = 'ab\r\ncd\ref\u2028g';
    const source = new SourceText(text);
    const s = starts(text);
    for (let offset = 0; offset <= text.length; offset++) {
      let line = 0;
      while (line + 1 < s.length && s[line + 1]! <= offset) line++;
      expect(source.span(offset, offset + 1)).toEqual({
        start: offset,
        end: Math.min(offset + 1, text.length),
        line: line + 1,
        column: offset - s[line]! + 1,
      });
    }
  });
});
