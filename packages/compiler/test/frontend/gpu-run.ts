/**
 * Runs one kernel of a linked program on a WebGPU device, binding and launching it the way the
 * shared conventions say (explicit layouts, the launch uniform, SYCL-to-WGSL dimension order).
 * Free of compiler imports, so it also bundles for a GPU machine without the compiler.
 */
import {
  type DeviceGlobalInfo,
  type DeviceImage,
  type GlobalStorage,
  type JsonValue,
  type KernelInfo,
  type Program,
  type ShareableValue,
  type SpecConstantMode,
  usesLaunchSlots,
  writeValue,
} from '@syclts/dsl';
import { layoutEntries } from '../support/layout-entries.js';

type Accessor = Float32Array | Int32Array | Uint32Array | Uint16Array;

export interface Launch {
  /** Symbolic ID of the kernel. */
  readonly kernel: string;
  /** The variant run: specialization constants as overrides (default) or in the emulation buffer. */
  readonly mode?: SpecConstantMode;
  /** Global range in SYCL dimension order. */
  readonly range: readonly number[];
  /** nd-range local range in SYCL order (defaults to the kernel's literal workgroup size). */
  readonly local?: readonly number[];
  /** Accessors as typed arrays (contents uploaded, results read back); values as host values. */
  readonly args?: Readonly<Record<string, Accessor | JsonValue>>;
  readonly specConstants?: Readonly<Record<string, JsonValue>>;
  /** Initial device-global contents (default zero). */
  readonly deviceGlobals?: Readonly<Record<string, Accessor>>;
}

export interface LaunchResult {
  readonly accessors: Readonly<Record<string, ArrayBuffer>>;
  readonly deviceGlobals: Readonly<Record<string, ArrayBuffer>>;
}

