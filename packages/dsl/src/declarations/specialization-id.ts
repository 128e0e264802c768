import type { DataType, HostValue } from '../types/data-type.js';
import { completeValue, type InitialValue, zeroValue } from '../types/initial-value.js';

/**
 * SYCL 2020 `specialization_id<T>`. Declared at module top level of a `.sycl.ts` file; the
 * compiler reads the declaration statically, and this host object carries the type and the
 * default so the runtime can encode values and supply defaults the build could not fold.
 */
export interface SpecializationId<T extends DataType = DataType> {
  readonly declaration: 'specializationId';
  readonly type: T;
  readonly defaultValue: HostValue<T>;
}

/**
 * Declares a specialization constant. The default may leave out trailing array elements and
 * struct fields, which are zero (SYCL's value initialisation).
 */
export function specializationId<T extends DataType>(
  type: T,
  defaultValue?: InitialValue<T>,
): SpecializationId<T> {
  return Object.freeze({
    declaration: 'specializationId',
    type,
    defaultValue: defaultValue === undefined ? zeroValue(type) : completeValue(type, defaultValue),
  });
}
