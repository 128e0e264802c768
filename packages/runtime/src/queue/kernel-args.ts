/**
 * Kernel arguments: host types derived from the kernel's declaration, and their run-time check
 * (missing or extra arguments, element types, access modes, value shapes).
 */
import type {
  AccessMode,
  AccessorType,
  ArrayType,
  DataType,
  DeviceGlobal,
  ExternalTextureType,
  HostValue,
  Kernel,
  KernelArgType,
  KernelArgTypes,
  ReducedValue,
  ReductionType,
  SamplerType,
  SpanType,
  GlobalStorage as StorageKind,
  StorageTextureType,
  TextureType,
} from '@syclts/dsl';
import { sameType, typeName } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { DeviceBuffer, type Plain } from '../memory/buffer.js';
import type { GlobalLocation } from '../memory/device-global-copy.js';
import { type CanonicalValue, canonicalize } from '../values/host-value.js';
import { show, ValueError } from '../values/scalars.js';
import { reductionSupport } from './group-hook.js';
import { type TextureArg, textureSupport } from './texture-hook.js';

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
    : A[K] extends ReductionType<infer T>
      ? ReductionTarget<Plain<Extract<ReducedValue<T>, DataType>>, GlobalTargetType<T>>
      : A[K] extends TextureType | StorageTextureType
        ? TextureLike
        : A[K] extends SamplerType
          ? GPUSampler
          : A[K] extends ExternalTextureType
            ? ExternalTextureSource
            : A[K] extends DataType
              ? HostValue<A[K]>
              : never;
};

/** A texture argument's value: a texture of `queue.texture`. */
export interface TextureLike {
  readonly gpuTexture: GPUTexture;
}

/** A video frame: imported as an external texture when the launch is bound. */
export type ExternalTextureSource = GPUExternalTexture | HTMLVideoElement | VideoFrame;

/**
 * Where a reduction's result goes: the first element of a read_write buffer, or a device global
 * of the reduction's type (a span reduction's: the first elements of either; an array global),
 * combined with the value it holds; with `initializeToIdentity` (SYCL's
 * `property::reduction::initialize_to_identity`) the result replaces it.
 */
export type ReductionTarget<T extends DataType = DataType, G extends DataType = T> =
  | DeviceBuffer<T, 'read_write'>
  | DeviceGlobal<G>
  | { readonly buffer: DeviceBuffer<T, 'read_write'>; readonly initializeToIdentity?: boolean }
  | { readonly deviceGlobal: DeviceGlobal<G>; readonly initializeToIdentity?: boolean };

/** The type of a device global a reduction may write: its value's, or a span's array of them. */
export type GlobalTargetType<T extends DataType | SpanType> =
  T extends SpanType<infer E> ? ArrayType<Plain<E>> : Plain<Extract<T, DataType>>;

/** A device global a reduction writes: where it lives, and the bytes the result takes. */
export interface GlobalTarget {
  readonly storage: GlobalLocation & { readonly storage: StorageKind };
  readonly bytes: number;
}

/** A reduction argument as checked: its buffer or global, and whether its value is combined in. */
export interface CheckedReduction {
  readonly kind: 'reduction';
  readonly target: DeviceBuffer | GlobalTarget;
  readonly keep: boolean;
}

/**
 * A kernel's arguments in declaration order, made when a queue first launches its host object
 * (see KernelState): a launch checks its arguments against it, and keeps them as a list in the
 * same order.
 */
export interface ArgSchema {
  readonly names: readonly string[];
  readonly types: readonly KernelArgType[];
  /** Each name's position. */
  readonly index: ReadonlyMap<string, number>;
  /**
   * Positions of the accessors a launch reads through, and of those it writes through (a
   * reduction writes the buffer of its partial results, bound in the place of its argument).
   */
  readonly reads: readonly number[];
  readonly writes: readonly number[];
}

/** One launch's checked arguments, in schema order: the buffer, texture, or the value's canonical form. */
export type CheckedArgs = readonly (DeviceBuffer | TextureArg | CanonicalValue)[];

/**
 * The arguments as given, checked: a reduction's target too, which the launch replaces with the
 * buffer of its partial results (see queue/reductions.ts).
 */
export type GivenArgs = readonly (DeviceBuffer | TextureArg | CanonicalValue | CheckedReduction)[];

const allowed: Record<AccessMode, readonly AccessMode[]> = {
  read: ['read', 'read_write'],
  write: ['write', 'read_write'],
  read_write: ['read_write'],
};

