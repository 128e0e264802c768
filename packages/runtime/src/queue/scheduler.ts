/**
 * In-order issue of commands to one GPUDevice. Each command is issued (its WebGPU calls made)
 * after every earlier command of the queue was issued; WebGPU's queue then runs them in that
 * order. A command that must wait for something (a pipeline being compiled) delays only the
 * commands behind it, never the caller. Errors are attached to the command's event, or raised
 * by the next submit when no one waits for it (see `Issue`).
 */
import { type Errc, errc, SyclError } from '../errors.js';
import { SyclEvent } from './event.js';

/**
 * Issues a command's WebGPU calls; may return a promise for work that completes it (mapping).
 * Calls made after `validate()` run inside a validation error scope whose error becomes the
 * command's. Launches skip it when they repeat an already validated pipeline and bind group:
 * a scope costs several µs and keeps Dawn polling. Errors outside any scope arrive through
 * 'uncapturederror', named by the labels of the objects involved, and are raised by the next
 * submit.
 */
export type Issue = (validate: () => void) => Promise<void> | undefined;

export class Scheduler {
  #backlog = 0;
  #tail: Promise<void> = Promise.resolve();
  readonly #unobserved = new Set<SyclEvent>();
  /** WebGPU errors outside any command's error scope (none of the runtime's own, normally). */
  readonly #uncaptured: SyclError[] = [];
  #lost: SyclError | null = null;
  #closed = false;
  readonly #hooks = {
    onError: (event: SyclEvent) => this.#unobserved.add(event),
    onObserved: (event: SyclEvent) => this.#unobserved.delete(event),
  };

  constructor(readonly device: GPUDevice) {
    device.addEventListener('uncapturederror', (event) => {
      const { error } = event as GPUUncapturedErrorEvent;
      this.#uncaptured.push(
        error.constructor.name === 'GPUOutOfMemoryError'
          ? new SyclError(errc.memoryAllocation, `out of GPU memory: ${error.message}`)
          : new SyclError(errc.runtime, `WebGPU error outside a command: ${error.message}`),
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
   * Schedules a command named `name` (for error messages). `after` delays its issue (it is
   * awaited in queue order); `issue` makes the WebGPU calls. A `blocking` command holds back the
   * commands behind it until its completion promise settles (it issues more calls in there).
   */
  schedule(
    name: string,
    after: Promise<unknown> | null,
    issue: Issue,
    blocking = false,
  ): SyclEvent {
    let settled: Promise<void>;
    let gate: Promise<unknown>;
    if (this.#backlog === 0 && after === null) {
      settled = this.#run(name, issue);
      if (!blocking) return this.#event(name, settled);
      gate = settled;
    } else {
      const issued = Promise.all([this.#tail, after]).then(
        () => ({ settled: this.#run(name, issue) }),
        (error: unknown) => ({ settled: Promise.reject(asSyclError(name, error, errc.runtime)) }),
      );
      settled = issued.then((r) => r.settled);
      gate = blocking ? settled : issued;
    }
    this.#backlog++;
    this.#tail = gate.then(
      () => {
        this.#backlog--;
      },
      () => {
        this.#backlog--;
      },
    );
    return this.#event(name, settled);
  }

  #event(name: string, settled: Promise<void>): SyclEvent {
    return new SyclEvent(settled, () => this.#whenDone(name), this.#hooks);
  }

  /** Resolves when everything scheduled so far has completed on the device. */
  async drain(): Promise<void> {
    await this.#tail;
    await this.device.queue.onSubmittedWorkDone();
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

  async #whenDone(name: string): Promise<void> {
    await this.device.queue.onSubmittedWorkDone();
    const uncaptured = this.#uncaptured.shift();
    if (uncaptured) {
      throw new SyclError(uncaptured.errc, `${name}: ${uncaptured.message}`, { cause: uncaptured });
    }
    if (this.#lost) throw new SyclError(errc.runtime, `${name}: ${this.#lost.message}`);
  }
}

function asSyclError(name: string, error: unknown, code: Errc): SyclError {
  if (error instanceof SyclError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SyclError(code, `${name}: ${message}`, { cause: error });
}
