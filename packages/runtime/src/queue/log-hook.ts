/**
 * `console.log`'s run-time code is in its own module, `@syclts/runtime/log`, which the
 * integration footer of a module that prints imports: an app without it does not carry it.
 * Loading it sets the hook here.
 */
import type { ResolvedKernel } from '../program/resolve.js';
import type { QueueCore } from './core.js';
import type { SyclEvent } from './event.js';

/** What a launch of a kernel that prints holds: its log buffer, and how its lines get printed. */
export interface LogLaunch {
  readonly buffer: GPUBuffer;
  /** Schedules the read-back and printing of the lines once `launch` has run: the event of that. */
  print(launch: SyclEvent): SyclEvent;
}

/** Set by `@syclts/runtime/log`: a launch's log, null when its kernel does not print. */
export const logHook: {
  launch?: (
    core: QueueCore,
    api: string,
    resolved: ResolvedKernel,
    global: readonly number[],
    local: readonly number[] | null,
  ) => LogLaunch | null;
} = {};
