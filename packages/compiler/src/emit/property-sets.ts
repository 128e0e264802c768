/**
 * A device image's property sets, named after DPC++'s: the same information as the runtime's
 * `DeviceImage`, arranged for people and tools (the CLI writes them as JSON). Documented in
 * docs/device-images.md.
 */
import {
  type DataType,
  type DeviceGlobalInfo,
  type DeviceImage,
  type JsonValue,
  type KernelInfo,
  type ScalarName,
  scalarSize,
  strideOf,
  structLayout,
  writeScalar,
} from '@syclts/dsl';
import { valueAt } from '../link/layout.js';

/**
 * A scalar of a device global's layout. Inside an array one entry stands for every element: its
 * path has `'*'` for the array's index, and `repeat` one `{ count, stride }` per `'*'`, outermost
 * first (the k-th element's scalar lies k * stride bytes further), so that the layout of a
 * global of millions of elements is as long as its type.
 */
export interface LayoutEntry {
  readonly offset: number;
  readonly size: number;
  readonly scalar: ScalarName;
  readonly path: readonly (string | number)[];
  readonly repeat?: readonly { readonly count: number; readonly stride: number }[];
}

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
   * layout (offsets, sizes, paths; arrays as one entry per scalar of their element). Absent
   * when the image uses no device global, as in DPC++.
   */
  readonly 'SYCL/device globals'?: Readonly<
    Record<string, DeviceGlobalInfo & { readonly layout: readonly LayoutEntry[] }>
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
        globals.map(([id, g]) => [id, { ...g, layout: layoutOf(g.type) }]),
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

/** The scalars of `type`'s host-shareable layout, arrays folded (see `LayoutEntry`). */
export function layoutOf(type: DataType): LayoutEntry[] {
  const entries: LayoutEntry[] = [];
  const visit = (
    t: DataType,
    offset: number,
    path: readonly (string | number)[],
    repeat: readonly { count: number; stride: number }[],
  ): void => {
    const scalar = (s: ScalarName, at: number, p: readonly (string | number)[]) =>
      entries.push({
        offset: at,
        size: scalarSize(s),
        scalar: s,
        path: p,
        ...(repeat.length > 0 ? { repeat } : {}),
      });
    switch (t.kind) {
      case 'scalar':
      case 'atomic':
        scalar(t.scalar, offset, path);
        return;
      case 'vector':
        for (let i = 0; i < t.size; i++) {
          scalar(t.component, offset + i * scalarSize(t.component), [...path, i]);
        }
        return;
      case 'matrix': {
        const column = t.rows === 2 ? 8 : 16;
        for (let i = 0; i < t.columns * t.rows; i++) {
          const c = Math.floor(i / t.rows);
          scalar('f32', offset + c * column + (i % t.rows) * 4, [...path, i]);
        }
        return;
      }
      case 'array':
        visit(
          t.element,
          offset,
          [...path, '*'],
          [...repeat, { count: t.length, stride: strideOf(t.element) }],
        );
        return;
      case 'struct': {
        const { offsets } = structLayout(t);
        for (const [i, f] of t.fields.entries()) {
          visit(f.type, offset + offsets[i]!, [...path, f.name], repeat);
        }
        return;
      }
    }
  };
  visit(type, 0, [], []);
  return entries;
}
