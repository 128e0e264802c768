/**
 * What the tests of reductions share. The launches the tests of reductions with a combiner and
 * of span reductions run, each `[what, n, range, keep]`: items below `n` combine, `keep` leaves the host's value in (else
 * `initializeToIdentity`). Ranges that are no multiple of the work-group (64), more work-groups
 * than a finishing kernel has items (256), a single item, empty ranges.
 */
export const REDUCTION_CASES = [
  ['a range that is no multiple of the work-group', 1000, 1000, true],
  ['items past n that combine nothing', 600, 1000, false],
  ['more work-groups than the finishing kernel has items', 64 * 300 + 17, 64 * 300 + 17, true],
  ['a single item', 1, 1, false],
  ['an empty range: the identity', 5, 0, false],
  ['an empty range: the host values kept', 5, 0, true],
] as const;

/** A reduction's target for a case: the buffer itself (`keep`), or it with `initializeToIdentity`. */
export function targetFor(keep: boolean) {
  return <B>(buffer: B) => (keep ? buffer : { buffer, initializeToIdentity: true as const });
}
