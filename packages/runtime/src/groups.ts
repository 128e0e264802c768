/**
 * `@syclts/runtime/groups`: the run-time code of group functions and reductions (which lowering
 * a device runs, reductions' arguments and launches), imported by the integration footer of a
 * `.sycl.ts` module that uses them, so that other apps do not carry it.
 */
import { collectiveLowering } from './device/collectives.js';
import { registerGroups } from './queue/group-hook.js';
import { checkReduction, reductionLaunches } from './queue/reductions.js';

registerGroups({
  check: checkReduction,
  launches: reductionLaunches,
  lowering: collectiveLowering,
});
