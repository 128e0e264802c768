/**
 * A kernel launch: the variant and pipeline chosen, the `launch` uniform and emulation buffer
 * written, bind groups built, workgroups dispatched (several dispatches when the range exceeds
 * the per-dimension limit). Everything that can fail on user input is checked before anything
 * is enqueued.
 */
import type { BindingInfo, KernelInfo } from '@syclts/dsl';
import { type DeviceContext, emulationBinding } from '../device/device-context.js';
import { errc, SyclError } from '../errors.js';
import type { ResolvedKernel } from '../program/resolve.js';
import type { KernelPolicy } from '../spec-constants/policy.js';
import {
  emulationBytes,
  leafValue,
  nativeConstants,
  type SpecValues,
} from '../spec-constants/values.js';
import type { CanonicalValue } from '../values/host-value.js';
import { writeValue } from '../values/layout.js';
import type { CheckedArgs } from './kernel-args.js';
import { type Dispatch, splitDispatches, toSycl, toWgsl, type Vec3 } from './range.js';
import type { Issue } from './scheduler.js';

export interface KernelAction {
  readonly api: string;
  /** The kernel's symbolic ID, for messages and labels. */
  readonly name: string;
  readonly resolved: ResolvedKernel;
  /** SYCL-ordered global sizes. */
  readonly global: readonly number[];
  /** SYCL-ordered local sizes for nd-range launches. */
  readonly local: readonly number[] | null;
  readonly args: CheckedArgs;
}

/**
 * Per (queue, kernel): reused uniform buffers (one per dispatch of a split launch), the bytes
 * last written to them, and bind groups by the accessor buffers they bind.
 */
export interface KernelSlots {
  readonly launch: GPUBuffer[];
  readonly launchBytes: (Uint8Array | null)[];
  emulation: GPUBuffer | null;
  emulationBytes: Uint8Array | null;
  readonly bindGroups: Map<string, GPUBindGroup>;
  /** Bind group combinations already dispatched (and so validated) with each pipeline. */
  readonly validated: WeakMap<GPUComputePipeline, Set<string>>;
}

export function emptySlots(): KernelSlots {
  return {
    launch: [],
    launchBytes: [],
    emulation: null,
    emulationBytes: null,
    bindGroups: new Map(),
    validated: new WeakMap(),
  };
}

/** Bind groups kept per (queue, kernel); beyond this the cache starts over. */
const BIND_GROUPS_PER_KERNEL = 32;

export interface PreparedCommand {
  readonly name: string;
  readonly after: Promise<unknown> | null;
  readonly issue: Issue;
  /** Holds back later commands until its completion (see Scheduler.schedule). */
  readonly blocking?: boolean;
}

