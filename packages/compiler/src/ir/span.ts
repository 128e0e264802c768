/** A source range: byte offsets for tools, 1-based line and column for people. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
}
