/**
 * `sycl::event`: completes when its command has run on the device. An error found while issuing
 * or running the command (a WebGPU validation error, a failed pipeline, device loss) is kept on
 * the event and raised by `wait()`; if nobody waits, the queue raises it on its next `submit`.
 */
import type { SyclError } from '../errors.js';

export type EventStatus = 'submitted' | 'complete' | 'failed';

export class SyclEvent {
  #status: EventStatus = 'submitted';
  #error: SyclError | null = null;
  readonly #settled: Promise<void>;
  readonly #onError: (event: SyclEvent) => void;
  readonly #onObserved: (event: SyclEvent) => void;
  readonly #whenDone: () => Promise<void>;

  /** @internal Created by the queue's scheduler. */
  constructor(
    settled: Promise<void>,
    whenDone: () => Promise<void>,
    hooks: { onError(event: SyclEvent): void; onObserved(event: SyclEvent): void },
  ) {
    this.#onError = hooks.onError;
    this.#onObserved = hooks.onObserved;
    this.#whenDone = whenDone;
    this.#settled = settled.then(
      () => {
        this.#status = 'complete';
      },
      (error: SyclError) => {
        this.#status = 'failed';
        this.#error = error;
        this.#onError(this);
      },
    );
  }

  /** 'submitted' until the command's outcome is known (issue and error checks, not GPU completion). */
  get status(): EventStatus {
    return this.#status;
  }

  /** @internal */
  get error(): SyclError | null {
    return this.#error;
  }

  /** Resolves when the command has completed on the device; rejects with its SyclError. */
  async wait(): Promise<void> {
    await this.#settled;
    if (this.#error) {
      this.#onObserved(this);
      throw this.#error;
    }
    await this.#whenDone();
    if (this.#error) {
      this.#onObserved(this);
      throw this.#error;
    }
  }
}