export function schemaOf(kernel: Kernel): ArgSchema {
  const entries = Object.entries(kernel.args);
  // A sampled texture is read, a storage texture as its access says (as an accessor); a video
  // frame is "written": it learns the launch's event, and is closed once the launch has run.
  const through = (mode: AccessMode) =>
    entries.flatMap(([, type], i) =>
      ((type.kind === 'accessor' || type.kind === 'storageTexture') && type.access !== mode) ||
      (type.kind === 'texture' && mode === 'write') ||
      ((type.kind === 'reduction' || type.kind === 'externalTexture') && mode === 'read')
        ? [i]
        : [],
    );
  return {
    names: entries.map(([name]) => name),
    types: entries.map(([, type]) => type),
    index: new Map(entries.map(([name], i) => [name, i])),
    reads: through('write'),
    writes: through('read'),
  };
}

export function failure(
  api: string,
  kernelName: string,
  code: typeof errc.kernelArgument | typeof errc.accessor,
  name: string,
  why: string,
): SyclError {
  return new SyclError(code, `${api}: kernel ${kernelName}, argument '${name}': ${why}`);
}

/** Checks `args` against the kernel's schema; the checked list holds what the launch binds and writes. */
export function checkArgs(
  api: string,
  kernelName: string,
  schema: ArgSchema,
  args: unknown,
  device: GPUDevice,
): GivenArgs {
  if (typeof args !== 'object' || args === null) {
    throw new SyclError(
      errc.kernelArgument,
      `${api}: kernel ${kernelName} takes an object of arguments, got ${show(args)}`,
    );
  }
  const given = args as Record<string, unknown>;
  const { names, types } = schema;
  // The common case in two cheap loops: every declared name is an own key, and there are no
  // more keys than names. Otherwise, the unknown name is reported first (a misspelt argument
  // is also a missing one), then the missing one.
  let present = 0;
  for (let i = 0; i < names.length; i++) if (Object.hasOwn(given, names[i]!)) present++;
  let keys = 0;
  for (const _ in given) keys++;
  if (present < names.length || keys > names.length) {
    for (const name in given) {
      if (Object.hasOwn(given, name) && !schema.index.has(name)) {
        throw failure(
          api,
          kernelName,
          errc.kernelArgument,
          name,
          'the kernel declares no such argument',
        );
      }
    }
    const missing = names.find((name) => !Object.hasOwn(given, name));
    if (missing) throw failure(api, kernelName, errc.kernelArgument, missing, 'missing');
  }
  const checked = new Array<GivenArgs[number]>(names.length);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const type = types[i]!;
    const value = given[name];
    if (type.kind === 'accessor') {
      checked[i] = checkBuffer(api, kernelName, name, type, value, device);
      continue;
    }
    if (
      type.kind === 'texture' ||
      type.kind === 'storageTexture' ||
      type.kind === 'sampler' ||
      type.kind === 'externalTexture'
    ) {
      checked[i] = textureSupport(api).check(api, kernelName, name, type, value, device);
      continue;
    }
    if (type.kind === 'reduction') {
      checked[i] = reductionSupport(api, kernelName).check(
        api,
        kernelName,
        name,
        type,
        value,
        device,
      );
      continue;
    }
    try {
      checked[i] = canonicalize(type, value, name);
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      throw failure(
        api,
        kernelName,
        errc.kernelArgument,
        name,
        `${show(value)} is invalid: ${error.message}`,
      );
    }
  }
  return checked;
}

export function checkBuffer(
  api: string,
  kernelName: string,
  name: string,
  type: AccessorType,
  value: unknown,
  device: GPUDevice,
): DeviceBuffer {
  if (!(value instanceof DeviceBuffer)) {
    throw failure(
      api,
      kernelName,
      errc.kernelArgument,
      name,
      `expected a buffer of ${typeName(type.element)}, got ${show(value)}`,
    );
  }
  if (value.element !== type.element && !sameType(value.element, type.element)) {
    throw failure(
      api,
      kernelName,
      errc.kernelArgument,
      name,
      `the accessor's elements are ${typeName(type.element)}, the buffer's ${typeName(value.element)}`,
    );
  }
  if (value.access !== type.access && !allowed[type.access].includes(value.access)) {
    throw failure(
      api,
      kernelName,
      errc.accessor,
      name,
      `a '${value.access}' buffer cannot be bound to a '${type.access}' accessor`,
    );
  }
  if (value.destroyed) {
    throw failure(api, kernelName, errc.kernelArgument, name, 'the buffer was destroyed');
  }
  if (value.device !== device) {
    throw failure(
      api,
      kernelName,
      errc.kernelArgument,
      name,
      'the buffer belongs to another device',
    );
  }
  return value;
}
