/**
 * Runs one kernel of an emitted device image with raw WebGPU calls, following the binding
 * conventions of docs/device-images.md: pipeline constants per leaf on the native path, the
 * emulation buffer on the emulated path, the `launch` uniform, accessors and zero-initialised
 * device globals. Plain WebGPU only, so it also runs outside the test runner.
 */
import {
  type CollectiveLowering,
  type DataType,
  type DeviceGlobalInfo,
  type DeviceImage,
  type GlobalStorage,
  type JsonValue,
  type ShareableValue,
  type SpecConstantMode,
  type SymbolicId,
  usesLaunchSlots,
  writeValue,
} from '@syclts/dsl';

export interface Launch {
  readonly mode: SpecConstantMode;
  /** How group functions are printed (default 'subgroups': the image's first WGSL). */
  readonly lowering?: CollectiveLowering;
  /** SYCL range, dimension 0 first. */
  readonly range: readonly number[];
  /** Initial contents of every accessor (poison the ones the kernel writes). */
  readonly accessors?: Readonly<Record<string, ArrayBufferView>>;
  readonly values?: Readonly<Record<string, JsonValue>>;
  /** Values set for specialization constants; the others keep their defaults. */
  readonly specConstants?: Readonly<Record<SymbolicId, JsonValue>>;
  /** The host objects' defaults, for constants whose default the build did not fold. */
  readonly hostDefaults?: Readonly<Record<SymbolicId, JsonValue>>;
  /** Device-global buffers kept across launches, by storage (created zeroed on first use). */
  readonly globals?: Map<GlobalStorage, GPUBuffer>;
}

export interface LaunchResult {
  readonly accessors: Record<string, ArrayBuffer>;
  readonly globals: Record<SymbolicId, ArrayBuffer>;
}

/** Shader modules by WGSL text, per device. */
const modulesOf = new WeakMap<GPUDevice, Map<string, GPUShaderModule>>();

