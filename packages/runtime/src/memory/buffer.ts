/**
 * Buffers that kernels reach through accessors. A buffer has an element type and an access mode
 * that says what kernels may do with it: a 'read' buffer binds only to 'read' accessors, a 'write'
 * buffer only to 'write' accessors, a 'read_write' buffer (the default) to any. The host reads
 * and writes every buffer; those operations are ordered with the queue's kernels.
 */

import type {
  AccessMode,
  ArrayType,
  AtomicType,
  DataType,
  HostValue,
  ScalarType,
} from '@syclts/dsl';
import { readValue, roundUp, strideOf, typeName, writeValue } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { BufferUsage } from '../platform/webgpu-flags.js';
import type { SyclEvent } from '../queue/event.js';
import type { Scheduler } from '../queue/scheduler.js';
import { canonicalize } from '../values/host-value.js';
import { show, ValueError } from '../values/scalars.js';
import { readBack } from './read-back.js';

/**
 * A data type as buffers carry it: scalar constructors (`u32`, `f32`, ...) are also conversion
 * functions, which a buffer made from a typed array is not; both must fit the same accessor.
 */
export type Plain<T extends DataType, Depth extends unknown[] = []> = Depth['length'] extends 8
  ? T
  : T extends ScalarType<infer S>
    ? ScalarType<S>
    : T extends ArrayType<infer E, infer N>
      ? ArrayType<Plain<E, [...Depth, unknown]>, N>
      : T;

/** The typed array of scalar elements `T` over memory `B`; host values for other elements. */
export type ElementArray<T extends DataType, B extends ArrayBufferLike> = T extends
  | ScalarType<'f32'>
  | AtomicType<'f32'>
  ? Float32Array<B>
  : T extends ScalarType<'u32'> | AtomicType<'u32'>
    ? Uint32Array<B>
    : T extends ScalarType<'i32'> | AtomicType<'i32'>
      ? Int32Array<B>
      : T extends ScalarType<'f16'>
        ? Uint16Array<B>
        : HostValue<T>[];

/**
 * What `read()` returns: a typed array for scalar elements, over an `ArrayBuffer` of its own (so
 * that `new ImageData(new Uint8ClampedArray(pixels.buffer), w, h)` type-checks), host values
 * otherwise.
 */
export type BufferContents<T extends DataType> = ElementArray<T, ArrayBuffer>;

/** Host data for a buffer of `T`: its typed array for scalar elements, or host values. */
export type BufferData<T extends DataType> =
  | ElementArray<T, ArrayBufferLike>
  | readonly HostValue<T>[];

export interface BufferOptions<M extends AccessMode> {
  /** What kernels may do with the buffer; default 'read_write'. */
  readonly access?: M;
  readonly label?: string;
}

let nextBufferId = 0;

/** What the views of one GPU buffer share (see reinterpret.ts). */
interface Storage {
  /** The command that wrote it last (see Written). */
  writer: SyclEvent | null;
  destroyed: boolean;
}

/** A view's memory: another view's GPU buffer and state, and its length in elements. */
interface SharedMemory {
  readonly gpuBuffer: GPUBuffer;
  readonly storage: Storage;
  readonly length: number;
}

// Holds `writer` for the scheduler: a `Written` by its shape (that interface is internal).
export class DeviceBuffer<T extends DataType = DataType, M extends AccessMode = AccessMode> {
  /** Identifies the buffer in bind group caches. */
  readonly id = nextBufferId++;
  readonly element: T;
  readonly access: M;
  /** Number of elements. */
  readonly length: number;
  /** Bytes between consecutive elements (host-shareable storage layout). */
  readonly stride: number;
  readonly gpuBuffer: GPUBuffer;
  readonly #scheduler: Scheduler;
  readonly #label: string;
  readonly #storage: Storage;

