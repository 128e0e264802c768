/**
 * Lines as JavaScript (and an editor) counts them: `\r\n`, `\n`, `\r`, U+2028 and U+2029 each
 * end one. Every line and column the compiler reports or maps is computed from these.
 */

/** Whether the code unit at `i` ends a line; a `\r` followed by `\n` does not (the `\n` does). */
export function endsLine(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (
    c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) || c === 0x2028 || c === 0x2029
  );
}

/** The offset each line starts at, the first line's (0) included. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    // endsLine, inline: this runs over every character of every module.
    const c = text.charCodeAt(i);
    if (c > 0x0d && c < 0x2028) continue;
    if (c === 0x0a || c === 0x2028 || c === 0x2029) starts.push(i + 1);
    else if (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) starts.push(i + 1);
  }
  return starts;
}

const OTHER_LINE_ENDS = /[\r\u2028\u2029]/;

/** The lines of `text`, without their terminators. */
export function splitLines(text: string): string[] {
  // Text with `\n` line ends only (the usual) splits without the regular expression.
  return OTHER_LINE_ENDS.test(text) ? text.split(/\r\n|[\n\r\u2028\u2029]/) : text.split('\n');
}
