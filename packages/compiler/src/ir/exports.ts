/**
 * What a module's export name leads to, by the rules of ES modules: a named export or
 * re-export first; otherwise the `export *` entries, which never forward `default` and must
 * agree when several lead to the name. One rule for the front end (which follows exports to
 * learn what an imported name is) and the link step (which follows them to a declaration).
 */
import type { ExportDecl } from './device-object.js';

export type ExportFound<T> =
  | { readonly kind: 'found'; readonly value: T }
  | { readonly kind: 'ambiguous' }
  | { readonly kind: 'missing' };

export interface ExportFollower<T> {
  /** `export { local as name }` or `export const name`. */
  readonly local: (local: string) => T;
  /** `export { imported as name } from specifier`. */
  readonly reexport: (specifier: string, imported: string) => T;
  /** What `name` is through `export * from specifier`, or null when that module lacks it. */
  readonly star: (specifier: string) => T | null;
  /** Whether two stars lead to the same thing. */
  readonly same: (a: T, b: T) => boolean;
}

export function findExport<T>(
  exports: readonly ExportDecl[],
  name: string,
  follow: ExportFollower<T>,
): ExportFound<T> {
  for (const e of exports) {
    if (e.kind === 'local' && e.exported === name) {
      return { kind: 'found', value: follow.local(e.local) };
    }
    if (e.kind === 'reexport' && e.exported === name) {
      return { kind: 'found', value: follow.reexport(e.specifier, e.imported) };
    }
  }
  if (name === 'default') return { kind: 'missing' };
  const found: T[] = [];
  for (const e of exports) {
    if (e.kind !== 'star') continue;
    const value = follow.star(e.specifier);
    if (value !== null && !found.some((f) => follow.same(f, value))) found.push(value);
  }
  if (found.length > 1) return { kind: 'ambiguous' };
  return found.length === 1 ? { kind: 'found', value: found[0]! } : { kind: 'missing' };
}
