/**
 * `copy` (in elements) and `memcpy` (in bytes) between host memory and device globals, on queues
 * and handlers. Bounds and `hostAccess` are checked when the command is created, so a bad call
 * throws synchronously with nothing enqueued. A global's element is its type with every array
 * level removed (SYCL's `std::remove_all_extents_t<T>`); elements are laid out contiguously
 * at the storage stride of that element.
 */
import {
  type ArrayType,
  type AtomicType,
  type DataType,
  type DeviceGlobal,
  type DeviceGlobalInfo,
  type DeviceImage,
  type HostAccess,
  type HostValue,
  type Program,
  readValue,
  roundUp,
  type ScalarName,
  type ScalarType,
  type GlobalStorage as StorageKind,
  type SymbolicId,
  sizeOf,
  strideOf,
  typeName,
  writeValue,
} from '@syclts/dsl';
import type { DeviceContext } from '../device/device-context.js';
import { errc, SyclError } from '../errors.js';
import { BufferUsage, MapMode } from '../platform/webgpu-flags.js';
import { resolveDeclaration } from '../program/resolve.js';
import type { PreparedCommand } from '../queue/scheduler.js';
import { canonicalize, thaw } from '../values/host-value.js';
import { show, ValueError } from '../values/scalars.js';
import type { DeviceBuffer } from './buffer.js';

/** `remove_all_extents`: the element type a device global is copied in. */
export type ElementOf<T extends DataType, Depth extends unknown[] = []> = Depth['length'] extends 8
  ? DataType
  : T extends ArrayType<infer E>
    ? ElementOf<E, [...Depth, unknown]>
    : T;

/** Host elements for `copy`: an array of host values, or a typed array for scalar elements. */
export type HostElements<T extends DataType> = ArrayLike<HostValue<ElementOf<T>>>;

/** The typed arrays that hold every value of a scalar element exactly (none for bool). */
export type ExactTypedArray<E extends DataType> = E extends ScalarType<'u32'> | AtomicType<'u32'>
  ? Uint32Array | Float64Array
  : E extends ScalarType<'i32'> | AtomicType<'i32'>
    ? Int32Array | Float64Array
    : E extends ScalarType<'f32'> | ScalarType<'f16'> | AtomicType<'f32'>
      ? Float32Array | Float64Array
      : never;

/**
 * Where `copy` from a device global writes its elements: an array, or a typed array that holds
 * the element exactly (a `Uint8Array` for u32 elements would wrap them, and is refused).
 */
export type MutableHostElements<T extends DataType> =
  | HostValue<ElementOf<T>>[]
  | ExactTypedArray<ElementOf<T>>;

/** The typed arrays `copy` may fill with elements of each scalar type (see ExactTypedArray). */
const EXACT_TYPED_ARRAYS: Readonly<Record<ScalarName, readonly string[]>> = {
  u32: ['Uint32Array', 'Float64Array'],
  i32: ['Int32Array', 'Float64Array'],
  f32: ['Float32Array', 'Float64Array'],
  f16: ['Float32Array', 'Float64Array', 'Float16Array'],
  bool: [],
};
export type HostBytes = ArrayBuffer | ArrayBufferView;

/** Device globals the host may write, and those it may read. */
export type WritableGlobal<T extends DataType> = DeviceGlobal<T, 'write' | 'read_write'>;
export type ReadableGlobal<T extends DataType> = DeviceGlobal<T, 'read' | 'read_write'>;

export interface GlobalLocation {
  readonly name: SymbolicId;
  readonly program: Program;
  /** The image holding a deviceImageScope global's storage; null for the program's buffer. */
  readonly image: DeviceImage | null;
  /** 'host': a deviceImageScope global in no image (see GlobalBuffers.hostBytes). */
  readonly storage: StorageKind | 'host';
  readonly info: DeviceGlobalInfo;
  readonly element: DataType;
  readonly stride: number;
  readonly elements: number;
}

