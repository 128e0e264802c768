/**
 * The launches a queue has recorded but not yet submitted: one command encoder with one compute
 * pass (WebGPU makes each dispatch's storage writes visible to the next), and one arena of the
 * launches' uniform values (the `launch` uniforms and emulation buffers), bound with dynamic
 * offsets so that every launch keeps its own values. A flush writes the arena with one
 * `writeBuffer` and submits once. The arena is reused from offset 0 by the next flush:
 * `writeBuffer` takes effect after the work submitted before it. No error scope: a launch cannot
 * fail validation (see launch.ts), and an error scope costs Dawn's Node binding 15 to 35 µs per
 * submit; the unexpected (a buffer destroyed behind the runtime's back) still arrives through
 * `uncapturederror`, naming the batch by its encoder's label, so the scheduler fails the
 * batch's launches and no other command.
 */

import { SLOT_TABLE_ENTRIES, SLOTS_BINDING_BYTES } from '../device/device-context.js';
import type { RuntimeStats } from '../device/stats.js';
import { BufferUsage } from '../platform/webgpu-flags.js';
import type { SyclEvent } from './event.js';
import type { CheckedArgs } from './kernel-args.js';

/**
 * Dispatches per flush at most (a launch split into more is still recorded whole). Kept small:
 * what the host recorded last runs after the host is done issuing, so a long last batch is time
 * the host waits for; 128 small dispatches take the device a fraction of a millisecond, and a
 * submit per 128 launches costs a fraction of a microsecond each.
 */
export const MAX_BATCH_DISPATCHES = 128;
/**
 * Within one task, the first flush comes after this many dispatches and each next one after
 * twice as many (up to MAX_BATCH_DISPATCHES): the GPU runs the first launches while the host
 * records the next, instead of starting when the task ends.
 */
export const FIRST_FLUSH_DISPATCHES = 16;
const ARENA_BYTES = 1 << 20;
/** The launch-slot binding's offset for a launch that reads its own record (slot mode 0: unread). */
export const OWN_RECORD = 0;
/** A settled promise: a reaction to it runs as a microtask. */
const RESOLVED = Promise.resolve();
/** Uploads up to this size are remembered and not repeated. */
const UPLOAD_MEMORY = 4096;

/** A flushed batch: its launches' events and arguments, and its command encoder's label. */
export interface Submission {
  /** Null when nothing was submitted (launches of empty ranges only). */
  readonly label: string | null;
  readonly events: readonly SyclEvent[];
  /**
   * Each launch's checked arguments, in the order of the events (what its refusal may name; no
   * pipelines, which the pipeline cache alone keeps).
   */
  readonly args: readonly CheckedArgs[];
}

/** The label of a batch's command encoder: WebGPU's messages about its submission quote it. */
export const BATCH_LABEL = /"(syclts launches \d+)"/;

export class Batch {
  readonly #device: GPUDevice;
  readonly #align: number;
  #arena: GPUBuffer;
  /** Bumped when the arena is replaced by a larger one: bind groups over the old one are stale. */
  #generation = 0;
  #staging: Uint8Array<ArrayBuffer>;
  #words: Uint32Array<ArrayBuffer>;
  #view: DataView;
  #used = 0;
  /**
   * The end of the bytes written so far: what a flush uploads. A chunk of records is allocated
   * whole (its binding spans it) but uploaded only as far as its records were written.
   */
  #extent = 0;
  /**
   * The head of the last upload, so that a flush repeating it writes nothing; compared a word at
   * a time (what a batch uploads is a whole number of 16-byte records).
   */
  readonly #upload = new Uint32Array(UPLOAD_MEMORY >> 2);
  #uploadedBytes = 0;
  /** The latest slot of each size: values equal to it share it. */
  readonly #lastSlots = new Map<number, number>();
  #lastPipeline: GPUComputePipeline | null = null;
  #lastLayout: GPUPipelineLayout | null = null;
  #lastGroup: GPUBindGroup | null = null;
  /** The dynamic offsets of the last setBindGroup (a launch binds at most three). */
  #lastOffsetCount = 0;
  #lastOffset0 = 0;
  #lastOffset1 = 0;
  #lastOffset2 = 0;
  /** The open batch's `{ next: 0, table }` at #align (offset 0: for launches that take no slot). */
  readonly #slots: GPUBuffer;
  readonly #table = new Uint32Array(1 + SLOT_TABLE_ENTRIES);
  #arrivals = 0;
  /** Where the slot modes of the chunks' first records are, and their arrivals (see enterSlots). */
  readonly #firstModes: number[] = [];
  #firstArrivals = 0;
  /** Counts flushes: launch-slot records are kept per batch. */
  #epoch = 0;
  /** Dispatches after which the open batch is flushed, growing within a task. */
  #flushAt = FIRST_FLUSH_DISPATCHES;
  #encoder: GPUCommandEncoder | null = null;
  #pass: GPUComputePassEncoder | null = null;
  /** Whether the open pass holds commands (it is opened ahead of the launches it will hold). */
  #recorded = false;
  #dispatches = 0;
  #events: SyclEvent[] = [];
  #args: CheckedArgs[] = [];
  /** Numbers the encoders' labels. */
  #encoders = 0;
  #flushQueued = false;
  /** Work to start once the next submission is made (see afterSubmit). */
  #afterSubmit: (() => void)[] = [];

