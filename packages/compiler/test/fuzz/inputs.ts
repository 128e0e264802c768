/**
 * The fuzz inputs of a run: input `index` of seed `seed` is always the same, so any finding is
 * replayed from its two numbers, and workers make their inputs themselves.
 */
import { Rand } from '../frontend/property/generator.js';
import { mutatedCorpus, randomText, tokenSoup } from './corpus-inputs.js';
import { HOSTILE } from './hostile-inputs.js';
import type { FuzzInput, Size } from './input.js';
import { typedKernels } from './typed-inputs.js';

type Generate = (r: Rand, size: Size) => FuzzInput;

/** Generators with their weights: about half hostile, the rest well-typed or corpus-based. */
const FAMILIES: readonly [number, Generate][] = [
  [16, typedKernels],
  [20, mutatedCorpus],
  [8, tokenSoup],
  [4, randomText],
  ...HOSTILE.map((g): [number, Generate] => [52 / HOSTILE.length, g]),
];
const TOTAL = FAMILIES.reduce((s, [w]) => s + w, 0);

/** Mixes seed and index into a generator seed (splitmix32's finaliser). */
function mix(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function inputAt(seed: number, index: number, size: Size = 'full'): FuzzInput {
  const r = new Rand(mix(seed, index));
  let pick = r.next() * TOTAL;
  for (const [weight, generate] of FAMILIES) {
    pick -= weight;
    if (pick < 0) return generate(r, size);
  }
  return FAMILIES[0]![1](r, size);
}
