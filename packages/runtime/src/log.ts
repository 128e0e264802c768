/**
 * `@syclts/runtime/log`: the run-time side of `console.log` in device code. A launch of a kernel
 * that prints binds a log buffer of its own (the queue's `logBufferSize` bytes); once it has run,
 * the buffer is read back and each record printed through `console.log` with its `.sycl.ts`
 * place and its item, ordered by the item's global linear id, then by the order the item printed.
 * Records that did not fit are counted by the kernel and reported with `console.warn`. The
 * integration footer of a module that prints imports this module, so other apps do not carry it.
 */
import {
  DEFAULT_LOG_BUFFER_SIZE,
  LOG_BUFFER_HEAD,
  type LogFormat,
  logRecordText,
  logRecordWords,
} from '@syclts/dsl';
import { errc, SyclError } from './errors.js';
import { BufferUsage, MapMode } from './platform/webgpu-flags.js';
import type { ResolvedKernel } from './program/resolve.js';
import type { QueueCore } from './queue/core.js';
import type { SyclEvent } from './queue/event.js';
import { logHook } from './queue/log-hook.js';

function logBuffer(core: QueueCore, api: string): GPUBuffer {
  const { device } = core.context;
  const size = core.logBufferSize ?? DEFAULT_LOG_BUFFER_SIZE;
  const most = device.limits.maxStorageBufferBindingSize;
  if (!Number.isInteger(size) || size < 64 || size % 4 !== 0 || size > most) {
    throw new SyclError(
      errc.invalid,
      `${api}: logBufferSize must be a multiple of 4 bytes from 64 to the device's maxStorageBufferBindingSize (${most}), got ${String(size)}`,
    );
  }
  return device.createBuffer({
    label: 'console.log buffer',
    size,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
  });
}

/** Reads `buffer` once `launch` has run and prints its lines. */
function printLog(
  core: QueueCore,
  kernel: ResolvedKernel,
  range: Range,
  buffer: GPUBuffer,
  launch: SyclEvent,
): SyclEvent {
  const { device } = core.context;
  const printed = core.scheduler.schedule({
    name: `${kernel.symbolicId} console.log`,
    reads: { writer: launch },
    issue: (validate) => {
      validate();
      const staging = device.createBuffer({
        size: buffer.size,
        usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
      });
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
      device.queue.submit([encoder.finish()]);
      return staging
        .mapAsync(MapMode.READ)
        .then(() => printRecords(kernel, range, new Uint32Array(staging.getMappedRange())))
        .finally(() => {
          staging.destroy();
          buffer.destroy();
        });
    },
  });
  // Profiled, the launch's event runs from the kernel's start to its lines' read-back.
  core.scheduler.spans?.(launch, printed);
  return printed;
}

/** A launch's SYCL-ordered global and (nd-range) local sizes. */
interface Range {
  readonly global: readonly number[];
  readonly local: readonly number[] | null;
}

/** An id as the line shows it: `7` in one dimension, `(1, 2)` in more. */
function ids(values: readonly number[]): string {
  return values.length === 1 ? String(values[0]) : `(${values.join(', ')})`;
}

function printRecords(kernel: ResolvedKernel, { global, local }: Range, words: Uint32Array): void {
  const formats: readonly LogFormat[] = kernel.image.logFormats ?? [];
  const dims = global.length;
  const records = words.subarray(LOG_BUFFER_HEAD);
  const end = Math.min(words[0]!, records.length);
  const found: { at: number; linear: number; format: LogFormat }[] = [];
  for (let at = 0; at < end; ) {
    const format = formats[records[at]!];
    if (!format || at + logRecordWords(format) > records.length) break;
    // The record holds the global id in WGSL order (x = the last SYCL dimension).
    let linear = 0;
    for (let d = 0; d < dims; d++) linear = linear * global[d]! + records[at + dims - d]!;
    found.push({ at, linear, format });
    at += logRecordWords(format);
  }
  found.sort((a, b) => a.linear - b.linear || a.at - b.at);
  for (const { at, format } of found) {
    const id = Array.from({ length: dims }, (_, d) => records[at + dims - d]!);
    const { module, line, column } = format.source;
    const group = local
      ? ` (group ${ids(id.map((g, d) => Math.floor(g / local[d]!)))}, local ${ids(id.map((g, d) => g % local[d]!))})`
      : '';
    console.log(
      `${module}:${line}:${column} item ${ids(id)}${group}: ${logRecordText(format, records, at)}`,
    );
  }
  const lost = words[1]!;
  if (lost > 0) {
    console.warn(
      `${kernel.symbolicId}: ${lost} console.log line${lost === 1 ? '' : 's'} of this launch did not fit its log buffer (${words.byteLength} bytes) and were lost: give the queue a larger one, Queue.create({ logBufferSize })`,
    );
  }
}

logHook.launch = (core, api, kernel, global, local) => {
  if (!kernel.info.bindings.some((b) => b.kind === 'log')) return null;
  const buffer = logBuffer(core, api);
  return { buffer, print: (launch) => printLog(core, kernel, { global, local }, buffer, launch) };
};
