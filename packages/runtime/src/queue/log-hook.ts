/**
 * `console.log`'s run-time code is in its own module, `@syclts/runtime/log`, which the
 * integration footer of a module that prints imports: an app without it does not carry it.
 * Loading it registers it here.
 */
import { errc, SyclError } from '../errors.js';
import type { QueueCore } from './core.js';
import type { SyclEvent } from './event.js';
import type { KernelAction } from './kernel-action.js';

export interface LogSupport {
  /** A log buffer for one launch of a printing kernel, empty (WebGPU zeroes new buffers). */
  buffer(core: QueueCore, api: string): GPUBuffer;
  /** Reads `action`'s log once `launch` has run and prints its lines: the event of that. */
  print(core: QueueCore, action: KernelAction, launch: SyclEvent): SyclEvent;
}

let support: LogSupport | null = null;

export function registerLog(log: LogSupport): void {
  support = log;
}

export function logSupport(api: string, kernelName: string): LogSupport {
  if (!support) {
    throw new SyclError(
      errc.kernelNotSupported,
      `${api}: ${kernelName} prints: import '@syclts/runtime/log'`,
    );
  }
  return support;
}