function storageOf(api: string, global: DeviceGlobal, direction: 'to' | 'from'): GlobalLocation {
  const storage = locateGlobal(api, global);
  const access: HostAccess = global.properties.hostAccess;
  const allowed = direction === 'to' ? ['write', 'read_write'] : ['read', 'read_write'];
  if (!allowed.includes(access)) {
    throw new SyclError(
      errc.invalid,
      `${api}: device global ${storage.name} has hostAccess '${access}'; the host may not ${direction === 'to' ? 'write' : 'read'} it`,
    );
  }
  return storage;
}

/** Whether `value` is a device global's host object (a `deviceGlobal(...)` declaration). */
export function isDeviceGlobal(value: unknown): value is DeviceGlobal {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { declaration?: unknown }).declaration === 'deviceGlobal'
  );
}

/** Where a device global's value lives: the program's buffer, its image's, or the host. */
export function locateGlobal(api: string, global: DeviceGlobal): GlobalLocation {
  const { symbolicId, program } = resolveDeclaration(api, global, 'device global');
  let image: DeviceImage | null = null;
  let info = program.programGlobals.globals[symbolicId];
  if (global.properties.deviceImageScope) {
    const images = program.images.filter((i) => symbolicId in i.deviceGlobals);
    if (images.length > 1) {
      throw new SyclError(
        errc.invalid,
        `${api}: device global ${symbolicId} has device_image_scope but is in ${images.length} device images (${images.map((i) => i.id).join(', ')})`,
      );
    }
    image = images[0] ?? null;
    info = image?.deviceGlobals[symbolicId] ?? {
      type: global.type,
      size: sizeOf(global.type, 'storage'),
      offset: 0,
      ...global.properties,
      initialValue: null,
    };
  }
  if (!info) {
    throw new SyclError(
      errc.build,
      `${api}: device global ${symbolicId} has no storage in its program (built by an older syclts?)`,
    );
  }
  let element: DataType = global.type;
  while (element.kind === 'array') element = element.element;
  const stride = strideOf(element, 'storage');
  return {
    name: symbolicId,
    program,
    image,
    storage: image ? 'image' : global.properties.deviceImageScope ? 'host' : 'program',
    info,
    element,
    stride,
    elements: Math.floor(info.size / stride),
  };
}

function checkRange(
  api: string,
  storage: GlobalLocation,
  unit: 'elements' | 'bytes',
  count: number,
  start: number,
): void {
  const total = unit === 'elements' ? storage.elements : storage.info.size;
  const valid =
    [count, start].every((n) => Number.isInteger(n) && n >= 0) && start + count <= total;
  if (!valid) {
    throw new SyclError(
      errc.invalid,
      `${api}: ${count} ${unit} at ${unit === 'elements' ? 'index' : 'offset'} ${start} are out of bounds of device global ${storage.name} (${total} ${unit})`,
    );
  }
}

function bytesOf(data: HostBytes): Uint8Array {
  return data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Host → device global, in elements. */
export function copyToGlobal(
  context: DeviceContext,
  api: string,
  src: ArrayLike<unknown>,
  dest: DeviceGlobal,
  count: number | undefined,
  startIndex: number,
): PreparedCommand {
  const storage = storageOf(api, dest, 'to');
  const n = count ?? storage.elements - startIndex;
  checkRange(api, storage, 'elements', n, startIndex);
  if (!src || typeof src.length !== 'number' || src.length < n) {
    throw new SyclError(
      errc.invalid,
      `${api}: the source holds ${src?.length} elements, fewer than the ${n} to copy`,
    );
  }
  const bytes = new Uint8Array(n * storage.stride);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n; i++) {
    try {
      writeValue(
        view,
        i * storage.stride,
        storage.element,
        canonicalize(storage.element, src[i], `src[${i}]`, true),
        'storage',
      );
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      throw new SyclError(
        errc.invalid,
        `${api}: ${show(src[i])} cannot be copied into ${storage.name}: ${error.message}`,
      );
    }
  }
  return writeGlobal(
    context,
    storage,
    `${api}(${storage.name})`,
    startIndex * storage.stride,
    bytes,
  );
}