export async function launchKernel(
  device: GPUDevice,
  image: DeviceImage,
  kernelId: SymbolicId,
  launch: Launch,
): Promise<LaunchResult> {
  const modules = modulesOf.get(device) ?? new Map<string, GPUShaderModule>();
  modulesOf.set(device, modules);
  const kernel = image.kernels[kernelId];
  if (!kernel) throw new Error(`no kernel ${kernelId} in image ${image.id}`);
  const code = (
    launch.lowering === 'workgroup' ? (image.workgroupLowering?.wgsl ?? image.wgsl) : image.wgsl
  )[launch.mode];
  if (code === undefined) throw new Error(`image ${image.id} has no ${launch.mode} variant`);
  let module = modules.get(code);
  if (!module) {
    module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter((m) => m.type === 'error');
    if (errors.length)
      throw new Error(
        `WGSL errors:\n${errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('\n')}\n${code}`,
      );
    modules.set(code, module);
  }

  const currentValue = (id: SymbolicId): JsonValue => {
    const info = image.specConstants[id]!;
    return launch.specConstants?.[id] ?? info.defaultValue ?? launch.hostDefaults?.[id] ?? null;
  };
  const constants: Record<string, number> = {};
  if (launch.mode === 'native') {
    for (const [id, info] of Object.entries(image.specConstants)) {
      const value = currentValue(id);
      for (const leaf of info.leaves) {
        const v = at(value, leaf.path);
        if (info.defaultValue !== null && at(info.defaultValue, leaf.path) === v) continue;
        constants[String(leaf.id)] = typeof v === 'boolean' ? Number(v) : (v as number);
      }
    }
  }

  const entries: GPUBindGroupLayoutEntry[] = [];
  const resources: GPUBindGroupEntry[] = [];
  const readbacks: { name: string; buffer: GPUBuffer; global: DeviceGlobalInfo | null }[] = [];
  const range = [...launch.range].reverse();
  while (range.length < 3) range.push(1);
  const globals = launch.globals ?? new Map<SymbolicId, GPUBuffer>();

  for (const b of kernel.bindings) {
    if (b.kind === 'launch') {
      // Record 0 of the binding's records: the kernel reads slot 0 (see the slot buffer below).
      const bytes = new ArrayBuffer(b.size * (b.records ?? 1));
      const view = new DataView(bytes);
      for (const field of b.fields) {
        const value: JsonValue =
          field.role === 'globalRange'
            ? range
            : field.role === 'groupOffset'
              ? [0, 0, 0]
              : field.role === 'slotMode'
                ? 0
                : (launch.values?.[field.name] ?? null);
        write(view, field.offset, field.type, value);
      }
      entries.push({
        binding: b.binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: 'uniform' },
      });
      resources.push({
        binding: b.binding,
        resource: { buffer: upload(device, bytes, GPUBufferUsage.UNIFORM) },
      });
    } else if (b.kind === 'accessor') {
      const data = launch.accessors?.[b.arg];
      if (!data) throw new Error(`no data for accessor ${b.arg}`);
      const buffer = upload(device, data, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
      entries.push({
        binding: b.binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: b.access === 'read' ? 'read-only-storage' : 'storage' },
      });
      resources.push({ binding: b.binding, resource: { buffer } });
      readbacks.push({ name: b.arg, buffer, global: null });
    } else if (b.kind === 'texture') {
      throw new Error(`texture argument ${b.arg}: this harness binds buffers only`);
    } else if (b.kind === 'log') {
      throw new Error('console.log: this harness binds no log buffer');
    } else {
      // The image's globals of this storage, each at its offset in one buffer.
      const held = Object.entries(image.deviceGlobals).filter(
        ([, g]) => g.deviceImageScope === (b.storage === 'image'),
      );
      let buffer = globals.get(b.storage);
      if (!buffer) {
        buffer = device.createBuffer({
          size: Math.max(16, ...held.map(([, g]) => Math.ceil((g.offset + g.size) / 16) * 16)),
          usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
        });
        globals.set(b.storage, buffer);
      }
      entries.push({
        binding: b.binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: 'storage' },
      });
      resources.push({ binding: b.binding, resource: { buffer } });
      for (const [id, g] of held) readbacks.push({ name: id, buffer, global: g });
    }
  }
  if (launch.mode === 'emulated' && kernel.specConstants.length > 0) {
    const emulation = image.emulation!;
    const view = new DataView(new ArrayBuffer(emulation.size * emulation.records));
    for (const [id, info] of Object.entries(image.specConstants)) {
      write(view, info.emulationOffset, info.type, currentValue(id));
    }
    const usage =
      emulation.addressSpace === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE;
    entries.push({
      binding: emulation.binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: emulation.addressSpace === 'uniform' ? 'uniform' : 'read-only-storage' },
    });
    resources.push({
      binding: emulation.binding,
      resource: { buffer: upload(device, view.buffer, usage) },
    });
  }

  // Mode 0 (a zeroed slot buffer): every kernel that takes a slot takes 0.
  if (usesLaunchSlots(kernel, launch.mode)) {
    const slots = image.launchSlots!;
    entries.push({
      binding: slots.binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: 'storage' },
    });
    resources.push({
      binding: slots.binding,
      resource: { buffer: upload(device, new ArrayBuffer(16), GPUBufferUsage.STORAGE) },
    });
  }
  const layout = device.createBindGroupLayout({ entries });
  device.pushErrorScope('validation');
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: kernel.entryPoint, constants },
  });
  const wgSize = kernel.workgroupSize.map((d) => {
    if (d.kind === 'literal') return d.value;
    const info = image.specConstants[d.symbolicId]!;
    const leaf = info.leaves.find((l) => l.id === d.leafId)!;
    return at(currentValue(d.symbolicId), leaf.path) as number;
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout, entries: resources }));
  pass.dispatchWorkgroups(
    ...(range.map((r, i) => Math.ceil(r / wgSize[i]!)) as [number, number, number]),
  );
  pass.end();
  const copies = readbacks.map((r) => {
    const target = device.createBuffer({
      size: r.buffer.size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    encoder.copyBufferToBuffer(r.buffer, 0, target, 0, r.buffer.size);
    return { ...r, target };
  });
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`WebGPU validation: ${error.message}`);
  const result: LaunchResult = { accessors: {}, globals: {} };
  for (const c of copies) {
    await c.target.mapAsync(GPUMapMode.READ);
    const bytes = c.target.getMappedRange().slice(0);
    c.target.unmap();
    if (c.global)
      result.globals[c.name] = bytes.slice(c.global.offset, c.global.offset + c.global.size);
    else result.accessors[c.name] = bytes;
  }
  return result;
}

function upload(device: GPUDevice, data: ArrayBufferView | ArrayBuffer, usage: number): GPUBuffer {
  const bytes =
    data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const buffer = device.createBuffer({
    size: Math.max(16, Math.ceil(bytes.byteLength / 4) * 4),
    usage,
    mappedAtCreation: true,
  });
  new Uint8Array(buffer.getMappedRange()).set(bytes);
  buffer.unmap();
  return buffer;
}

export function at(value: JsonValue, path: readonly (string | number)[]): JsonValue {
  let v: JsonValue | undefined = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return null;
    v = Array.isArray(v) ? v[key as number] : v[key as string];
  }
  return v ?? null;
}

/** Writes a host value in the host-shareable layout: the ABI module's encoding. */
export function write(view: DataView, offset: number, type: DataType, value: JsonValue): void {
  writeValue(view, offset, type, value as ShareableValue, 'storage');
}
