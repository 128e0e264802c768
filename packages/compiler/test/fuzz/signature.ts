/**
 * Signatures group findings: a message with its specifics (numbers, quoted names, paths, WGSL
 * identifiers) blanked, so one defect seen through many inputs is counted once.
 */
export function normalize(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, "'_'")
    .replace(/\b0x[0-9a-f]+\b/gi, 'N')
    .replace(/-?\b\d+(\.\d+)?(e[+-]?\d+)?[a-z]?\b/gi, 'N')
    .replace(/\b[a-z_$][\w$]*(\/[\w$.-]+)+/gi, 'PATH')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
}

/** The first frame of a stack inside the compiler's sources: where a thrown error came from. */
export function throwSite(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const m = /\/src\/([\w/.-]+\.ts):\d+/.exec(line) ?? /\/([\w.-]+\.[cm]?js):\d+/.exec(line);
    if (m) return m[1]!;
  }
  return 'unknown';
}
