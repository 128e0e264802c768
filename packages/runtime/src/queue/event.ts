/**
 * `sycl::event`: completes when its command has run on the device. An error found while issuing
 * or running the command (a WebGPU validation error, a failed pipeline, device loss) is kept on
 * the event and raised by `wait()`; if nobody waits, the queue raises it on its next `submit`.
 * An event holds no promise of its own: the scheduler settles it, and `wait()` asks the
 * scheduler for the submission it belongs to.
 */
import type { SyclError } from '../errors.js';

export type EventStatus = 'submitted' | 'complete' | 'failed';

/** @internal Where an event's outcome comes from. */
export interface Tracking {
  /** Resolves when the command was issued (into a batch, or submitted on its own). */
  issued: Promise<void> | null;
  /** Resolves once the outcome is known and the event settled. */
  settled: Promise<void> | null;
  done: Promise<void> | null;
}

/** @internal What an event needs of its queue's scheduler. */
export interface EventOwner {
  /** Resolves once the event's command was issued, submitted and its errors are known. */
  settled(event: SyclEvent): Promise<void>;
  /** Resolves once the device finished the event's command; raises errors found after. */
  done(event: SyclEvent): Promise<void>;
  observed(event: SyclEvent): void;
}

export class SyclEvent {
  #status: EventStatus = 'submitted';
  #error: SyclError | null = null;
  readonly #owner: EventOwner;
  /** @internal The command's name, for messages. */
  readonly name: string;
  /**
   * @internal The scheduler's record of the command, made when first needed: a launch recorded
   * at once and never waited for needs none (a field: a side table costs every launch).
   */
  #tracking: Tracking | null = null;

  /** @internal Created by the queue's scheduler. */
  constructor(owner: EventOwner, name: string) {
    this.#owner = owner;
    this.name = name;
  }

  /** @internal The scheduler's record, made now if there was none. */
  track(): Tracking {
    this.#tracking ??= { issued: null, settled: null, done: null };
    return this.#tracking;
  }

  /** 'submitted' until the command's outcome is known (issue and error checks, not GPU completion). */
  get status(): EventStatus {
    return this.#status;
  }

  /** @internal */
  get error(): SyclError | null {
    return this.#error;
  }

  /** @internal Called by the scheduler once the outcome is known. */
  settle(error: SyclError | null): void {
    if (this.#status !== 'submitted') return;
    this.#status = error ? 'failed' : 'complete';
    this.#error = error;
  }

  /**
   * @internal Called by the scheduler when WebGPU refuses the command after it was issued (its
   * submission failed): a complete event fails too, a failed one keeps its first error.
   */
  fail(error: SyclError): void {
    if (this.#error) return;
    this.#status = 'failed';
    this.#error = error;
  }

  /** Resolves when the command has completed on the device; rejects with its SyclError. */
  async wait(): Promise<void> {
    await this.#owner.settled(this);
    this.#raise();
    await this.#owner.done(this);
    this.#raise();
  }

  #raise(): void {
    if (!this.#error) return;
    this.#owner.observed(this);
    throw this.#error;
  }
}
