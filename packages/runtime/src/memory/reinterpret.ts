/**
 * SYCL's `buffer::reinterpret`, as a function rather than a method so that an app that never
 * reinterprets a buffer does not ship it.
 */
import { type AccessMode, type DataType, strideOf, typeName } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import type { DeviceBuffer } from './buffer.js';

/**
 * The memory of `buffer` as elements of `element`, no copy, with the buffer's access mode:
 * commands through either are ordered as for one buffer, and destroying one destroys both. The
 * buffer's bytes must be a whole number of the new elements.
 */
export function reinterpret<U extends DataType, M extends AccessMode>(
  buffer: DeviceBuffer<DataType, M>,
  element: U,
): DeviceBuffer<U, M> {
  if (buffer.destroyed) {
    throw new SyclError(errc.invalid, `reinterpret: ${buffer.gpuBuffer.label} was destroyed`);
  }
  const stride = strideOf(element, 'storage');
  if (buffer.byteLength % stride !== 0) {
    throw new SyclError(
      errc.invalid,
      `reinterpret: ${buffer.gpuBuffer.label} holds ${buffer.byteLength} bytes, not a whole number of ${typeName(element)} (${stride} bytes each)`,
    );
  }
  return buffer.view(element, buffer.byteLength / stride);
}