  /** @internal Use `queue.buffer(...)` (or `reinterpret`, which makes views). */
  constructor(
    scheduler: Scheduler,
    element: T,
    init: number | BufferData<T>,
    options: BufferOptions<M>,
    shared?: SharedMemory,
  ) {
    this.#scheduler = scheduler;
    this.element = element;
    this.access = options.access ?? ('read_write' as M);
    this.stride = strideOf(element, 'storage');
    this.#label = options.label ?? `buffer ${this.id}`;
    if (shared) {
      this.length = shared.length;
      this.gpuBuffer = shared.gpuBuffer;
      this.#storage = shared.storage;
      return;
    }
    this.#storage = { writer: null, destroyed: false };
    const bytes = typeof init === 'number' ? null : this.#encode('queue.buffer', init, 0, null);
    this.length = typeof init === 'number' ? checkLength(init) : bytes!.byteLength / this.stride;
    this.gpuBuffer = scheduler.device.createBuffer({
      label: this.#label,
      // At least one element: an accessor binding holds one (its minimum binding size). Whole
      // 16 bytes, so that a view of vectors covers every element (the algorithms' scan reads and
      // writes `vec4<u32>`).
      size: roundUp(16, Math.max(1, this.length) * this.stride),
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
      mappedAtCreation: bytes !== null,
    });
    if (bytes) {
      new Uint8Array(this.gpuBuffer.getMappedRange()).set(bytes);
      this.gpuBuffer.unmap();
    }
  }

  /** @internal The command that wrote its memory last, through any view (see Written). */
  get writer(): SyclEvent | null {
    return this.#storage.writer;
  }

  /** @internal */
  set writer(event: SyclEvent | null) {
    this.#storage.writer = event;
  }

  get destroyed(): boolean {
    return this.#storage.destroyed;
  }

  /**
   * @internal The same memory as `length` elements of `element` (see reinterpret.ts), which may
   * reach into the allocation's padding, and with another access mode for the algorithms' own
   * kernels.
   */
  view<U extends DataType, A extends AccessMode = M>(
    element: U,
    length: number,
    access: A = this.access as AccessMode as A,
  ): DeviceBuffer<U, A> {
    return new DeviceBuffer(
      this.#scheduler,
      element,
      0,
      { access, label: `${this.#label} as ${typeName(element)}` },
      { gpuBuffer: this.gpuBuffer, storage: this.#storage, length },
    );
  }

  /**
   * Frees the GPU memory once the commands submitted before have run: the release is issued in
   * queue order (after a launch still waiting for its pipeline), and WebGPU defers it until the
   * work submitted before has finished. Later reads, writes and launches with it are errors.
   */
  destroy(): void {
    if (this.#storage.destroyed) return;
    this.#storage.destroyed = true;
    this.#scheduler.schedule({
      name: `${this.#label}.destroy()`,
      issue: () => {
        this.gpuBuffer.destroy();
        return undefined;
      },
    });
  }

  get device(): GPUDevice {
    return this.#scheduler.device;
  }

  get byteLength(): number {
    return this.length * this.stride;
  }

  /**
   * @internal The bytes of its GPU buffer: past its elements, whole 16 bytes where the runtime
   * allocated it, the wrapped buffer's size where it did not (read here, where WebGPU's types are
   * known: an app's may leave `GPUBuffer` opaque).
   */
  get allocatedBytes(): number {
    return this.gpuBuffer.size;
  }

  /**
   * The contents once every command submitted before this call has run; rejects with the error
   * of the command that wrote the buffer last if it failed (see Written).
   */
  async read(): Promise<BufferContents<T>> {
    this.#alive('buffer.read');
    this.#scheduler.assertOpen('buffer.read');
    const size = roundUp(4, this.byteLength);
    const bytes = await readBack(
      this.#scheduler,
      `${this.#label}.read()`,
      this,
      size,
      (e, staging) => e.copyBufferToBuffer(this.gpuBuffer, 0, staging, 0, size),
      this.byteLength,
    );
    return this.#decode(bytes);
  }

