/**
 * Host-shareable memory layout of WGSL types (WGSL §14.4), the one implementation the compiler
 * (emulation buffers, launch uniforms, device globals), the runtime and the tests use. `bool` is
 * not host-shareable: it is stored as a `u32` (0 or 1). `uniform` adds WGSL's uniform-only
 * rules: arrays and structs aligned to 16, array strides multiples of 16, and a member after a
 * struct starting at a multiple of 16.
 */
import type { DataType, ScalarName } from '../types/data-type.js';

export type AddressSpace = 'storage' | 'uniform';

export const roundUp = (multiple: number, value: number): number =>
  Math.ceil(value / multiple) * multiple;

export function scalarSize(scalar: ScalarName): number {
  return scalar === 'f16' ? 2 : 4;
}

export function alignOf(type: DataType, space: AddressSpace = 'storage'): number {
  switch (type.kind) {
    case 'scalar':
      return scalarSize(type.scalar);
    case 'atomic':
      return 4;
    case 'vector': {
      const c = scalarSize(type.component);
      return type.size === 2 ? 2 * c : 4 * c;
    }
    case 'matrix':
      return type.rows === 2 ? 8 : 16;
    case 'array': {
      const a = alignOf(type.element, space);
      return space === 'uniform' ? roundUp(16, a) : a;
    }
    case 'struct': {
      const a = Math.max(...type.fields.map((f) => alignOf(f.type, space)));
      return space === 'uniform' ? roundUp(16, a) : a;
    }
  }
}

export function sizeOf(type: DataType, space: AddressSpace = 'storage'): number {
  switch (type.kind) {
    case 'scalar':
      return scalarSize(type.scalar);
    case 'atomic':
      return 4;
    case 'vector':
      return type.size * scalarSize(type.component);
    case 'matrix':
      return type.columns * (type.rows === 2 ? 8 : 16);
    case 'array':
      return type.length * strideOf(type.element, space);
    case 'struct':
      return structLayout(type, space).size;
  }
}

/** Distance between consecutive elements of an array of `element`. */
export function strideOf(element: DataType, space: AddressSpace = 'storage'): number {
  const stride = roundUp(alignOf(element, space), sizeOf(element, space));
  return space === 'uniform' ? roundUp(16, stride) : stride;
}

/** Offsets of consecutive members laid out from `start`, as WGSL places struct members. */
export function memberLayout(
  members: readonly DataType[],
  space: AddressSpace = 'storage',
  start = 0,
): { readonly offsets: readonly number[]; readonly align: number; readonly end: number } {
  const offsets: number[] = [];
  let end = start;
  let align = 1;
  let previousWasStruct = false;
  for (const member of members) {
    let a = alignOf(member, space);
    if (space === 'uniform' && previousWasStruct) a = Math.max(a, 16);
    const offset = roundUp(a, end);
    offsets.push(offset);
    end = offset + sizeOf(member, space);
    align = Math.max(align, alignOf(member, space));
    previousWasStruct = member.kind === 'struct';
  }
  return { offsets, align, end };
}

/** A struct's member offsets and size. */
export function structLayout(
  type: Extract<DataType, { kind: 'struct' }>,
  space: AddressSpace = 'storage',
): { readonly offsets: readonly number[]; readonly size: number } {
  // Kept per type: values are written per launch, and a type's layout never changes.
  let layouts = structLayouts.get(type);
  if (!layouts) {
    layouts = {};
    structLayouts.set(type, layouts);
  }
  let layout = layouts[space];
  if (!layout) {
    const { offsets, end } = memberLayout(
      type.fields.map((f) => f.type),
      space,
    );
    layout = { offsets, size: roundUp(alignOf(type, space), end) };
    layouts[space] = layout;
  }
  return layout;
}

interface StructLayout {
  readonly offsets: readonly number[];
  readonly size: number;
}

const structLayouts = new WeakMap<
  Extract<DataType, { kind: 'struct' }>,
  { [S in AddressSpace]?: StructLayout }
>();