/** Device global → host, in elements; `dest` is filled when the command completes. */
export function copyFromGlobal(
  context: DeviceContext,
  api: string,
  src: DeviceGlobal,
  dest: { [index: number]: unknown; readonly length: number },
  count: number | undefined,
  startIndex: number,
): PreparedCommand {
  const storage = storageOf(api, src, 'from');
  const n = count ?? storage.elements - startIndex;
  checkRange(api, storage, 'elements', n, startIndex);
  checkDestination(api, storage, dest);
  if (dest.length < n) {
    throw new SyclError(
      errc.invalid,
      `${api}: the destination holds ${dest.length} elements, fewer than the ${n} to copy`,
    );
  }
  return readGlobal(
    context,
    storage,
    `${api}(${storage.name})`,
    startIndex * storage.stride,
    n * storage.stride,
    (bytes) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let i = 0; i < n; i++)
        dest[i] = thaw(readValue(view, i * storage.stride, storage.element, 'storage'));
    },
  );
}

/**
 * A destination that takes the global's elements as they are: an array that is not frozen, or a
 * typed array that holds the element type exactly. Anything else would convert silently.
 */
function checkDestination(
  api: string,
  storage: GlobalLocation,
  dest: unknown,
): asserts dest is { [index: number]: unknown; readonly length: number } {
  const element = storage.element;
  const scalar = element.kind === 'scalar' || element.kind === 'atomic' ? element.scalar : null;
  const typed = scalar ? EXACT_TYPED_ARRAYS[scalar] : [];
  const elementName = typeName(element);
  const wanted = `an array${typed.length ? ` or a ${typed.join(', ')}` : ''}`;
  if (Array.isArray(dest)) {
    if (Object.isFrozen(dest) || Object.isSealed(dest)) {
      throw new SyclError(errc.invalid, `${api}: the destination array is frozen or sealed`);
    }
    return;
  }
  if (ArrayBuffer.isView(dest) && !(dest instanceof DataView)) {
    const kind = dest.constructor.name;
    if (typed.includes(kind)) return;
    throw new SyclError(
      errc.invalid,
      `${api}: a ${kind} cannot hold the ${elementName} elements of device global ${storage.name} exactly; copy into ${wanted}`,
    );
  }
  throw new SyclError(
    errc.invalid,
    `${api}: the destination must be ${wanted} for the ${elementName} elements of device global ${storage.name}, got ${show(dest)}`,
  );
}

/** Host → device global, in bytes of its host-shareable layout. */
export function memcpyToGlobal(
  context: DeviceContext,
  api: string,
  dest: DeviceGlobal,
  src: HostBytes,
  numBytes: number | undefined,
  offset: number,
): PreparedCommand {
  const storage = storageOf(api, dest, 'to');
  const n = numBytes ?? storage.info.size - offset;
  checkRange(api, storage, 'bytes', n, offset);
  const bytes = bytesOf(src);
  if (bytes.byteLength < n) {
    throw new SyclError(
      errc.invalid,
      `${api}: the source holds ${bytes.byteLength} bytes, fewer than the ${n} to copy`,
    );
  }
  return writeGlobal(context, storage, `${api}(${storage.name})`, offset, bytes.slice(0, n));
}

/** Device global → host, in bytes; `dest` is filled when the command completes. */
export function memcpyFromGlobal(
  context: DeviceContext,
  api: string,
  dest: HostBytes,
  src: DeviceGlobal,
  numBytes: number | undefined,
  offset: number,
): PreparedCommand {
  const storage = storageOf(api, src, 'from');
  const n = numBytes ?? storage.info.size - offset;
  checkRange(api, storage, 'bytes', n, offset);
  const target = bytesOf(dest);
  if (target.byteLength < n) {
    throw new SyclError(
      errc.invalid,
      `${api}: the destination holds ${target.byteLength} bytes, fewer than the ${n} to copy`,
    );
  }
  return readGlobal(context, storage, `${api}(${storage.name})`, offset, n, (bytes) =>
    target.set(bytes),
  );
}

