import { isAbsolute, relative, sep } from 'node:path';

/**
 * The module path that prefixes symbolic IDs: relative to the bundler's root, '/' separators,
 * without a query. The same on every machine and in every checkout location.
 */
export function rootRelativePath(root: string, id: string): string {
  const file = stripQuery(id);
  const path = isAbsolute(file) ? relative(root, file) : file;
  return path.split(sep).join('/');
}

/** A module ID without the `?query` that some bundlers add. */
export function stripQuery(id: string): string {
  const query = id.indexOf('?');
  return query === -1 ? id : id.slice(0, query);
}
