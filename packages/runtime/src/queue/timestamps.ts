/**
 * Command profiling (SYCL's `property::queue::enable_profiling`) through WebGPU timestamp queries,
 * reached through `@syclts/runtime/profiling` only, so that an app that does not profile carries
 * none of it: a profiling queue's scheduler is decorated here, its two entry points (`launch`,
 * `schedule`) wrapped, and the queue and its scheduler hold two hooks (`profiler`, `spans`).
 *
 * Each command is submitted between two empty compute passes, one submitted just before it whose
 * `timestampWrites` give its start, one just after it giving its end; the second's encoder
 * resolves both and copies them to a buffer read back once it completes. A launch is therefore
 * submitted on its own (its batch flushed after it): profiling costs the batching of launches.
 */
import { errc, SyclError } from '../errors.js';
import { BufferUsage, MapMode } from '../platform/webgpu-flags.js';
import type { SyclEvent } from './event.js';
import type { Issue, LaunchIssue, PreparedCommand, Scheduler } from './scheduler.js';

/**
 * SYCL's `info::event_profiling` values of a command, in nanoseconds of the device's timestamp
 * clock (64-bit, as SYCL's `uint64_t` and WebGPU's resolved queries are).
 */
export interface ProfilingInfo {
  /** When the command was submitted to the queue: a host reading carried into the device's timebase. */
  readonly commandSubmit: bigint;
  /** When the device started the command. */
  readonly commandStart: bigint;
  /** When the device finished the command. */
  readonly commandEnd: bigint;
}

/**
 * What `Queue.create({ enableProfiling })` takes: the `enableProfiling` value that
 * `@syclts/runtime/profiling` exports.
 */
export interface ProfilingProperty {
  /**
   * @internal Refuses an adapter (before its device is requested), or a caller's device, without
   * timestamp queries (errc.feature_not_supported, naming it by `description`); returns what makes
   * a queue's scheduler time every command.
   */
  profiler(from: GPUAdapter | GPUDevice, description: string): Profile;
}

/** @internal Makes a queue's scheduler time every command submitted to it. */
export type Profile = (scheduler: Scheduler) => void;

export const enableProfiling: ProfilingProperty = {
  profiler(from, description) {
    if (!from.features.has('timestamp-query')) {
      const which =
        'requestDevice' in from
          ? `the adapter (${description}) lacks`
          : `the GPUDevice passed (${description}) was created without: list it in its requiredFeatures`;
      throw new SyclError(
        errc.featureNotSupported,
        `Queue.create: enableProfiling needs WebGPU's 'timestamp-query' feature, which ${which}`,
      );
    }
    return (scheduler) => {
      new Profiler(scheduler);
    };
  },
};

/** `GPUBufferUsage.QUERY_RESOLVE`: here, not in webgpu-flags.ts, which every app carries. */
const QUERY_RESOLVE = 0x0200;
/** A command's two timestamps: where it started and where it ended. */
const STAMP_BYTES = 16;

/** One command's times, filled once its timestamps are read back. */
class CommandTimes {
  /** The host clock when the command was submitted (ns). */
  readonly host = hostNow();
  submit = 0n;
  start = 0n;
  end = 0n;
  /** Resolves once the times are known; null until the command is submitted to the device. */
  ready: Promise<void> | null = null;
  /** A reduction's last launch: the command's first launch, where its submit and start are. */
  first: CommandTimes | null = null;
}

/** The times of every command submitted to a profiling queue. */
const timesOf = new WeakMap<SyclEvent, CommandTimes>();

/**
 * SYCL's `event::get_profiling_info` for `command_submit`, `command_start` and `command_end` at
 * once (one readback gives all three), once the event's command has completed. Rejects with the
 * command's error if it failed, and with errc.invalid when its queue was created without
 * `enableProfiling`.
 */
