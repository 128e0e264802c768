/**
 * Device globals laid out in their buffers: one buffer shared by the whole program (every image
 * binds it once, however many globals its kernels use) and, per image, one for its
 * `deviceImageScope` globals. Globals are in symbolic-ID order, each at a multiple of 16, so that
 * the layout depends only on the program and one global can be moved whole, with aligned copies,
 * when an edit in the dev server changes the layout.
 */
import {
  type DataType,
  type DeviceGlobalInfo,
  roundUp,
  type SymbolicId,
  sizeOf,
} from '@syclts/dsl';
import type { DeviceGlobalDecl } from '../ir/device-object.js';
import { compare } from './compare.js';

export const GLOBAL_ALIGN = 16;

export interface GlobalLayout {
  readonly offsets: ReadonlyMap<SymbolicId, number>;
  /** Byte size of the buffer, a multiple of 16; 0 without globals. */
  readonly size: number;
}

export function layoutGlobals(
  ids: Iterable<SymbolicId>,
  typeOf: (id: SymbolicId) => DataType,
): GlobalLayout {
  const offsets = new Map<SymbolicId, number>();
  let end = 0;
  for (const id of [...new Set(ids)].sort(compare)) {
    const offset = roundUp(GLOBAL_ALIGN, end);
    offsets.set(id, offset);
    end = offset + sizeOf(typeOf(id));
  }
  return { offsets, size: roundUp(GLOBAL_ALIGN, end) };
}

/** What the image format records of a global laid out at `offset`. */
export function globalInfo(decl: DeviceGlobalDecl, offset: number): DeviceGlobalInfo {
  return {
    type: decl.type,
    size: sizeOf(decl.type),
    offset,
    deviceImageScope: decl.deviceImageScope,
    hostAccess: decl.hostAccess,
    initMode: decl.initMode,
    implementInCsr: decl.implementInCsr,
    initialValue: decl.initialValue,
  };
}
