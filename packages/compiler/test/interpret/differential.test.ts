/**
 * CI's slice of the differential check (see differential.ts): fresh cases every run, the seed
 * printed; SYCLTS_PROPERTY_SEED replays a run and SYCLTS_DIFFERENTIAL_COUNT sets how many
 * cases it runs (the documented longer run).
 */
import { expect, test } from 'vitest';
import { differentialRound } from './differential.js';

const SEED = Number(process.env.SYCLTS_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const COUNT = Number(process.env.SYCLTS_DIFFERENTIAL_COUNT ?? 1040);
const KERNELS = 8;
const CASES_PER_KERNEL = 130;
const ROUNDS = Math.ceil(COUNT / (KERNELS * CASES_PER_KERNEL));

test(
  `${ROUNDS * KERNELS * CASES_PER_KERNEL} random cases agree on the adapter and the interpreter (seed ${SEED})`,
  async () => {
    let cases = 0;
    let checked = 0;
    let indeterminate = 0;
    const found: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const seed = (SEED + round * 0x9e3779b1) >>> 0;
      const r = await differentialRound(seed, KERNELS, CASES_PER_KERNEL);
      cases += r.cases;
      checked += r.checked;
      indeterminate += r.indeterminate;
      for (const d of r.disagreements.slice(0, 3)) {
        found.push(
          `round ${round} (seed ${seed}), ${r.disagreements.length} in all: kernel ${d.kernel}, case ${d.case}, item ${d.item}, component ${d.component} (${d.type}): gpu ${d.gpu}, cpu ${d.cpu}\n${d.text}`,
        );
      }
      if (ROUNDS > 1) {
        console.log(
          `[differential] round ${round + 1}/${ROUNDS}: ${cases} cases, ${found.length} disagreements`,
        );
      }
    }
    console.log(
      `[differential] ${cases} cases: ${checked} results compared, ${indeterminate} indeterminate`,
    );
    if (found.length > 0) expect.fail(found.join('\n\n'));
    expect(cases).toBeGreaterThanOrEqual(COUNT);
    // Indeterminate results are rare (about 0.7%: a rounded f32 near a jump): many would mean
    // the check had stopped comparing.
    expect(indeterminate).toBeLessThan(checked / 20);
  },
  Math.max(300_000, ROUNDS * 120_000),
);
