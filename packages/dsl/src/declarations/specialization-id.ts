import type { DataType, HostValue } from '../types/data-type.js';

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

export function specializationId<T extends DataType>(
  type: T,
  defaultValue?: HostValue<T>,
): SpecializationId<T> {
  return Object.freeze({
    declaration: 'specializationId',
    type,
    defaultValue: defaultValue ?? zeroValue(type),
  });
}

/** The value a declaration without a default has: zero, false, or composites of those. */
export function zeroValue<T extends DataType>(type: T): HostValue<T>;
export function zeroValue(type: DataType): unknown {
  switch (type.kind) {
    case 'scalar':
      return type.scalar === 'bool' ? false : 0;
    case 'atomic':
      return 0;
    case 'vector':
      return Array.from({ length: type.size }, () => (type.component === 'bool' ? false : 0));
    case 'matrix':
      return Array.from({ length: type.columns * type.rows }, () => 0);
    case 'array':
      return Array.from({ length: type.length }, () => zeroValue(type.element));
    case 'struct':
      return Object.fromEntries(type.fields.map((f) => [f.name, zeroValue(f.type)]));
  }
}
