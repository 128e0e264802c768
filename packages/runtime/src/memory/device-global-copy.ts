/**
 * `copy` (in elements) and `memcpy` (in bytes) between host memory and device globals, on queues
 * and handlers. Bounds and `hostAccess` are checked when the command is created, so a bad call
 * throws synchronously with nothing enqueued. A global's element is its type with every array
 * level removed (SYCL's `std::remove_all_extents_t<T>`); elements are laid out contiguously
 * at the storage stride of that element.
 */
import type {
  ArrayType,
  DataType,
  DeviceGlobal,
  DeviceGlobalInfo,
  DeviceImage,
  HostAccess,
  HostValue,
  Program,
  SymbolicId,
} from '@syclts/dsl';
import type { DeviceContext } from '../device/device-context.js';
import { errc, SyclError } from '../errors.js';
import { resolveDeclaration } from '../program/resolve.js';
import type { PreparedCommand } from '../queue/launch.js';
import { canonicalize, thaw } from '../values/host-value.js';
import { readValue, roundUp, sizeOf, strideOf, writeValue } from '../values/layout.js';
import { show, ValueError } from '../values/scalars.js';

/** `remove_all_extents`: the element type a device global is copied in. */
export type ElementOf<T extends DataType, Depth extends unknown[] = []> = Depth['length'] extends 8
  ? DataType
  : T extends ArrayType<infer E>
    ? ElementOf<E, [...Depth, unknown]>
    : T;

/** Host elements for `copy`: an array of host values, or a typed array for scalar elements. */
export type HostElements<T extends DataType> = ArrayLike<HostValue<ElementOf<T>>>;
export type MutableHostElements<T extends DataType> = {
  [index: number]: HostValue<ElementOf<T>>;
  readonly length: number;
};
export type HostBytes = ArrayBuffer | ArrayBufferView;

/** Device globals the host may write, and those it may read. */
export type WritableGlobal<T extends DataType> = DeviceGlobal<T, 'write' | 'read_write'>;
export type ReadableGlobal<T extends DataType> = DeviceGlobal<T, 'read' | 'read_write'>;

interface GlobalStorage {
  readonly name: SymbolicId;
  readonly program: Program;
  readonly image: DeviceImage | null;
  readonly info: Pick<DeviceGlobalInfo, 'size' | 'deviceImageScope'>;
  readonly element: DataType;
  readonly stride: number;
  readonly elements: number;
}

function storageOf(api: string, global: DeviceGlobal, direction: 'to' | 'from'): GlobalStorage {
  const { symbolicId, program } = resolveDeclaration(api, global, 'device global');
  const access: HostAccess = global.properties.hostAccess;
  const allowed = direction === 'to' ? ['write', 'read_write'] : ['read', 'read_write'];
  if (!allowed.includes(access)) {
    throw new SyclError(
      errc.invalid,
      `${api}: device global ${symbolicId} has hostAccess '${access}'; the host may not ${direction === 'to' ? 'write' : 'read'} it`,
    );
  }
  const images = program.images.filter((image) => symbolicId in image.deviceGlobals);
  if (global.properties.deviceImageScope && images.length > 1) {
    throw new SyclError(
      errc.invalid,
      `${api}: device global ${symbolicId} has device_image_scope but is in ${images.length} device images (${images.map((i) => i.id).join(', ')})`,
    );
  }
  const image = images[0] ?? null;
  const info = image?.deviceGlobals[symbolicId] ?? {
    size: sizeOf(global.type, 'storage'),
    deviceImageScope: global.properties.deviceImageScope,
  };
  let element: DataType = global.type;
  while (element.kind === 'array') element = element.element;
  const stride = strideOf(element, 'storage');
  return {
    name: symbolicId,
    program,
    image,
    info,
    element,
    stride,
    elements: Math.floor(sizeOf(global.type, 'storage') / stride),
  };
}

function checkRange(
  api: string,
  storage: GlobalStorage,
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
        canonicalize(storage.element, src[i], `src[${i}]`),
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
  if (!dest || typeof dest.length !== 'number' || dest.length < n) {
    throw new SyclError(
      errc.invalid,
      `${api}: the destination holds ${dest?.length} elements, fewer than the ${n} to copy`,
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

function bufferOf(context: DeviceContext, storage: GlobalStorage): GPUBuffer {
  return context.globalBuffer(storage.program, storage.image, storage.name, storage.info);
}

/**
 * Writes bytes at any offset. WebGPU writes whole 4-byte words, so an unaligned write first reads
 * back its edge words and merges; the command blocks the queue until the merged write is issued.
 */
function writeGlobal(
  context: DeviceContext,
  storage: GlobalStorage,
  name: string,
  offset: number,
  bytes: Uint8Array<ArrayBuffer>,
): PreparedCommand {
  const { device } = context;
  const lo = Math.floor(offset / 4) * 4;
  const hi = roundUp(4, offset + bytes.byteLength);
  if (bytes.byteLength === 0) return { name, after: null, issue: () => undefined };
  if (lo === offset && hi === offset + bytes.byteLength) {
    return {
      name,
      after: null,
      issue: (validate) => {
        validate();
        device.queue.writeBuffer(bufferOf(context, storage), offset, bytes);
        return undefined;
      },
    };
  }
  return {
    name,
    after: null,
    blocking: true,
    issue: (validate) => {
      validate();
      const target = bufferOf(context, storage);
      const staging = device.createBuffer({
        size: hi - lo,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      const encoder = device.createCommandEncoder({ label: name });
      encoder.copyBufferToBuffer(target, lo, staging, 0, hi - lo);
      device.queue.submit([encoder.finish()]);
      return staging.mapAsync(GPUMapMode.READ).then(() => {
        const merged = new Uint8Array(staging.getMappedRange().slice(0));
        staging.destroy();
        merged.set(bytes, offset - lo);
        device.queue.writeBuffer(target, lo, merged);
      });
    },
  };
}

function readGlobal(
  context: DeviceContext,
  storage: GlobalStorage,
  name: string,
  offset: number,
  size: number,
  deliver: (bytes: Uint8Array<ArrayBuffer>) => void,
): PreparedCommand {
  const { device } = context;
  const lo = Math.floor(offset / 4) * 4;
  const hi = roundUp(4, offset + size);
  return {
    name,
    after: null,
    issue: (validate) => {
      validate();
      if (size === 0) return undefined;
      const staging = device.createBuffer({
        size: hi - lo,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      const encoder = device.createCommandEncoder({ label: name });
      encoder.copyBufferToBuffer(bufferOf(context, storage), lo, staging, 0, hi - lo);
      device.queue.submit([encoder.finish()]);
      return staging.mapAsync(GPUMapMode.READ).then(() => {
        deliver(new Uint8Array(staging.getMappedRange(), offset - lo, size).slice());
        staging.destroy();
      });
    },
  };
}
