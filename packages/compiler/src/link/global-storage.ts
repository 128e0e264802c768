/**
 * Device globals laid out in their buffers: one buffer shared by the whole program (every image
 * binds it once, however many globals its kernels use) and, per image, one for its
 * `deviceImageScope` globals. Globals are in symbolic-ID order, each at a multiple of 16, so that
 * the layout depends only on the program and one global can be moved whole, with aligned copies,
 * when an edit in the dev server changes the layout.
 */
import {
  type DataType,
  DEFAULT_BUFFER_SIZE,
  DEFAULT_STORAGE_BINDING_SIZE,
  type DeviceGlobalInfo,
  roundUp,
  type SymbolicId,
  sizeOf,
} from '@syclts/dsl';
import { type Diagnostic, errorAt } from '../diagnostics/diagnostic.js';
import * as msg from '../diagnostics/link-messages.js';
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

/**
 * A buffer of globals is bound whole: past WebGPU's default maxStorageBufferBindingSize (below
 * its default maxBufferSize) no device can be relied on to bind it. Reported at the global that
 * is too large itself, or at the one whose offset takes the buffer past the limit.
 */
export function checkGlobalSizes(
  layout: GlobalLayout,
  globals: readonly {
    readonly id: SymbolicId;
    readonly module: string;
    readonly decl: DeviceGlobalDecl;
  }[],
  /** The device image whose `deviceImageScope` buffer this is; null: the program's. */
  image: string | null,
  diagnostics: Diagnostic[],
): void {
  const limits = { binding: DEFAULT_STORAGE_BINDING_SIZE, buffer: DEFAULT_BUFFER_SIZE };
  const sorted = [...globals].sort((a, b) => layout.offsets.get(a.id)! - layout.offsets.get(b.id)!);
  for (const { id, module, decl } of sorted) {
    const size = sizeOf(decl.type);
    const end = layout.offsets.get(id)! + size;
    if (end <= DEFAULT_STORAGE_BINDING_SIZE) continue;
    const message =
      size > DEFAULT_STORAGE_BINDING_SIZE
        ? msg.globalTooLarge(id, size, limits)
        : msg.globalPastBinding(id, end, image, limits);
    diagnostics.push(errorAt(message, module, decl.span));
    return;
  }
}
