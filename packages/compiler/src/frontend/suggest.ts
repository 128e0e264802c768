/** "Did you mean" hints for misspelt names. */
import { closest, distance } from 'fastest-levenshtein';

/** The candidate nearest to `name` as a hint, when it is close enough to be a misspelling. */
export function didYouMean(name: string, candidates: readonly string[]): string | undefined {
  const others = candidates.filter((c) => c !== name);
  if (others.length === 0) return undefined;
  const best = closest(name, others);
  // An edit per three characters, rounded up (a swap of two letters is two edits): `scael` →
  // `scale`, `outptu` → `output`; single letters are never guessed.
  const allowed = Math.ceil(name.length / 3);
  return distance(name, best) <= allowed && name.length > 1
    ? `did you mean \`${best}\`?`
    : undefined;
}
