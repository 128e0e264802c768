/**
 * A kernel syclts compiled, run with plain WebGPU calls for per-pass timing beside hand-written
 * WGSL: its native variant in one lowering of its group functions, bound as docs/device-images.md
 * lays the bindings out (the launch uniform's first record, group offset 0 and no launch slot
 * taken; a reduction's finishing kernel after it in the same run), in the pipeline the runtime
 * runs for a launch that binds its own record (the launch-slot code off). What is timed is the WGSL
 * syclts prints; the runtime's launch path is measured by the launch rows.
 */
import {
  bindingOf,
  type CollectiveLowering,
  type DataType,
  type DeviceImage,
  type Kernel,
  type KernelInfo,
  type SpecializationId,
  strideOf,
  writeValue,
} from '@syclts/dsl';

export interface DirectLaunch {
  /** Records the kernel's dispatch (and its finishers') as compute passes, the first and last timed. */
  record(
    encoder: GPUCommandEncoder,
    timed?: (first: boolean, last: boolean) => GPUComputePassDescriptor,
  ): void;
}

interface Dispatch {
  readonly pipeline: GPUComputePipeline;
  readonly group: GPUBindGroup;
  readonly groups: readonly [number, number, number];
}

export interface DirectOptions {
  /** Scalar specialization constants of the kernel and their values (the pipeline's overrides). */
  readonly constants?: readonly (readonly [SpecializationId<DataType>, number])[];
  /**
   * The workgroups dispatched (WGSL order), for a kernel that numbers its work-groups itself (an
   * atomic ticket) and may take more of them than one dimension holds.
   */
  readonly grid?: readonly [number, number, number];
}

/**
 * `kernel` over `global` items in work-groups of `local` (SYCL order), its accessors bound to
 * `buffers` and its value arguments set from `values`; a reduction argument's buffer takes the
 * result (replaced), through a buffer of partials made here.
 */
export async function directLaunch(
  device: GPUDevice,
  kernel: Kernel,
  lowering: CollectiveLowering,
  global: readonly number[],
  local: readonly number[],
  buffers: Readonly<Record<string, GPUBuffer>>,
  values: Readonly<Record<string, number>>,
  options: DirectOptions = {},
): Promise<DirectLaunch> {
  const binding = bindingOf(kernel)!;
  const image = binding.program.images.find((i) => i.kernels[binding.symbolicId])!;
  const info = image.kernels[binding.symbolicId]!;
  // A kernel without group functions has one lowering.
  const code = (
    lowering === 'workgroup' && image.workgroupLowering ? image.workgroupLowering.wgsl : image.wgsl
  ).native!;
  const module = device.createShaderModule({ code });
  const constants: Record<string, number> = {};
  for (const [id, value] of options.constants ?? []) {
    const leaf = image.specConstants[bindingOf(id)!.symbolicId]!.leaves[0]!;
    constants[String(leaf.id)] = value;
  }
  // A launch of one dispatch that binds its own record (every large one that fits a dispatch) runs
  // without the launch-slot code and the group offset.
  const slotsOverride = info.launchSlots.includes('native') && image.launchSlots?.override;
  if (slotsOverride) constants[slotsOverride] = 0;
  if (image.groupOffsetOverride) constants[image.groupOffsetOverride] = 0;
  const groups = global.map((g, d) => Math.ceil(g / local[d]!));
  const count = groups.reduce((a, b) => a * b, 1);
  const bound: Record<string, GPUBuffer> = { ...buffers };
  const finishers: Dispatch[] = [];
  for (const r of info.reductions ?? []) {
    const partials = device.createBuffer({
      size: Math.ceil((strideOf(r.element) * count * (r.extent ?? 1)) / 16) * 16 + 16,
      usage: GPUBufferUsage.STORAGE,
    });
    bound[r.arg] = partials;
    const finisher = image.kernels[r.finisher]!;
    finishers.push(
      await dispatchOf(
        device,
        module,
        image,
        finisher,
        [1, 1, 1],
        {
          partials,
          target: buffers[r.arg]!,
        },
        { count, keep: 0 },
      ),
    );
  }
  // WGSL order: x is the last SYCL dimension.
  const xyz =
    options.grid ?? ([...groups].reverse().concat([1, 1]).slice(0, 3) as [number, number, number]);
  const main = await dispatchOf(
    device,
    module,
    image,
    info,
    [...xyz] as [number, number, number],
    bound,
    {
      ...values,
    },
    global,
    constants,
  );
  const dispatches = [main, ...finishers];
  return {
    record(encoder, timed) {
      dispatches.forEach((d, i) => {
        const pass = encoder.beginComputePass(timed?.(i === 0, i === dispatches.length - 1));
        pass.setPipeline(d.pipeline);
        pass.setBindGroup(0, d.group);
        pass.dispatchWorkgroups(...d.groups);
        pass.end();
      });
    },
  };
}

async function dispatchOf(
  device: GPUDevice,
  module: GPUShaderModule,
  image: DeviceImage,
  info: KernelInfo,
  groups: [number, number, number],
  buffers: Readonly<Record<string, GPUBuffer>>,
  values: Readonly<Record<string, number>>,
  global: readonly number[] = [256],
  constants: Readonly<Record<string, number>> = {},
): Promise<Dispatch> {
  const entries: GPUBindGroupLayoutEntry[] = [];
  const resources: GPUBindGroupEntry[] = [];
  for (const b of info.bindings) {
    if (b.kind === 'launch') {
      const size = b.size * (b.records ?? 1);
      const bytes = new ArrayBuffer(size);
      const view = new DataView(bytes);
      const range = [...global].reverse().concat([1, 1]).slice(0, 3);
      for (const f of b.fields) {
        const value =
          f.role === 'globalRange'
            ? range
            : f.role === 'arg'
              ? values[f.name]!
              : f.role === 'slotMode'
                ? 0
                : [0, 0, 0];
        writeValue(view, f.offset, f.type, value, 'storage');
      }
      const buffer = device.createBuffer({
        size,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(buffer, 0, bytes);
      entries.push({
        binding: b.binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: 'uniform' },
      });
      resources.push({ binding: b.binding, resource: { buffer } });
    } else if (b.kind === 'accessor') {
      entries.push({
        binding: b.binding,
        visibility: GPUShaderStage.COMPUTE,
        buffer: { type: b.access === 'read' ? 'read-only-storage' : 'storage' },
      });
      resources.push({ binding: b.binding, resource: { buffer: buffers[b.arg]! } });
    }
  }
  if (info.launchSlots.includes('native') && image.launchSlots) {
    const slots = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    entries.push({
      binding: image.launchSlots.binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: 'storage' },
    });
    resources.push({ binding: image.launchSlots.binding, resource: { buffer: slots } });
  }
  const layout = device.createBindGroupLayout({ entries });
  const pipeline = await device.createComputePipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: info.entryPoint, constants },
  });
  return { pipeline, group: device.createBindGroup({ layout, entries: resources }), groups };
}
