/**
 * Kernel arguments: host types derived from the kernel's declaration, and their run-time check
 * (missing or extra arguments, element types, access modes, value shapes).
 */
import type {
  AccessMode,
  AccessorType,
  DataType,
  HostValue,
  Kernel,
  KernelArgTypes,
} from '@syclts/dsl';
import { sameType, typeName } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { DeviceBuffer, type Plain } from '../memory/buffer.js';
import { type CanonicalValue, canonicalize } from '../values/host-value.js';
import { show, ValueError } from '../values/scalars.js';

/** Buffer access modes an accessor of mode `M` may bind. */
export type BufferModesFor<M extends AccessMode> = M extends 'read'
  ? 'read' | 'read_write'
  : M extends 'write'
    ? 'write' | 'read_write'
    : 'read_write';

/** What host code passes for a kernel's arguments. */
export type KernelArgs<A extends KernelArgTypes> = {
  readonly [K in keyof A]: A[K] extends AccessorType<infer T, infer M>
    ? DeviceBuffer<Plain<T>, BufferModesFor<M>>
    : A[K] extends DataType
      ? HostValue<A[K]>
      : never;
};

export interface CheckedArgs {
  readonly buffers: ReadonlyMap<string, DeviceBuffer>;
  readonly values: ReadonlyMap<string, CanonicalValue>;
}

const allowed: Record<AccessMode, readonly AccessMode[]> = {
  read: ['read', 'read_write'],
  write: ['write', 'read_write'],
  read_write: ['read_write'],
};

/** A kernel's arguments in declaration order, made once per kernel: checks run on every launch. */
type ArgSchema = readonly (readonly [name: string, type: AccessorType | DataType])[];
const schemas = new WeakMap<Kernel, ArgSchema>();

function schemaOf(kernel: Kernel): ArgSchema {
  let schema = schemas.get(kernel);
  if (!schema) {
    schema = Object.entries(kernel.args);
    schemas.set(kernel, schema);
  }
  return schema;
}

export function checkArgs(
  api: string,
  kernelName: string,
  kernel: Kernel,
  args: unknown,
  device: GPUDevice,
): CheckedArgs {
  const fail = (
    code: typeof errc.kernelArgument | typeof errc.accessor,
    name: string,
    why: string,
  ) => new SyclError(code, `${api}: kernel ${kernelName}, argument '${name}': ${why}`);
  if (typeof args !== 'object' || args === null) {
    throw new SyclError(
      errc.kernelArgument,
      `${api}: kernel ${kernelName} takes an object of arguments, got ${show(args)}`,
    );
  }
  const given = args as Record<string, unknown>;
  const schema = schemaOf(kernel);
  let count = 0;
  for (const name in given) {
    if (!Object.hasOwn(given, name)) continue;
    if (!(name in kernel.args)) {
      throw fail(errc.kernelArgument, name, 'the kernel declares no such argument');
    }
    count++;
  }
  const buffers = new Map<string, DeviceBuffer>();
  const values = new Map<string, CanonicalValue>();
  if (count < schema.length) {
    const missing = schema.find(([name]) => !Object.hasOwn(given, name));
    if (missing) throw fail(errc.kernelArgument, missing[0], 'missing');
  }
  for (const [name, type] of schema) {
    const value = given[name];
    if (type.kind === 'accessor') {
      if (!(value instanceof DeviceBuffer)) {
        throw fail(
          errc.kernelArgument,
          name,
          `expected a buffer of ${typeName(type.element)}, got ${show(value)}`,
        );
      }
      if (value.element !== type.element && !sameType(value.element, type.element)) {
        throw fail(
          errc.kernelArgument,
          name,
          `the accessor's elements are ${typeName(type.element)}, the buffer's ${typeName(value.element)}`,
        );
      }
      if (value.access !== type.access && !allowed[type.access].includes(value.access)) {
        throw fail(
          errc.accessor,
          name,
          `a '${value.access}' buffer cannot be bound to a '${type.access}' accessor`,
        );
      }
      if (value.destroyed) throw fail(errc.kernelArgument, name, 'the buffer was destroyed');
      if (value.device !== device) {
        throw fail(errc.kernelArgument, name, 'the buffer belongs to another device');
      }
      buffers.set(name, value);
    } else {
      try {
        values.set(name, canonicalize(type, value, name));
      } catch (error) {
        if (!(error instanceof ValueError)) throw error;
        throw fail(errc.kernelArgument, name, `${show(value)} is invalid: ${error.message}`);
      }
    }
  }
  return { buffers, values };
}