/** Runs one launch of a kernel of the program and reads every accessor and device global back. */
export async function runKernel(
  device: GPUDevice,
  program: Program,
  launch: Launch,
): Promise<LaunchResult> {
  const image = program.images.find((i) => launch.kernel in i.kernels);
  if (!image) throw new Error(`no image holds ${launch.kernel}`);
  const info = image.kernels[launch.kernel]!;
  const mode = launch.mode ?? 'native';
  const code = image.wgsl[mode];
  if (code === undefined) throw new Error(`the program has no ${mode} variant`);
  const constants = mode === 'native' ? pipelineConstants(image, launch.specConstants ?? {}) : {};
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  // A kernel that takes a launch slot reads slot 0 (slot_mode 0): a zeroed slot buffer.
  const slots = usesLaunchSlots(info, mode) ? image.launchSlots : null;
  const layout = device.createBindGroupLayout({ entries: layoutEntries(image, info, mode) });
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: info.entryPoint, constants },
  });
  const error = await device.popErrorScope();
  if (error) {
    const messages = (await module.getCompilationInfo()).messages.map(
      (m) => `${m.lineNum}:${m.linePos} ${m.message}`,
    );
    throw new Error(`pipeline creation failed: ${error.message}\n${messages.join('\n')}\n${code}`);
  }

  const wgSize = workgroupSize(image, info, launch.specConstants ?? {});
  const dims = info.dimensions;
  const globalRange = [1, 1, 1];
  for (let d = 0; d < dims; d++) globalRange[dims - 1 - d] = launch.range[d] ?? 1;
  const buffers: { binding: number; buffer: GPUBuffer; readBack?: string; size?: number }[] = [];
  const storage = (bytes: ArrayBuffer | ArrayBufferView, size: number) => {
    const buffer = device.createBuffer({
      size: Math.max(16, Math.ceil(size / 4) * 4),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      buffer,
      0,
      bytes instanceof ArrayBuffer
        ? bytes
        : (bytes.buffer.slice(
            bytes.byteOffset,
            bytes.byteOffset + bytes.byteLength,
          ) as ArrayBuffer),
    );
    return buffer;
  };
  for (const b of info.bindings) {
    if (b.kind === 'launch') {
      const data = new ArrayBuffer(b.size);
      const view = new DataView(data);
      for (const field of b.fields) {
        const value: JsonValue =
          field.role === 'globalRange'
            ? globalRange
            : field.role === 'groupOffset'
              ? [0, 0, 0]
              : field.role === 'slotMode'
                ? 0
                : (launch.args?.[field.name] as JsonValue);
        writeValue(view, field.offset, field.type, value as ShareableValue, 'uniform');
      }
      const buffer = device.createBuffer({
        size: b.size * (b.records ?? 1),
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(buffer, 0, data);
      buffers.push({ binding: b.binding, buffer });
    } else if (b.kind === 'accessor') {
      const data = launch.args?.[b.arg];
      if (!ArrayBuffer.isView(data)) throw new Error(`accessor ${b.arg} needs a typed array`);
      buffers.push({
        binding: b.binding,
        buffer: storage(data, data.byteLength),
        readBack: `a:${b.arg}`,
      });
    } else if (b.kind === 'texture') {
      throw new Error(`texture argument ${b.arg}: this harness binds buffers only`);
    } else if (b.kind === 'log') {
      throw new Error('console.log: this harness binds no log buffer');
    } else {
      // The program's (or the image's) globals share one buffer, each at its offset.
      const globals = globalsIn(program, image, b.storage);
      const size = b.storage === 'program' ? program.programGlobals.size : image.imageGlobalsSize;
      const init = new Uint8Array(size);
      for (const [id, g] of globals) {
        const given = launch.deviceGlobals?.[id];
        if (given)
          init.set(new Uint8Array(given.buffer, given.byteOffset, given.byteLength), g.offset);
      }
      buffers.push({
        binding: b.binding,
        buffer: storage(init, size),
        readBack: `s:${b.storage}`,
        size,
      });
    }
  }
  if (slots) buffers.push({ binding: slots.binding, buffer: storage(new ArrayBuffer(16), 16) });
  if (mode === 'emulated' && info.specConstants.length > 0) {
    // Record 0 of the emulation buffer (the slot every launch here takes): each constant's value.
    const emulation = image.emulation!;
    const view = new DataView(new ArrayBuffer(emulation.size * emulation.records));
    for (const [id, sc] of Object.entries(image.specConstants)) {
      const value = launch.specConstants?.[id] ?? sc.defaultValue;
      writeValue(
        view,
        sc.emulationOffset,
        sc.type,
        value as ShareableValue,
        emulation.addressSpace,
      );
    }
    const buffer = device.createBuffer({
      size: view.byteLength,
      usage:
        (emulation.addressSpace === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE) |
        GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(buffer, 0, view.buffer);
    buffers.push({ binding: emulation.binding, buffer });
  }
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout,
      entries: buffers.map((b) => ({ binding: b.binding, resource: { buffer: b.buffer } })),
    }),
  );
  const groups = [0, 1, 2].map((c) => Math.ceil((globalRange[c] ?? 1) / (wgSize[c] ?? 1)));
  pass.dispatchWorkgroups(groups[0]!, groups[1]!, groups[2]!);
  pass.end();
  const reads = buffers
    .filter((b) => b.readBack)
    .map((b) => {
      const copy = device.createBuffer({
        size: b.buffer.size,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      encoder.copyBufferToBuffer(b.buffer, 0, copy, 0, b.buffer.size);
      return { key: b.readBack!, copy, size: b.size! };
    });
  device.queue.submit([encoder.finish()]);
  const accessors: Record<string, ArrayBuffer> = {};
  const deviceGlobals: Record<string, ArrayBuffer> = {};
  for (const { key, copy, size } of reads) {
    await copy.mapAsync(GPUMapMode.READ);
    const bytes = copy.getMappedRange().slice(0, size);
    copy.unmap();
    copy.destroy();
    if (key.startsWith('a:')) accessors[key.slice(2)] = bytes;
    else {
      for (const [id, g] of globalsIn(program, image, key.slice(2) as GlobalStorage)) {
        deviceGlobals[id] = bytes.slice(g.offset, g.offset + g.size);
      }
    }
  }
  for (const b of buffers) b.buffer.destroy();
  return { accessors, deviceGlobals };
}

/** The globals held in one buffer: the program's shared ones, or the image's own. */
function globalsIn(
  program: Program,
  image: DeviceImage,
  storage: GlobalStorage,
): [string, DeviceGlobalInfo][] {
  return storage === 'program'
    ? Object.entries(program.programGlobals.globals)
    : Object.entries(image.deviceGlobals).filter(([, g]) => g.deviceImageScope);
}

function pipelineConstants(
  image: DeviceImage,
  values: Readonly<Record<string, JsonValue>>,
): Record<string, number> {
  const constants: Record<string, number> = {};
  for (const [id, info] of Object.entries(image.specConstants)) {
    const value = values[id];
    if (value === undefined) continue;
    for (const leaf of info.leaves) constants[String(leaf.id)] = Number(at(value, leaf.path));
  }
  return constants;
}

function workgroupSize(
  image: DeviceImage,
  info: KernelInfo,
  values: Readonly<Record<string, JsonValue>>,
): number[] {
  return info.workgroupSize.map((w) => {
    if (w.kind === 'literal') return w.value;
    const sc = image.specConstants[w.symbolicId]!;
    return Number(values[w.symbolicId] ?? sc.defaultValue);
  });
}

function at(value: JsonValue, path: readonly (string | number)[]): JsonValue {
  let cur = value;
  for (const p of path) cur = (cur as Record<string | number, JsonValue>)[p] ?? null;
  return cur;
}

/** A deterministic generator for fresh test inputs. */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
