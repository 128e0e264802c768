/**
 * In-order issue of commands to one GPUDevice. Launches are recorded into the open batch (one
 * encoder, one compute pass, one submit per flush: at the end of the current task, when the host
 * waits or reads, at a size bound, and before any other command); every other command (buffer
 * reads and writes, device-global copies) flushes the batch and submits on its own. A command
 * that must wait for something (a pipeline being compiled) delays only the commands behind it,
 * never the caller. Errors are kept on the command's event, or raised by the next submit when no
 * one waits for it: a command's own error scope, or the label of the batch WebGPU refused, tells
 * whose error it is; an error neither names is raised by the next submit or `queue.wait()` only.
 * A command that reads a buffer or device global whose last writer failed fails with that error
 * (a launch is not run), so no read returns what a failed command should have written.
 */
import type { DeviceContext } from '../device/device-context.js';
import type { RuntimeStats } from '../device/stats.js';
import { type Errc, errc, SyclError } from '../errors.js';
import { DeviceBuffer } from '../memory/buffer.js';
import { BATCH_LABEL, Batch, type Submission } from './batch.js';
import { type EventOwner, SyclEvent, type Tracking } from './event.js';
import type { CheckedArgs } from './kernel-args.js';

/**
 * Issues a command's WebGPU calls (the batch is flushed before); may return a promise for work
 * that completes it (mapping). Calls made after `validate()` run inside a validation error scope
 * whose error becomes the command's.
 */
export type Issue = (validate: () => void) => Promise<void> | undefined;

/**
 * Batch submissions remembered for the errors WebGPU may still report about them (Dawn reports a
 * refused submit during the call; a browser soon after, ahead of its completion).
 */
const RECENT_SUBMISSIONS = 64;

/** The `.sycl.ts` place of a kernel, by its symbolic ID or by a WebGPU message naming it. */
export type KernelPlaces = Pick<DeviceContext, 'place' | 'locate'>;

/** A buffer or a device global: the command that wrote it last, whose failure its readers get. */
export interface Written {
  writer: SyclEvent | null;
}

/** A command that submits on its own (a copy, a read, a write). */
export interface PreparedCommand {
  readonly name: string;
  readonly after?: Promise<unknown> | null;
  readonly issue: Issue;
  /** Holds back later commands until its completion (see Scheduler.schedule). */
  readonly blocking?: boolean;
  /** What it copies to the host (it fails if its writer did), and what it writes. */
  readonly reads?: Written;
  readonly writes?: Written;
}

/** A launch, recorded into the batch when its turn comes. */
export interface LaunchIssue {
  readonly name: string;
  /** Resolves when the launch can be recorded (its pipeline compiled); null when it can now. */
  readonly after: Promise<unknown> | null;
  /**
   * Makes `event` the writer of what the launch writes; returns the writers of what it reads
   * whose outcome is unknown or failed (null: none).
   */
  link(event: SyclEvent): SyclEvent[] | null;
  /** Records the launch into `batch`. */
  record(batch: Batch, event: SyclEvent): void;
}

/** A command waiting for its turn, or for what it needs (a pipeline). */
interface Pending {
  /** Whatever it waits for has settled. */
  ready: boolean;
  /** Issues it; a blocking command returns what the commands behind it wait for. */
  run: () => Promise<unknown> | undefined;
}

export class Scheduler implements EventOwner {
  readonly batch: Batch;
  /** Commands waiting, in queue order; the first is issued once ready, then those behind it. */
  readonly #pending: Pending[] = [];
  /** A blocking command's completion, holding back the pending commands. */
  #blocked = false;
  readonly #idle: (() => void)[] = [];
  /** Settles once every command submitted on its own so far has had its errors applied. */
  #lastSettled: Promise<void> = Promise.resolve();
  /** Commands submitted on their own whose errors are not known yet (0: #lastSettled is settled). */
  #unsettled = 0;
  readonly #unobserved = new Set<SyclEvent>();
  /** The latest batch submissions by their encoder's label, oldest first. */
  readonly #submissions = new Map<string, Submission>();
  /** WebGPU errors that neither an error scope nor a batch's label ties to a command. */
  readonly #uncaptured: SyclError[] = [];
  #lost: SyclError | null = null;
  #closed = false;
  /**
   * Set on a profiling queue's scheduler, whose `launch` and `schedule` timestamps.ts wraps:
   * `last` ends the command that `first` starts (a reduction's finishing launch, its kernel).
   */
  declare spans?: (first: SyclEvent, last: SyclEvent) => void;

