/** The names a misspelt name may have meant, for "did you mean" hints. */
import { closest, distance } from 'fastest-levenshtein';

/** The candidate nearest to `name`, when it is close enough to be a misspelling. */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  const others = candidates.filter((c) => c !== name);
  if (others.length === 0) return undefined;
  const best = closest(name, others);
  // An edit per three characters, rounded up (a swap of two letters is two edits): `scael` →
  // `scale`, `outptu` → `output`; single letters are never guessed.
  const allowed = Math.ceil(name.length / 3);
  return distance(name, best) <= allowed && name.length > 1 ? best : undefined;
}
