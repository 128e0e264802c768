/**
 * Adaptive specialization: a kernel's values that stay the same across launches (its folded
 * arguments, see KernelInfo.foldedArgs, and its specialization constants) are folded into a
 * native pipeline compiled in the background, as 'auto' compiles a new value set's: launches run
 * the generic path (the launch uniform, the emulation buffer) until it is ready, then on it, and
 * back on the generic path from the first launch whose values differ. A launch never waits for
 * it. The pipelines live in the device's pipeline cache (bounded, least recently used dropped
 * first), so values that come back find theirs there and use it from their first launch.
 */
import type { DeviceImage, KernelInfo } from '@syclts/dsl';
import type { DeviceContext } from '../device/device-context.js';
import type { PipelineShelf } from '../device/pipeline-cache.js';
import { canRun } from '../spec-constants/policy.js';
import { nativeConstants, nativeKey, type SpecValues } from '../spec-constants/values.js';
import type { CanonicalValue } from '../values/host-value.js';
import type { AdaptiveProperty, Specializer } from './adaptive-hook.js';
import type { Batch } from './batch.js';
import type { KernelAction } from './kernel-action.js';
import { afterLaunchRan, PreparedLaunch, planFor } from './launch.js';

/**
 * Launches in a row with the same values that start their pipeline's compile: values that
 * change at every launch, or alternate between two sets, never cost a compile (milliseconds of
 * the driver's time each); the sizes of a loop's launches do from its fourth.
 */
export const STABLE_LAUNCHES = 4;

/** What `Queue.create({ adaptive })` takes: adaptive specialization on the queue's kernels. */
export const adaptive: AdaptiveProperty = {
  specializer(): Specializer {
    const kernel = new Specialization();
    return (context, action, values, batch) => kernel.launch(context, action, values, batch);
  },
};

/** One kernel's launches on one queue: the values of the last ones, and their pipeline. */
class Specialization {
  /** Whether a pipeline with values folded in can differ from the generic path; null until the first launch. */
  #useful: boolean | null = null;
  /** The folded arguments' positions in a launch's arguments. */
  #positions: number[] = [];
  /** The last launch's constants key and folded arguments. */
  #constants = '';
  readonly #args: CanonicalValue[] = [];
  /** Launches in a row with those values (0 before the first). */
  #streak = 0;
  /** Their pipeline's key in the kernel's native shelf ('|' never starts a constants key). */
  #key = '';
  /** Whether the last launch ran on a specialised pipeline. */
  #using = false;
  /** The kernel's native pipelines in the device's cache (set when useful). */
  #shelf: PipelineShelf | null = null;
  /** Whether a compile is in flight: one at a time per kernel. */
  #compiling = false;
  /** Keys whose pipeline failed to compile (an override-expression dividing by zero): never retried. */
  readonly #failed = new Set<string>();

  launch(
    context: DeviceContext,
    action: KernelAction,
    values: SpecValues,
    batch: Batch,
  ): PreparedLaunch | null {
    const { program, image, info } = action.resolved;
    this.#useful ??= this.#prepare(context, action, image, info);
    if (!this.#useful) return null;
    const { args } = action;
    const positions = this.#positions;
    const constants = info.specConstants.length > 0 ? nativeKey(program, image, info, values) : '';
    let same = this.#streak > 0 && constants === this.#constants;
    for (let i = 0; same && i < positions.length; i++) {
      same = Object.is(args[positions[i]!], this.#args[i]);
    }
    if (same) this.#streak++;
    else {
      if (this.#using) (context.stats.specializationsDropped as number)++;
      this.#using = false;
      this.#streak = 1;
      this.#constants = constants;
      for (let i = 0; i < positions.length; i++) {
        this.#args[i] = args[positions[i]!] as CanonicalValue;
      }
      this.#key = `|${constants}|${this.#args.join(',')}`;
    }
    const entry = context.pipelines.get(this.#shelf!, this.#key);
    if (!entry) {
      if (this.#streak >= STABLE_LAUNCHES && !this.#compiling && !this.#failed.has(this.#key)) {
        this.#compile(context, action, values, batch);
      }
      return null;
    }
    if (!entry.pipeline) return null;
    const plan = planFor(context, action.plans, action, 'native');
    plan.checkWorkgroupSize(action, values);
    this.#using = true;
    (context.stats.specializedLaunches as number)++;
    context.stats.pipelineCacheHits++;
    return new PreparedLaunch(action, plan, entry, values);
  }

  /**
   * Whether the kernel gains from specialization: it has folded arguments, or its policy runs
   * its constants emulated; either way only with a native variant. Adds the counters.
   */
  #prepare(context: DeviceContext, action: KernelAction, image: DeviceImage, info: KernelInfo) {
    const { stats } = context;
    stats.specializationsStarted ??= 0;
    stats.specializedLaunches ??= 0;
    stats.specializationsDropped ??= 0;
    const { policy } = action;
    const folded = info.foldedArgs?.args ?? [];
    this.#positions = folded.map((a) => action.schema.index.get(a.name)!);
    const useful =
      canRun(image, info, 'native') &&
      (folded.length > 0 || policy.choose(action.name, image, info) === 'emulated');
    if (useful) this.#shelf = context.shelf(image, info, 'native');
    return useful;
  }

  /**
   * Compiles the pipeline of the current values once the launch is submitted and has run, in a
   * task after that (as 'auto' does: whoever waits for the launch goes first).
   */
  #compile(context: DeviceContext, action: KernelAction, values: SpecValues, batch: Batch): void {
    const { program, image, info } = action.resolved;
    const key = this.#key;
    const args = [...this.#args];
    this.#compiling = true;
    (context.stats.specializationsStarted as number)++;
    const compile = () => {
      const constants = { ...nativeConstants(program, image, info, values).constants };
      const folded = info.foldedArgs;
      // A bool's host form: 0 or 1.
      for (const [i, arg] of (folded?.args ?? []).entries())
        constants[arg.override] = Number(args[i]);
      const entryPoint = folded?.entryPoint ?? info.entryPoint;
      return context.pipeline(action.name, image, info, 'native', () => constants, key, {
        entryPoint,
        background: true,
      }).entry.ready;
    };
    const finished = () => {
      this.#compiling = false;
    };
    const failed = () => {
      this.#failed.add(key);
      finished();
    };
    afterLaunchRan(context, batch, compile).then(finished, failed);
  }
}