  constructor(
    readonly device: GPUDevice,
    stats: RuntimeStats,
    /** Where kernels are declared in the `.sycl.ts` sources. */
    readonly kernels: KernelPlaces,
  ) {
    this.batch = new Batch(device, stats, (submission) => this.#submitted(submission));
    device.addEventListener('uncapturederror', (event) => {
      const { error } = event as GPUUncapturedErrorEvent;
      if (this.#refused(error)) return;
      const place = kernels.locate(error.message);
      const at = place ? `${place}: ` : '';
      this.#uncaptured.push(
        error.constructor.name === 'GPUOutOfMemoryError'
          ? new SyclError(errc.memoryAllocation, `${at}out of GPU memory: ${error.message}`)
          : new SyclError(errc.runtime, `${at}WebGPU error outside a command: ${error.message}`),
      );
    });
    void device.lost.then((info) => {
      this.#lost = new SyclError(
        errc.runtime,
        `the GPU device was lost (${info.reason}): ${info.message || 'no message'}`,
      );
    });
  }

  /**
   * Raises an error no one has observed yet (SYCL's asynchronous errors): the oldest failed
   * event's, or device loss. Called at the start of each submit.
   */
  throwPending(api: string): void {
    this.assertOpen(api);
    this.raiseUnobserved(api);
  }

  assertOpen(api: string): void {
    if (this.#closed) {
      throw new SyclError(errc.invalid, `${api}: the queue was destroyed (queue.destroy())`);
    }
  }

  /** Refuses every later submit, read or write (errc.invalid from `assertOpen`). */
  close(): void {
    this.#closed = true;
  }

