/**
 * The GPU compiler's messages about generated WGSL, told in terms of the `.sycl.ts` source: the
 * image's line map (docs/device-images.md) gives the module, line and column, and quotes the
 * line, so a WGSL error reads like a TypeScript one.
 */
import type { LineMap } from '@syclts/dsl';

/** `file:line:col: error: message`, the source line with a caret, then the WGSL line. */
export function sourceMessage(
  map: LineMap | undefined,
  wgsl: string,
  message: GPUCompilationMessage,
): string | null {
  const segments = map?.lines[message.lineNum - 1];
  if (!map || !segments || segments.length === 0) return null;
  let segment = segments[0]!;
  for (const s of segments) if (s[0] <= message.linePos) segment = s;
  const [column, source, line, sourceColumn, exact] = segment;
  const at = exact ? sourceColumn + (message.linePos - column) : sourceColumn;
  const quote = map.quotes[`${source}:${line}`] ?? '';
  const gutter = String(line).length;
  const wgslLine = wgsl.split('\n')[message.lineNum - 1] ?? '';
  return [
    `${map.sources[source]}:${line}:${at}: error: ${message.message}`,
    `  ${line} | ${quote}`,
    `  ${' '.repeat(gutter)} | ${' '.repeat(Math.max(0, at - 1))}^`,
    `  WGSL ${message.lineNum}:${message.linePos} | ${wgslLine.trim()}`,
  ].join('\n');
}