  /**
   * Writes `data` from element `start` on, ordered after the commands submitted before. Reads
   * then get what it wrote, even where an earlier writer failed (what it does not cover is kept).
   */
  write(data: BufferData<T>, start = 0): SyclEvent {
    this.#alive('buffer.write');
    this.#scheduler.throwPending('buffer.write');
    const bytes = this.#encode('buffer.write', data, start, this.length);
    return this.#scheduler.schedule({
      name: `${this.#label}.write()`,
      writes: this,
      issue: (validate) => {
        validate();
        this.#scheduler.device.queue.writeBuffer(
          this.gpuBuffer,
          start * this.stride,
          padTo4(bytes),
        );
        return undefined;
      },
    });
  }

  #alive(api: string): void {
    if (this.#storage.destroyed)
      throw new SyclError(errc.invalid, `${api}: ${this.#label} was destroyed`);
  }

  /** Host data to bytes; `capacity` is the buffer's length (null while creating it). */
  #encode(
    api: string,
    data: BufferData<T>,
    start: number,
    capacity: number | null,
  ): Uint8Array<ArrayBuffer> {
    const count = (data as ArrayLike<unknown>).length;
    if (!Number.isInteger(start) || start < 0 || (capacity !== null && start + count > capacity)) {
      throw new SyclError(
        errc.invalid,
        `${api}: writing ${count} elements at element ${start} overflows ${this.#label} of ${capacity} elements`,
      );
    }
    if (capacity !== null && ((start * this.stride) % 4 !== 0 || (count * this.stride) % 4 !== 0)) {
      throw new SyclError(
        errc.invalid,
        `${api}: WebGPU writes whole 4-byte words; write f16 elements in pairs, from an even index`,
      );
    }
    if (ArrayBuffer.isView(data) && isScalarElement(this.element)) {
      const expected = typedArrayName(this.element);
      if (data.constructor.name !== expected) {
        throw new SyclError(
          errc.invalid,
          `${api}: expected a ${expected} for elements of ${typeName(this.element)}, got a ${data.constructor.name}`,
        );
      }
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    }
    const bytes = new Uint8Array(count * this.stride);
    const view = new DataView(bytes.buffer);
    const values = data as ArrayLike<unknown>;
    for (let i = 0; i < count; i++) {
      try {
        writeValue(
          view,
          i * this.stride,
          this.element,
          canonicalize(this.element, values[i], `[${i}]`, true),
          'storage',
        );
      } catch (error) {
        if (!(error instanceof ValueError)) throw error;
        throw new SyclError(
          errc.invalid,
          `${api}: element ${show(values[i])} is invalid: ${error.message}`,
        );
      }
    }
    return bytes;
  }

  #decode(bytes: ArrayBuffer): BufferContents<T> {
    const element = this.element as DataType;
    if (isScalarElement(element)) {
      const scalar = element.scalar;
      if (scalar === 'f32') return new Float32Array(bytes) as BufferContents<T>;
      if (scalar === 'u32') return new Uint32Array(bytes) as BufferContents<T>;
      if (scalar === 'i32') return new Int32Array(bytes) as BufferContents<T>;
      return new Uint16Array(bytes) as BufferContents<T>;
    }
    const view = new DataView(bytes);
    return Array.from({ length: this.length }, (_, i) =>
      readValue(view, i * this.stride, element, 'storage'),
    ) as BufferContents<T>;
  }
}

type TypedScalar = ScalarType<'f32' | 'u32' | 'i32' | 'f16'> | AtomicType;

function isScalarElement(type: DataType): type is TypedScalar {
  return (type.kind === 'scalar' && type.scalar !== 'bool') || type.kind === 'atomic';
}

function typedArrayName(type: TypedScalar): string {
  switch (type.scalar) {
    case 'f32':
      return 'Float32Array';
    case 'u32':
      return 'Uint32Array';
    case 'i32':
      return 'Int32Array';
    case 'f16':
      return 'Uint16Array';
  }
}

function checkLength(length: number): number {
  if (!Number.isInteger(length) || length < 0) {
    throw new SyclError(
      errc.invalid,
      `queue.buffer: length must be a non-negative integer, got ${show(length)}`,
    );
  }
  return length;
}

function padTo4(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  if (bytes.byteLength % 4 === 0) return bytes;
  const padded = new Uint8Array(roundUp(4, bytes.byteLength));
  padded.set(bytes);
  return padded;
}