export function prepareLaunch(
  context: DeviceContext,
  policy: KernelPolicy,
  slots: KernelSlots,
  action: KernelAction,
  values: SpecValues,
): PreparedCommand {
  const { program, image, info } = action.resolved;
  const { name } = action;
  const variant = policy.choose(name, image, info);
  const workgroupSize = info.workgroupSize.map((dim) =>
    dim.kind === 'literal'
      ? dim.value
      : leafValue(program, image, values, dim.symbolicId, dim.leafId),
  ) as unknown as Vec3;
  const globalRange = toWgsl(action.global);
  if (action.local) checkNdRange(action, info, workgroupSize);
  const groups = globalRange.map((g, c) => Math.ceil(g / workgroupSize[c]!)) as unknown as Vec3;
  const dispatches = splitDispatches(groups, context.maxWorkgroupsPerDimension);
  if (dispatches.length === 0) return { name, after: null, issue: () => undefined };

  const launchBinding = info.bindings.find((b) => b.kind === 'launch');
  const launchBytes = dispatches.map((d) =>
    launchUniform(launchBinding, globalRange, d, action.args.values),
  );

  let pipelineEntry: ReturnType<DeviceContext['pipeline']>['entry'];
  let emulated: Uint8Array<ArrayBuffer> | null = null;
  if (variant === 'native') {
    const { constants, key } = nativeConstants(program, image, values);
    const { entry, created } = context.pipeline(name, image, info, 'native', constants, key);
    policy.recordNative(image, info, created);
    pipelineEntry = entry;
    context.stats.nativeLaunches++;
  } else {
    pipelineEntry = context.pipeline(name, image, info, 'emulated', {}, '').entry;
    if (emulationBinding(image, info)) emulated = emulationBytes(program, image, values);
    context.stats.emulatedLaunches++;
  }
  const { device } = context;
  const { bindGroupLayout } = context.layout(image, info, variant);

  const issue: Issue = (validate) => {
    const pipeline = pipelineEntry.pipeline;
    if (!pipeline) throw new SyclError(errc.build, `kernel ${name}: its pipeline is not ready`);
    const buffersKey = [...action.args.buffers.values()].map((b) => b.id).join(',');
    const keys = dispatches.map((_, i) => `${variant}|${i}|${buffersKey}`);
    // A pipeline with the same bind groups dispatched before was validated then.
    let validated = slots.validated.get(pipeline);
    const combination = keys.join(';');
    if (!validated?.has(combination)) {
      validate();
      if (!validated) {
        validated = new Set();
        slots.validated.set(pipeline, validated);
      }
      // Bounded like the bind groups: forgetting only costs a scope on the next launch.
      if (validated.size >= BIND_GROUPS_PER_KERNEL) validated.clear();
      validated.add(combination);
    }
    while (slots.launch.length < launchBytes.length) {
      slots.launch.push(
        device.createBuffer({
          label: `${name} launch`,
          size: Math.max(16, launchBinding?.kind === 'launch' ? launchBinding.size : 16),
          usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
        }),
      );
    }
    // queue.writeBuffer takes effect in queue order: a command submitted earlier still reads the
    // values it was launched with, so one buffer per kernel (per split dispatch) suffices, and
    // bytes equal to the last ones written need no write.
    launchBytes.forEach((bytes, i) => {
      if (bytes && !sameBytes(slots.launchBytes[i] ?? null, bytes)) {
        device.queue.writeBuffer(slots.launch[i]!, 0, bytes);
        slots.launchBytes[i] = bytes;
      }
    });
    const emulation = variant === 'emulated' ? emulationBinding(image, info) : null;
    if (emulation && emulated) {
      slots.emulation ??= device.createBuffer({
        label: `${name} specialization constants`,
        size: emulation.size,
        usage:
          (emulation.addressSpace === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE) |
          GPUBufferUsage.COPY_DST,
      });
      if (!sameBytes(slots.emulationBytes, emulated)) {
        device.queue.writeBuffer(slots.emulation, 0, emulated);
        slots.emulationBytes = emulated;
      }
    }
    const encoder = device.createCommandEncoder({ label: name });
    const pass = encoder.beginComputePass({ label: name });
    pass.setPipeline(pipeline);
    dispatches.forEach((dispatch, i) => {
      const key = keys[i]!;
      let bindGroup = slots.bindGroups.get(key);
      if (!bindGroup) {
        const entries = info.bindings.map(
          (binding): GPUBindGroupEntry => ({
            binding: binding.binding,
            resource: { buffer: bindingBuffer(context, action, binding, slots.launch[i]!) },
          }),
        );
        if (emulation && slots.emulation) {
          entries.push({ binding: emulation.binding, resource: { buffer: slots.emulation } });
        }
        bindGroup = device.createBindGroup({ layout: bindGroupLayout, entries });
        if (slots.bindGroups.size >= BIND_GROUPS_PER_KERNEL) slots.bindGroups.clear();
        slots.bindGroups.set(key, bindGroup);
      }
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(...dispatch.workgroups);
      context.stats.dispatches++;
    });
    pass.end();
    device.queue.submit([encoder.finish()]);
    return undefined;
  };
  return { name, after: pipelineEntry.pipeline ? null : pipelineEntry.ready, issue };
}

function bindingBuffer(
  context: DeviceContext,
  action: KernelAction,
  binding: BindingInfo,
  launch: GPUBuffer,
): GPUBuffer {
  switch (binding.kind) {
    case 'accessor': {
      const buffer = action.args.buffers.get(binding.arg);
      if (!buffer) {
        throw new SyclError(
          errc.kernelArgument,
          `kernel ${action.name}: its image binds accessor '${binding.arg}', which the kernel's declaration does not have`,
        );
      }
      return buffer.gpuBuffer;
    }
    case 'launch':
      return launch;
    case 'deviceGlobals': {
      const { program, image } = action.resolved;
      return context.globals.buffer(program, image, binding.storage);
    }
  }
}

/** The `launch` uniform of one dispatch: globalRange, groupOffset, value arguments. */
function launchUniform(
  binding: BindingInfo | undefined,
  globalRange: Vec3,
  dispatch: Dispatch,
  values: ReadonlyMap<string, CanonicalValue>,
): Uint8Array<ArrayBuffer> | null {
  if (binding?.kind !== 'launch') return null;
  const bytes = new Uint8Array(Math.max(16, binding.size));
  const view = new DataView(bytes.buffer);
  for (const field of binding.fields) {
    const value =
      field.role === 'globalRange'
        ? globalRange
        : field.role === 'groupOffset'
          ? dispatch.groupOffset
          : values.get(field.name);
    if (value === undefined) {
      throw new SyclError(
        errc.kernelArgument,
        `the launch uniform has argument '${field.name}', which the kernel's declaration does not have`,
      );
    }
    writeValue(view, field.offset, field.type, value, 'uniform');
  }
  return bytes;
}

function checkNdRange(action: KernelAction, info: KernelInfo, workgroupSize: Vec3): void {
  const local = action.local!;
  const { global, api, name } = action;
  if (global.some((g, d) => local[d] === 0 || g % local[d]! !== 0)) {
    throw new SyclError(
      errc.ndRange,
      `${api}: kernel ${name}: the global range [${global}] is not divisible by the local range [${local}]`,
    );
  }
  const expected = toSycl(workgroupSize, info.dimensions);
  if (expected.some((w, d) => w !== local[d])) {
    throw new SyclError(
      errc.ndRange,
      `${api}: kernel ${name}: the local range [${local}] differs from the kernel's workgroup size [${expected}]`,
    );
  }
}

function sameBytes(a: Uint8Array | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