  /** The oldest error no one observed, or device loss, as a SyclError naming `api`. */
  raiseUnobserved(api: string): void {
    if (this.#unobserved.size === 0 && this.#uncaptured.length === 0 && !this.#lost) return;
    for (const event of this.#unobserved) {
      this.#unobserved.delete(event);
      const error = event.error!;
      throw new SyclError(error.errc, `${api}: an earlier command failed: ${error.message}`, {
        cause: error,
      });
    }
    const uncaptured = this.#uncaptured.shift();
    if (uncaptured)
      throw new SyclError(uncaptured.errc, `${api}: ${uncaptured.message}`, { cause: uncaptured });
    if (this.#lost) throw new SyclError(errc.runtime, `${api}: ${this.#lost.message}`);
  }

  /**
   * Schedules a command that submits on its own, named `name` (for error messages). `after`
   * delays its issue; a `blocking` command holds back the commands behind it until its completion
   * promise settles (it issues more calls in there).
   */
  schedule({ name, after = null, issue, blocking, reads, writes }: PreparedCommand): SyclEvent {
    const event = new SyclEvent(this, name);
    const tracked = event.track();
    // Its writer is the command before it that wrote last; its outcome is known once this completes.
    const input = reads?.writer ?? null;
    if (writes) writes.writer = event;
    const run = () => {
      this.batch.flush();
      // What it copies from is known to have failed: it is not issued, so what it would write
      // (a device global a failed reduction replaces) keeps its bytes. A read back is issued
      // (it frees what it reads from; its result is not delivered).
      const settled = (input?.error && writes ? Promise.resolve() : this.#run(name, issue))
        .then(() => {
          if (!input?.error) return;
          // The host sees the failure here: a later submit does not raise it again.
          this.#unobserved.delete(input);
          throw dependent(name, input.error);
        })
        .then(
          () => event.settle(null),
          (error: unknown) => this.#fail(event, asSyclError(name, error, errc.runtime)),
        );
      tracked.settled = settled;
      this.#unsettled++;
      this.#lastSettled = Promise.all([this.#lastSettled, settled]).then(() => {
        this.#unsettled--;
      });
      return blocking ? settled : undefined;
    };
    this.#enqueue(event, tracked, name, after, run);
    return event;
  }

  /** Schedules a launch: recorded into the open batch at once when nothing waits ahead of it. */
  launch(launch: LaunchIssue): SyclEvent {
    const event = new SyclEvent(this, launch.name);
    const inputs = launch.link(event);
    if (this.#pending.length === 0 && !this.#blocked && launch.after === null) {
      this.#record(launch, event, inputs);
      return event;
    }
    this.#enqueue(event, event.track(), launch.name, launch.after, () => {
      this.#record(launch, event, inputs);
      return undefined;
    });
    return event;
  }

  /** Runs `run` now when nothing waits, else in queue order once `after` settled. */
  #enqueue(
    event: SyclEvent,
    tracked: Tracking,
    name: string,
    after: Promise<unknown> | null,
    run: () => Promise<unknown> | undefined,
  ): void {
    if (this.#pending.length === 0 && !this.#blocked && after === null) {
      this.#hold(run());
      return;
    }
    let issued!: () => void;
    tracked.issued = new Promise<void>((resolve) => {
      issued = resolve;
    });
    const pending: Pending = {
      ready: after === null,
      run: () => {
        issued();
        return run();
      },
    };
    this.#pending.push(pending);
    after?.then(
      () => {
        pending.ready = true;
        this.#pump();
      },
      (error: unknown) => {
        // It will not run: it fails, in its turn, and the commands behind it go on.
        this.#fail(event, asSyclError(name, error, errc.runtime));
        pending.run = () => {
          issued();
          return undefined;
        };
        pending.ready = true;
        this.#pump();
      },
    );
  }

  /** Issues the waiting commands that are ready, in order, in one go (so launches share a batch). */
  #pump(): void {
    while (!this.#blocked && this.#pending[0]?.ready) {
      this.#hold(this.#pending.shift()!.run());
    }
    if (!this.#blocked && this.#pending.length === 0) {
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  /** A blocking command holds back the commands behind it until its completion settles. */
  #hold(completion: Promise<unknown> | undefined): void {
    if (!completion) return;
    this.#blocked = true;
    const release = () => {
      this.#blocked = false;
      this.#pump();
    };
    completion.then(release, release);
  }

  /** Resolves when everything scheduled so far has completed on the device. */
  drain(): Promise<void> {
    if (this.#blocked || this.#pending.length > 0) {
      return new Promise<void>((resolve) => this.#idle.push(resolve)).then(() => this.drain());
    }
    this.batch.flush();
    const done = this.device.queue.onSubmittedWorkDone();
    this.batch.open();
    // Launches only since the last errors came back: the device's completion is all there is
    // to wait for (a host waiting on one launch pays for no more promises than direct calls).
    if (this.#unsettled === 0) return done;
    // Both round trips at once: other commands' error scopes and the device's completion.
    return Promise.all([this.#lastSettled, done]).then(() => {});
  }

  async settled(event: SyclEvent): Promise<void> {
    const tracked = event.track();
    if (tracked.issued) await tracked.issued;
    // A launch still in the open batch: the host is waiting for it, so submit now.
    if (!tracked.settled && event.status === 'submitted') this.batch.flush();
    // Waiting for completion starts with the wait for errors, not after it.
    tracked.done ??= this.device.queue.onSubmittedWorkDone();
    this.batch.open();
    if (tracked.settled) await tracked.settled;
  }

  async done(event: SyclEvent): Promise<void> {
    const tracked = event.track();
    tracked.done ??= this.device.queue.onSubmittedWorkDone();
    await tracked.done;
    if (this.#lost) throw new SyclError(errc.runtime, `${event.name}: ${this.#lost.message}`);
  }

  observed(event: SyclEvent): void {
    this.#unobserved.delete(event);
  }

  #record(launch: LaunchIssue, event: SyclEvent, inputs: SyclEvent[] | null): void {
    if (this.#lost) {
      this.#fail(event, new SyclError(errc.runtime, `${launch.name}: ${this.#lost.message}`));
      return;
    }
    // In queue order, the writers of what it reads have their outcome (a batch refused later
    // refuses this launch too). Not raised by a later submit: the failed writer's error is.
    const failed = inputs?.find((input) => input.error)?.error;
    if (failed) {
      event.settle(dependent(launch.name, failed));
      return;
    }
    try {
      launch.record(this.batch, event);
    } catch (error) {
      this.#fail(event, asSyclError(launch.name, error, errc.runtime));
    }
  }

  /**
   * A flushed batch: its launches are submitted, and their outcome is known unless WebGPU
   * refuses the submission (see #refused).
   */
  #submitted(submission: Submission): void {
    for (const event of submission.events) event.settle(null);
    const { label } = submission;
    if (label === null) return;
    this.#submissions.set(label, submission);
    if (this.#submissions.size > RECENT_SUBMISSIONS) {
      this.#submissions.delete(this.#submissions.keys().next().value!);
    }
  }

  /**
   * Fails the launches of the batch a WebGPU error names by its encoder's label, if any: WebGPU
   * refuses a submission whole, so none of them ran. The launches the message names (by a buffer
   * they bind, or by their kernel's label) get the error; the others are told they did not run.
   */
  #refused(error: GPUError): boolean {
    const label = BATCH_LABEL.exec(error.message)?.[1];
    const submission = label === undefined ? undefined : this.#submissions.get(label);
    if (!submission) return false;
    const { events, args } = submission;
    const { message } = error;
    const named = events.filter((event, i) => namesLaunch(message, event, args[i]!));
    const culprits = named.length > 0 ? named : events;
    const culpritNames = [...new Set(culprits.map((event) => event.name))].join(', ');
    const oom = error.constructor.name === 'GPUOutOfMemoryError';
    for (const event of events) {
      // A second message about the same submission (Dawn tells of an invalid encoder, then of
      // its refused command buffer): the first error stands.
      if (event.error) continue;
      const place = this.kernels.place(event.name);
      const at = `${place ? `${place}: ` : ''}${event.name}: `;
      const reason = !culprits.includes(event)
        ? `not run: WebGPU refused the submission it shared with ${culpritNames}`
        : oom
          ? 'out of GPU memory'
          : 'WebGPU validation error';
      const failure = new SyclError(
        oom ? errc.memoryAllocation : errc.runtime,
        `${at}${reason}: ${message}`,
      );
      event.fail(failure);
      // A launch not run because of a culprit is not raised apart from the culprit's error.
      if (culprits.includes(event)) this.#unobserved.add(event);
    }
    return true;
  }

  #fail(event: SyclEvent, error: SyclError): void {
    if (event.status !== 'submitted' && event.error) return;
    event.settle(error);
    if (event.error === error) this.#unobserved.add(event);
  }

  /** Issues now; returns a promise settling once the command's errors are known. */
  #run(name: string, issue: Issue): Promise<void> {
    if (this.#lost) {
      return Promise.reject(new SyclError(errc.runtime, `${name}: ${this.#lost.message}`));
    }
    const { device } = this;
    let scoped = false;
    const validate = () => {
      if (!scoped) device.pushErrorScope('validation');
      scoped = true;
    };
    let completion: Promise<void> | undefined;
    let thrown: unknown = null;
    try {
      completion = issue(validate);
    } catch (error) {
      thrown = error;
    }
    const validation = scoped ? device.popErrorScope() : null;
    if (thrown !== null) return Promise.reject(asSyclError(name, thrown, errc.runtime));
    if (!validation && !completion) return Promise.resolve();
    return Promise.all([validation, completion]).then(
      ([validationError]) => {
        if (validationError) {
          throw new SyclError(
            errc.runtime,
            `${name}: WebGPU validation error: ${validationError.message}`,
          );
        }
      },
      (error: unknown) => {
        throw asSyclError(name, error, errc.runtime);
      },
    );
  }
}

/** The error of a command that reads what a failed command wrote: that command's, named. */
function dependent(name: string, error: SyclError): SyclError {
  return new SyclError(
    error.errc,
    `${name}: it reads what a failed command wrote: ${error.message}`,
    {
      cause: error,
    },
  );
}

function asSyclError(name: string, error: unknown, code: Errc): SyclError {
  if (error instanceof SyclError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SyclError(code, `${name}: ${message}`, { cause: error });
}

/** Whether a WebGPU message names a launch: a buffer it binds, or its kernel, by label. */
function namesLaunch(message: string, event: SyclEvent, args: CheckedArgs): boolean {
  if (message.includes(`"${event.name}"`) || message.includes(`"${event.name} (`)) return true;
  return args.some(
    (arg) => arg instanceof DeviceBuffer && message.includes(`[Buffer "${arg.gpuBuffer.label}"]`),
  );
}
