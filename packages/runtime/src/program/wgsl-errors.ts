/**
 * The GPU compiler's messages about generated WGSL, told in terms of the `.sycl.ts` source: the
 * image's line map (docs/device-images.md) gives the module, line and column, and quotes the
 * line, so a WGSL error reads like a TypeScript one.
 */
import type { LineMap } from '@syclts/dsl';

/** The source line `line` of `module` with a caret under `column`, from the map's quotes. */
export function quoteAt(
  map: LineMap | undefined,
  module: string,
  line: number,
  column: number,
): string | null {
  const source = map?.sources.indexOf(module) ?? -1;
  const quote = source >= 0 ? map?.quotes[`${source}:${line}`] : undefined;
  if (quote === undefined) return null;
  const gutter = ' '.repeat(String(line).length);
  return `  ${line} | ${quote}\n  ${gutter} | ${' '.repeat(Math.max(0, column - 1))}^`;
}

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
  const module = map.sources[source]!;
  const wgslLine = wgsl.split('\n')[message.lineNum - 1] ?? '';
  return [
    `${module}:${line}:${at}: error: ${message.message}`,
    quoteAt(map, module, line, at) ?? '',
    `  WGSL ${message.lineNum}:${message.linePos} | ${wgslLine.trim()}`,
  ].join('\n');
}