export async function getProfilingInfo(event: SyclEvent): Promise<ProfilingInfo> {
  const last = timesOf.get(event);
  if (!last) {
    throw new SyclError(
      errc.invalid,
      `getProfilingInfo: the queue of ${event.name} was created without enableProfiling`,
    );
  }
  await event.wait();
  const first = last.first ?? last;
  await Promise.all([first.ready, last.ready]);
  return { commandSubmit: first.submit, commandStart: first.start, commandEnd: last.end };
}

/** The host's monotonic clock in nanoseconds (its origin does not matter: see Profiler.#offset). */
function hostNow(): bigint {
  return BigInt(Math.round(performance.now() * 1e6));
}

/**
 * A profiling queue's timestamps: a query set of two and 16-byte buffers, left to garbage
 * collection with the queue (`queue.destroy()` releases what the scheduler and batch hold).
 */
class Profiler {
  readonly #device: GPUDevice;
  readonly #querySet: GPUQuerySet;
  readonly #resolved: GPUBuffer;
  /** Readback buffers free for the next command (one is mapped per command in flight). */
  readonly #readbacks: GPUBuffer[] = [];
  /**
   * The device clock minus the host clock, estimated as the smallest gap seen between a host
   * reading taken before a command's submission and its start: the device cannot start a command
   * before it is submitted, so each command's submit time stays at or before its start.
   */
  #offset: bigint | null = null;

  constructor(scheduler: Scheduler) {
    const device = scheduler.device;
    this.#device = device;
    this.#querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
    this.#resolved = device.createBuffer({
      label: 'syclts timestamps',
      size: STAMP_BYTES,
      usage: QUERY_RESOLVE | BufferUsage.COPY_SRC,
    });
    const { launch, schedule } = scheduler;
    scheduler.launch = (issue: LaunchIssue) => {
      const times = new CommandTimes();
      const event = launch.call(scheduler, {
        name: issue.name,
        after: issue.after,
        link: (event) => issue.link(event),
        // Recorded, then submitted alone between the timestamped passes.
        record: (batch, event) => {
          issue.record(batch, event);
          this.#bracket(times, () => batch.flush());
        },
      });
      timesOf.set(event, times);
      return event;
    };
    scheduler.schedule = (command: PreparedCommand) => {
      const times = new CommandTimes();
      const issue: Issue = (validate) => this.#bracket(times, () => command.issue(validate));
      const event = schedule.call(scheduler, { ...command, issue });
      timesOf.set(event, times);
      return event;
    };
    scheduler.spans = (first, last) => {
      timesOf.get(last)!.first = timesOf.get(first)!;
    };
  }

  /** Runs `submit`, which submits one command, between two empty timestamped passes. */
  #bracket<T>(times: CommandTimes, submit: () => T): T {
    const device = this.#device;
    const querySet = this.#querySet;
    const host = hostNow();
    const before = device.createCommandEncoder();
    before.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: 0 } }).end();
    device.queue.submit([before.finish()]);
    const result = submit();
    const after = device.createCommandEncoder();
    after.beginComputePass({ timestampWrites: { querySet, endOfPassWriteIndex: 1 } }).end();
    const readback =
      this.#readbacks.pop() ??
      device.createBuffer({
        label: 'syclts timestamps readback',
        size: STAMP_BYTES,
        usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
      });
    after.resolveQuerySet(querySet, 0, 2, this.#resolved, 0);
    after.copyBufferToBuffer(this.#resolved, 0, readback, 0, STAMP_BYTES);
    device.queue.submit([after.finish()]);
    times.ready = readback.mapAsync(MapMode.READ).then(
      () => {
        const [start, end] = new BigUint64Array(readback.getMappedRange());
        readback.unmap();
        this.#readbacks.push(readback);
        const gap = start! - host;
        if (this.#offset === null || gap < this.#offset) this.#offset = gap;
        times.submit = times.host + this.#offset;
        times.start = start!;
        times.end = end!;
      },
      (cause: unknown) => {
        throw new SyclError(errc.profiling, `reading timestamps back failed: ${cause}`, { cause });
      },
    );
    // Awaited only by getProfilingInfo, after the command's own errors.
    times.ready.catch(() => {});
    return result;
  }
}
