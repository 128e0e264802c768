/**
 * A device image's property sets, named after DPC++'s: the same information as the runtime's
 * `DeviceImage`, arranged for people and tools (the CLI writes them as JSON). Documented in
 * docs/device-images.md.
 */
import {
  type DeviceGlobalInfo,
  type DeviceImage,
  type JsonValue,
  type KernelInfo,
  type SpecConstantLeaf,
  writeScalar,
} from '@syclts/dsl';
import { leavesOf, valueAt } from '../link/layout.js';

export interface PropertySets {
  /** Symbolic ID -> leaf descriptors `{id, offset, size}` (offset inside the constant). */
  readonly 'SYCL/specialization constants': Record<
    string,
    { id: number; offset: number; size: number }[]
  >;
  /**
   * `all`: the emulation buffer filled with the folded defaults, hex, little-endian (zero where
   * the default is taken from the host object at run time); `values`: each constant's folded
   * default, or null.
   */
  readonly 'SYCL/specialization constants default values': {
    readonly all: string;
    readonly values: Record<string, JsonValue>;
  };
  /** Where the emulated variant reads its constants: the binding and each constant's offset. */
  readonly 'SYCL/emulation': {
    readonly group: number;
    readonly binding: number;
    readonly addressSpace: 'uniform' | 'storage';
    readonly size: number;
    readonly offsets: Record<string, number>;
  } | null;
  /**
   * Symbolic ID -> type, size, offset in its buffer, properties, initial value and the scalar
   * layout (offsets, sizes, paths). Absent when the image uses no device global, as in DPC++.
   */
  readonly 'SYCL/device globals'?: Readonly<
    Record<string, DeviceGlobalInfo & { readonly layout: readonly Omit<SpecConstantLeaf, 'id'>[] }>
  >;
  /** Symbolic ID -> entry point, bindings, workgroup size, workgroup memory, variants. */
  readonly 'SYCL/kernels': Readonly<Record<string, KernelInfo>>;
}

export function propertySets(image: DeviceImage): PropertySets {
  const constants = Object.entries(image.specConstants);
  const globals = Object.entries(image.deviceGlobals);
  return {
    'SYCL/specialization constants': Object.fromEntries(
      constants.map(([id, c]) => [
        id,
        c.leaves.map(({ id: leafId, offset, size }) => ({ id: leafId, offset, size })),
      ]),
    ),
    'SYCL/specialization constants default values': {
      all: image.emulation ? defaultBlob(image) : '',
      values: Object.fromEntries(constants.map(([id, c]) => [id, c.defaultValue])),
    },
    'SYCL/emulation': image.emulation && {
      ...image.emulation,
      offsets: Object.fromEntries(constants.map(([id, c]) => [id, c.emulationOffset])),
    },
    ...(globals.length > 0 && {
      'SYCL/device globals': Object.fromEntries(
        globals.map(([id, g]) => [
          id,
          {
            ...g,
            layout: leavesOf(g.type, 0).map(({ offset, size, scalar, path }) => ({
              offset,
              size,
              scalar,
              path,
            })),
          },
        ]),
      ),
    }),
    'SYCL/kernels': image.kernels,
  };
}

/** The emulation buffer as the folded defaults fill it (the ABI's encoding: bool as u32, f16 as 2 bytes). */
function defaultBlob(image: DeviceImage): string {
  const view = new DataView(new ArrayBuffer(image.emulation!.size));
  for (const c of Object.values(image.specConstants)) {
    if (c.defaultValue === null) continue;
    for (const leaf of c.leaves) {
      const value = valueAt(c.defaultValue, leaf.path);
      if (value !== null) writeScalar(view, c.emulationOffset + leaf.offset, leaf.scalar, value);
    }
  }
  return Buffer.from(view.buffer).toString('hex');
}
