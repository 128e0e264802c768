/** Code-unit order, independent of locale: what makes link output independent of module order. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