/**
 * Copies the first `size` bytes of a global held on the device to or from `buffer`, in queue
 * order, failing (and failing the readers of what it writes) where what it copies failed.
 */
export function copyOnDevice(
  context: DeviceContext,
  name: string,
  storage: GlobalLocation & { readonly storage: StorageKind },
  buffer: DeviceBuffer,
  size: number,
  direction: 'toGlobal' | 'fromGlobal',
): PreparedCommand {
  const global = context.globals.written(storage.program, storage.name);
  const toGlobal = direction === 'toGlobal';
  return {
    name,
    reads: toGlobal ? buffer : global,
    writes: toGlobal ? global : buffer,
    issue: (validate) => {
      validate();
      const held = bufferOf(context, storage, storage.storage);
      const at = storage.info.offset;
      const encoder = context.device.createCommandEncoder({ label: name });
      if (toGlobal) encoder.copyBufferToBuffer(buffer.gpuBuffer, 0, held, at, size);
      else encoder.copyBufferToBuffer(held, at, buffer.gpuBuffer, 0, size);
      context.device.queue.submit([encoder.finish()]);
      return undefined;
    },
  };
}

/** Called where a command is issued: a relayout of the storage then follows earlier commands. */
function bufferOf(context: DeviceContext, storage: GlobalLocation, kind: StorageKind): GPUBuffer {
  return context.globals.buffer(storage.program, storage.image, kind);
}

/** The host bytes of a global held on the host (storage 'host'), at the time of issue. */
function hostBytesOf(context: DeviceContext, storage: GlobalLocation): Uint8Array<ArrayBuffer> {
  return context.globals.hostBytes(storage.program, storage.name, storage.info.size);
}

/** Writes bytes at any offset of the global; partial words are merged on the GPU. */
function writeGlobal(
  context: DeviceContext,
  storage: GlobalLocation,
  name: string,
  offset: number,
  bytes: Uint8Array<ArrayBuffer>,
): PreparedCommand {
  const kind = storage.storage;
  return {
    name,
    writes: context.globals.written(storage.program, storage.name),
    issue: (validate) => {
      if (kind === 'host') {
        hostBytesOf(context, storage).set(bytes, offset);
        return undefined;
      }
      validate();
      if (bytes.byteLength === 0) return undefined;
      const buffer = bufferOf(context, storage, kind);
      context.patcher.write(buffer, storage.info.offset + offset, bytes, name);
      return undefined;
    },
  };
}

function readGlobal(
  context: DeviceContext,
  storage: GlobalLocation,
  name: string,
  offset: number,
  size: number,
  deliver: (bytes: Uint8Array<ArrayBuffer>) => void,
): PreparedCommand {
  const { device } = context;
  const start = storage.info.offset + offset;
  const lo = Math.floor(start / 4) * 4;
  const hi = roundUp(4, start + size);
  const kind = storage.storage;
  const reads = context.globals.written(storage.program, storage.name);
  const { writer } = reads;
  return {
    name,
    reads,
    issue: (validate) => {
      if (kind === 'host') {
        deliver(hostBytesOf(context, storage).slice(offset, offset + size));
        return undefined;
      }
      validate();
      if (size === 0) return undefined;
      const staging = device.createBuffer({
        size: hi - lo,
        usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
      });
      const encoder = device.createCommandEncoder({ label: name });
      encoder.copyBufferToBuffer(bufferOf(context, storage, kind), lo, staging, 0, hi - lo);
      device.queue.submit([encoder.finish()]);
      return staging
        .mapAsync(MapMode.READ)
        .then(() => {
          // Bytes a failed command should have written never reach the host (the copy fails).
          if (!writer?.error)
            deliver(new Uint8Array(staging.getMappedRange(), start - lo, size).slice());
        })
        .finally(() => staging.destroy());
    },
  };
}
