/** Markdown tables for the generated sections of docs/benchmarks.md. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: string,
): string {
  const spec = align ?? header.map((_, i) => (i === 0 ? 'l' : 'r')).join('');
  const rule = [...spec].map((a) => (a === 'l' ? '---' : '---:'));
  return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export const fixed = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
