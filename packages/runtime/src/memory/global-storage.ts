/**
 * Device-global storage on one device. The program's globals share one buffer (a kernel binds it
 * once, however many globals it uses), kept per program lineage so that its contents survive the
 * dev server's relinks; each image's `deviceImageScope` globals have a buffer of the image. A
 * buffer starts with the globals' initial values (zero where none is given). When a relinked
 * program lays its globals out differently, a new buffer takes over: a global that kept its type
 * and initial value keeps its contents, a new or changed one starts from its initial value.
 */
import {
  type DeviceGlobalInfo,
  type DeviceImage,
  type GlobalStorage,
  originOf,
  type Program,
  roundUp,
  type SymbolicId,
  writeInitialValue,
} from '@syclts/dsl';
import type { RuntimeStats } from '../device/stats.js';
import { BufferUsage } from '../platform/webgpu-flags.js';
import type { Written } from '../queue/scheduler.js';

interface Layout {
  readonly size: number;
  readonly globals: ReadonlyMap<SymbolicId, DeviceGlobalInfo>;
}

interface Held {
  readonly buffer: GPUBuffer;
  readonly layout: Layout;
}

const programLayouts = new WeakMap<Program, Layout>();
const imageLayouts = new WeakMap<DeviceImage, Layout>();

/** The globals held in a program's shared buffer, or in an image's own. */
export function layoutOf(program: Program, image: DeviceImage | null, storage: GlobalStorage) {
  if (storage === 'program') {
    let layout = programLayouts.get(program);
    if (!layout) {
      const { size, globals } = program.programGlobals;
      layout = { size, globals: new Map(Object.entries(globals)) };
      programLayouts.set(program, layout);
    }
    return layout;
  }
  if (!image) throw new Error('layoutOf: an image buffer needs its image');
  let layout = imageLayouts.get(image);
  if (!layout) {
    const globals = Object.entries(image.deviceGlobals).filter(([, g]) => g.deviceImageScope);
    layout = { size: image.imageGlobalsSize, globals: new Map(globals) };
    imageLayouts.set(image, layout);
  }
  return layout;
}

export class GlobalBuffers {
  readonly #held = new WeakMap<object, Held>();
  /** The bytes of `deviceImageScope` globals no image holds, per program lineage. */
  readonly #host = new WeakMap<object, Map<SymbolicId, Uint8Array<ArrayBuffer>>>();
  readonly #written = new WeakMap<object, Map<SymbolicId, Written>>();

  constructor(
    readonly device: GPUDevice,
    readonly stats: RuntimeStats,
  ) {}

  /**
   * The buffer of `storage` for a program (and image). Call it where the command that uses it is
   * issued: a relayout copies contents in queue order, after every command issued before.
   */
  buffer(program: Program, image: DeviceImage | null, storage: GlobalStorage): GPUBuffer {
    const owner = storage === 'program' ? originOf(program) : image!;
    const layout = layoutOf(program, image, storage);
    const held = this.#held.get(owner);
    if (held?.layout === layout) return held.buffer;
    if (held && sameLayout(held.layout, layout)) {
      this.#held.set(owner, { buffer: held.buffer, layout });
      return held.buffer;
    }
    const buffer = this.#create(layout, held?.layout ?? null);
    if (held) {
      const encoder = this.device.createCommandEncoder({ label: 'device globals relayout' });
      for (const [id, g] of layout.globals) {
        const before = held.layout.globals.get(id);
        if (before && sameMeaning(before, g)) {
          encoder.copyBufferToBuffer(
            held.buffer,
            before.offset,
            buffer,
            g.offset,
            roundUp(4, g.size),
          );
        }
      }
      this.device.queue.submit([encoder.finish()]);
      // Not destroyed: launches recorded but not yet submitted may still bind it (GC frees it).
    }
    this.#held.set(owner, { buffer, layout });
    return buffer;
  }

  /** A global's last writer on this device, per program lineage (as its contents are). */
  written(program: Program, id: SymbolicId): Written {
    const byId = byLineage(this.#written, program);
    let cell = byId.get(id);
    if (!cell) {
      cell = { writer: null };
      byId.set(id, cell);
    }
    return cell;
  }

  /**
   * The host storage of a `deviceImageScope` global that no kernel uses, so no image holds: no
   * device code can reach it, so its value stays on the host, zero until the host writes it
   * (its initial value is folded into images only). Kept per program lineage, as buffers are; a
   * relink that changes its size starts it over.
   */
  hostBytes(program: Program, id: SymbolicId, size: number): Uint8Array<ArrayBuffer> {
    const byId = byLineage(this.#host, program);
    let bytes = byId.get(id);
    if (bytes?.byteLength !== size) {
      bytes = new Uint8Array(size);
      byId.set(id, bytes);
    }
    return bytes;
  }

  /** A buffer holding every global's initial value (WebGPU zero-fills the rest). */
  #create(layout: Layout, previous: Layout | null): GPUBuffer {
    const initial = [...layout.globals].filter(([id, g]) => {
      const before = previous?.globals.get(id);
      return g.initialValue !== null && !(before && sameMeaning(before, g));
    });
    const buffer = this.device.createBuffer({
      label: 'device globals',
      size: Math.max(16, layout.size),
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
      mappedAtCreation: initial.length > 0,
    });
    this.stats.deviceGlobalBuffers++;
    if (initial.length > 0) {
      const view = new DataView(buffer.getMappedRange());
      for (const [, g] of initial) {
        writeInitialValue(view, g.offset, g.type, g.initialValue);
      }
      buffer.unmap();
    }
    return buffer;
  }
}

/** A program lineage's entries of `map`, made empty on first use. */
function byLineage<V>(map: WeakMap<object, Map<SymbolicId, V>>, program: Program) {
  const owner = originOf(program);
  let byId = map.get(owner);
  if (!byId) {
    byId = new Map();
    map.set(owner, byId);
  }
  return byId;
}

function sameLayout(a: Layout, b: Layout): boolean {
  if (a.size !== b.size || a.globals.size !== b.globals.size) return false;
  for (const [id, g] of a.globals) {
    const other = b.globals.get(id);
    if (!other || other.offset !== g.offset || !sameMeaning(other, g)) return false;
  }
  return true;
}

/** The same bytes mean the same value: the same type and initial value. */
function sameMeaning(a: DeviceGlobalInfo, b: DeviceGlobalInfo): boolean {
  return JSON.stringify([a.type, a.initialValue]) === JSON.stringify([b.type, b.initialValue]);
}