  constructor(
    device: GPUDevice,
    readonly stats: RuntimeStats,
    /** Called with each submission, in order. */
    readonly onSubmit: (submission: Submission) => void,
  ) {
    this.#device = device;
    this.#align = Math.max(
      device.limits.minUniformBufferOffsetAlignment,
      device.limits.minStorageBufferOffsetAlignment,
    );
    this.#staging = new Uint8Array(ARENA_BYTES);
    this.#words = new Uint32Array(this.#staging.buffer);
    this.#view = new DataView(this.#staging.buffer);
    this.#arena = this.#createArena(ARENA_BYTES);
    this.#slots = device.createBuffer({
      label: 'syclts launch slots',
      size: this.#align + SLOTS_BINDING_BYTES,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
    });
  }

  /** The launch-slot buffer: every launch that uses slots binds it. */
  get slots(): GPUBuffer {
    return this.#slots;
  }

  /** Identifies the open batch: records kept for it are not valid in another. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Whether the open batch's slot table has room for `workgroups` more arrivals. */
  hasSlots(workgroups: number): boolean {
    return this.#arrivals + workgroups <= SLOT_TABLE_ENTRIES;
  }

  /**
   * Hands the next `workgroups` arrivals in the open batch record `record` (room checked with
   * `hasSlots`); returns the dynamic offset of the batch's launch-slot binding. `modeAt`: where
   * the record's slot mode is in the arena when the record is the first of its chunk, else -1.
   */
  enterSlots(record: number, workgroups: number, modeAt: number): number {
    const at = 1 + this.#arrivals;
    this.#table.fill(record, at, at + workgroups);
    this.#arrivals += workgroups;
    if (modeAt >= 0) {
      this.#firstModes.push(modeAt);
      this.#firstArrivals += workgroups;
    }
    return this.#align;
  }

  /**
   * Leaves the slot table out where every arrival is a chunk's first record, which, in slot mode
   * 0, a kernel reads as the record at its offsets (record 0, its own): sets those records' slot
   * mode to 0 and returns true (a batch of one small launch per kernel writes no table).
   */
  #dropSlotTable(): boolean {
    if (this.#firstArrivals !== this.#arrivals) return false;
    for (const at of this.#firstModes) this.#view.setUint32(at, 0, true);
    return true;
  }

  /**
   * Zeroed room for `bytes` of records in the open batch's arena; returns its offset. The records
   * are uploaded as far as `wrote` says they were written.
   */
  allocate(bytes: number): number {
    const at = this.#used;
    this.#staging.fill(0, at, at + bytes);
    this.#used += this.#round(bytes);
    return at;
  }

  /** The bytes up to `end` of room from `allocate` were written: the flush uploads them. */
  wrote(end: number): void {
    if (end > this.#extent) this.#extent = end;
  }

  get arena(): GPUBuffer {
    return this.#arena;
  }

  get generation(): number {
    return this.#generation;
  }

  get empty(): boolean {
    return this.#events.length === 0 && this.#dispatches === 0;
  }

  /**
   * Makes room for a launch of `dispatches` dispatches and `bytes` of values (what it writes, and
   * the binding windows past its records), flushing first when the batch is full.
   */
  reserve(dispatches: number, bytes: number): void {
    if (
      this.#used + bytes > this.#staging.byteLength ||
      this.#dispatches + dispatches > MAX_BATCH_DISPATCHES
    ) {
      this.flush();
    }
    if (bytes > this.#staging.byteLength) {
      const size = this.#round(bytes);
      this.#arena.destroy();
      this.#arena = this.#createArena(size);
      this.#staging = new Uint8Array(size);
      this.#words = new Uint32Array(this.#staging.buffer);
      this.#view = new DataView(this.#staging.buffer);
      this.#uploadedBytes = 0;
      this.#generation++;
    }
  }

  /** The staging bytes of the arena: a launch writes its values at the offset `claim` gave. */
  get view(): DataView {
    return this.#view;
  }

  /**
   * Where one launch's values of `size` bytes are to be written into the view (zeroed, after the
   * values kept so far); `keep` then makes them part of the arena.
   */
  claim(size: number): number {
    const at = this.#used;
    this.#staging.fill(0, at, at + size);
    return at;
  }

  /**
   * Keeps the values just written at `at` (from `claim`) and returns their dynamic offset;
   * values equal to the latest slot of their size share it (the bytes just written are given back).
   */
  keep(size: number, at: number): number {
    const last = this.#lastSlots.get(size);
    if (last !== undefined && this.#sameBytes(last, at, size)) return last;
    this.#used += this.#round(size);
    this.#extent = this.#used;
    this.#lastSlots.set(size, at);
    return at;
  }

  /**
   * Records a dispatch; pipeline and bind group calls that repeat the previous ones are skipped
   * (a bind group stays bound across pipelines of one layout, as WebGPU keeps it).
   */
  dispatch(
    pipeline: GPUComputePipeline,
    layout: GPUPipelineLayout,
    bindGroup: GPUBindGroup,
    offsets: readonly number[],
    workgroups: readonly [number, number, number],
  ): void {
    const pass = this.#openPass();
    if (pipeline !== this.#lastPipeline) {
      pass.setPipeline(pipeline);
      this.#lastPipeline = pipeline;
      if (layout !== this.#lastLayout) this.#lastGroup = null;
      this.#lastLayout = layout;
    }
    if (bindGroup !== this.#lastGroup || !this.#sameOffsets(offsets)) {
      pass.setBindGroup(0, bindGroup, offsets);
      this.#lastGroup = bindGroup;
      this.#lastOffsetCount = offsets.length;
      this.#lastOffset0 = offsets[0] ?? 0;
      this.#lastOffset1 = offsets[1] ?? 0;
      this.#lastOffset2 = offsets[2] ?? 0;
    }
    pass.dispatchWorkgroups(workgroups[0], workgroups[1], workgroups[2]);
    this.#dispatches++;
    this.stats.dispatches++;
  }

  /** Whether the arena already holds these `used` bytes (a flush repeating the previous one). */
  #uploaded(used: number): boolean {
    if (used !== this.#uploadedBytes || used > UPLOAD_MEMORY) return false;
    const words = this.#words;
    const upload = this.#upload;
    for (let i = 0; i < used >> 2; i++) if (words[i] !== upload[i]) return false;
    return true;
  }

  #sameOffsets(offsets: readonly number[]): boolean {
    return (
      offsets.length === this.#lastOffsetCount &&
      (offsets.length < 1 || offsets[0] === this.#lastOffset0) &&
      (offsets.length < 2 || offsets[1] === this.#lastOffset1) &&
      (offsets.length < 3 || offsets[2] === this.#lastOffset2)
    );
  }

  /**
   * Slots start at aligned offsets: compared a 4-byte word at a time (the bytes after a slot's
   * last word's end, if any, can only make equal values look different).
   */
  #sameBytes(a: number, b: number, size: number): boolean {
    const words = this.#words;
    const wa = a >> 2;
    const wb = b >> 2;
    for (let i = 0; i < (size + 3) >> 2; i++) if (words[wa + i] !== words[wb + i]) return false;
    return true;
  }

  /**
   * Opens the next batch's encoder and pass ahead of its launches: called while the device runs
   * what was just submitted (the host is about to wait, or done with its task), so that the next
   * launch starts recording at once.
   */
  open(): void {
    if (this.#pass) return;
    this.#encoder = this.#device.createCommandEncoder({
      label: `syclts launches ${this.#encoders++}`,
    });
    this.#pass = this.#encoder.beginComputePass();
  }

  /** The open compute pass; recording into it queues a flush at the end of the current task. */
  #openPass(): GPUComputePassEncoder {
    this.open();
    if (!this.#recorded) {
      this.#recorded = true;
      this.#queueFlush();
    }
    return this.#pass!;
  }

  /** Adds a recorded launch's event and arguments; flushes once the batch holds enough work. */
  add(event: SyclEvent, args: CheckedArgs): void {
    this.#events.push(event);
    this.#args.push(args);
    if (this.#dispatches >= this.#flushAt) {
      this.flush();
      this.#flushAt = Math.min(2 * this.#flushAt, MAX_BATCH_DISPATCHES);
      return;
    }
    this.#queueFlush();
  }

  /** Submits what was recorded; returns the submission, or null when there was nothing. */
  flush(): Submission | null {
    if (this.empty) return null;
    const device = this.#device;
    const events = this.#events;
    const args = this.#args;
    this.#events = [];
    this.#args = [];
    this.#dispatches = 0;
    const table = this.#arrivals > 0 && !this.#dropSlotTable();
    const extent = this.#extent;
    if (extent > 0 && !this.#uploaded(extent)) {
      device.queue.writeBuffer(this.#arena, 0, this.#staging, 0, extent);
      this.#upload.set(this.#words.subarray(0, Math.min(extent, UPLOAD_MEMORY) >> 2));
      this.#uploadedBytes = extent;
    }
    if (table) {
      device.queue.writeBuffer(this.#slots, this.#align, this.#table, 0, 1 + this.#arrivals);
    }
    this.#arrivals = 0;
    this.#firstModes.length = 0;
    this.#firstArrivals = 0;
    this.#epoch++;
    this.#used = 0;
    this.#extent = 0;
    this.#lastSlots.clear();
    this.#lastPipeline = null;
    this.#lastLayout = null;
    this.#lastGroup = null;
    const encoder = this.#encoder;
    const submitted = encoder !== null && this.#recorded;
    const submission = { label: submitted ? encoder.label : null, events, args };
    // Told before the submit: Dawn's Node binding reports a refused submit during the call.
    this.onSubmit(submission);
    if (submitted) {
      this.#pass!.end();
      device.queue.submit([encoder.finish()]);
      this.stats.batches++;
      this.#encoder = null;
      this.#pass = null;
      this.#recorded = false;
    }
    if (this.#afterSubmit.length > 0) {
      const jobs = this.#afterSubmit;
      this.#afterSubmit = [];
      queueMicrotask(() => {
        for (const job of jobs) job();
      });
    }
    return submission;
  }

  /**
   * Runs `job` once the next flush has submitted, in a microtask: host work a launch sets off (a
   * background compile's timer) then comes after its submit and, when the host waits for it,
   * after the request for its completion. (It still delays the wait's end on Node, by about its
   * own cost: the `webgpu` package learns of completions in JavaScript.)
   */
  afterSubmit(job: () => void): void {
    this.#afterSubmit.push(job);
  }

  /** Frees the arena (after the work submitted so far). */
  destroy(): void {
    this.#arena.destroy();
    this.#slots.destroy();
  }

  /** The flush at the end of the task that recorded (see #queueFlush), made once. */
  readonly #flushTask = (): void => {
    this.#flushQueued = false;
    this.#flushAt = FIRST_FLUSH_DISPATCHES;
    if (this.flush()) this.open();
  };

  #queueFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // A resolved promise's reaction rather than queueMicrotask, which Node wraps in an
    // AsyncResource: several microseconds of a launch before V8 has optimised anything.
    RESOLVED.then(this.#flushTask);
  }

  /** `n` rounded up to the offset alignment: the bytes a slot of `n` takes. */
  aligned(n: number): number {
    return this.#round(n);
  }

  #round(n: number): number {
    return Math.ceil(n / this.#align) * this.#align;
  }

  #createArena(size: number): GPUBuffer {
    return this.#device.createBuffer({
      label: 'syclts launch values',
      size,
      usage: BufferUsage.UNIFORM | BufferUsage.STORAGE | BufferUsage.COPY_DST,
    });
  }
}
