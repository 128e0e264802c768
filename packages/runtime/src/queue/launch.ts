/**
 * A kernel launch: the variant and pipeline chosen, the `launch` uniform and emulation values
 * written into the batch's arena, the dispatches recorded into the batch's compute pass (several
 * when the range exceeds the per-dimension limit). Everything that can fail on user input is
 * checked before anything is recorded. With a ready pipeline and a bind group over the kernel's
 * own layout (minimum binding sizes included) a launch cannot fail validation, so launches share
 * submissions; a submission's error scope still catches the unexpected, and fails its launches.
 */

import type { BindingInfo, KernelInfo } from '@syclts/dsl';
import { writeValue } from '@syclts/dsl';
import { type DeviceContext, emulationBinding, type Variant } from '../device/device-context.js';
import type { PipelineEntry } from '../device/pipeline-cache.js';
import { errc, SyclError } from '../errors.js';
import type { DeviceBuffer } from '../memory/buffer.js';
import type { ResolvedKernel } from '../program/resolve.js';
import type { KernelPolicy } from '../spec-constants/policy.js';
import {
  leafValue,
  nativeConstants,
  nativeKey,
  type SpecValues,
  writeEmulation,
} from '../spec-constants/values.js';
import type { CanonicalValue } from '../values/host-value.js';
import type { Batch } from './batch.js';
import type { SyclEvent } from './event.js';
import type { CheckedArgs } from './kernel-args.js';
import { type Dispatch, splitDispatches, toSycl, toWgsl, type Vec3 } from './range.js';
import type { LaunchIssue } from './scheduler.js';

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

/** Bind groups kept per (queue, kernel, variant); beyond this the cache starts over. */
const BIND_GROUPS_PER_PLAN = 32;
/** Ready native pipelines a plan keeps (the device's cache holds them too); then it starts over. */
const READY_PIPELINES_PER_PLAN = 64;

/** Where a launch's dispatches go: its WGSL-ordered global range, and the dispatches. */
interface Geometry {
  readonly global: readonly number[];
  readonly local: readonly number[] | null;
  readonly globalRange: Vec3;
  readonly dispatches: readonly Dispatch[];
}

/**
 * What a queue keeps per (kernel, variant), made once: the accessor arguments in binding order,
 * the pipeline layout, the workgroup size when it is literal, the last launch's geometry, and
 * bind groups by the buffers they bind. A launch like the previous one allocates nothing here.
 */
export class LaunchPlan {
  readonly accessors: readonly (BindingInfo & { kind: 'accessor' })[];
  readonly launchBinding: (BindingInfo & { kind: 'launch' }) | null;
  /** Bytes of one dispatch's launch uniform (0 when the kernel has none). */
  readonly launchSize: number;
  /** Pipelines of one layout keep the bind group bound across a pipeline change. */
  readonly pipelineLayout: GPUPipelineLayout;
  /** The dynamic offsets of one dispatch (the batch copies them). */
  readonly offsets: number[] = [];
  /** The workgroup size when no specialization constant sets it. */
  readonly #literalSize: Vec3 | null;
  #geometry: Geometry | null = null;
  /** Ready pipelines by constants key: a launch with values seen before builds no cache key. */
  readonly #ready = new Map<string, PipelineEntry>();
  readonly #bindGroups = new Map<string, GPUBindGroup>();
  #generation = -1;
  /** The last bind group and the buffers it binds: the common case needs no key. */
  #last: { buffers: readonly GPUBuffer[]; bindGroup: GPUBindGroup } | null = null;

  constructor(
    readonly context: DeviceContext,
    readonly resolved: ResolvedKernel,
    readonly variant: Variant,
  ) {
    const { bindings, workgroupSize } = resolved.info;
    this.accessors = bindings.filter((b) => b.kind === 'accessor');
    this.launchBinding = bindings.find((b) => b.kind === 'launch') ?? null;
    this.launchSize = this.launchBinding ? Math.max(16, this.launchBinding.size) : 0;
    this.pipelineLayout = context.layout(resolved.image, resolved.info, variant).pipelineLayout;
    const literal = workgroupSize.flatMap((dim) => (dim.kind === 'literal' ? [dim.value] : []));
    this.#literalSize = literal.length === 3 ? (literal as unknown as Vec3) : null;
  }

  /**
   * The ready pipeline for `constantsKey` (empty for the emulated variant), or one from the
   * device's cache (kept once ready).
   */
  pipeline(constantsKey: string, lookUp: () => PipelineEntry): PipelineEntry {
    const known = this.#ready.get(constantsKey);
    if (known) {
      this.context.stats.pipelineCacheHits++;
      return known;
    }
    const entry = lookUp();
    if (entry.pipeline) {
      if (this.#ready.size >= READY_PIPELINES_PER_PLAN) this.#ready.clear();
      this.#ready.set(constantsKey, entry);
    }
    return entry;
  }

  /** The launch's global range and dispatches; the previous launch's when its ranges were the same. */
  geometry(action: KernelAction, values: SpecValues): Geometry {
    const last = this.#geometry;
    if (last && sameSizes(last.global, action.global) && sameSizes(last.local, action.local)) {
      return last;
    }
    const { program, image, info } = this.resolved;
    const workgroupSize =
      this.#literalSize ??
      (info.workgroupSize.map((dim) =>
        dim.kind === 'literal'
          ? dim.value
          : leafValue(program, image, values, dim.symbolicId, dim.leafId),
      ) as unknown as Vec3);
    const globalRange = toWgsl(action.global);
    if (action.local) checkNdRange(action, info, workgroupSize);
    const groups = globalRange.map((g, c) => Math.ceil(g / workgroupSize[c]!)) as unknown as Vec3;
    const geometry: Geometry = {
      global: action.global,
      local: action.local,
      globalRange,
      dispatches: splitDispatches(groups, this.context.maxWorkgroupsPerDimension),
    };
    // A workgroup size from a constant may change with the values: nothing kept then.
    if (this.#literalSize) this.#geometry = geometry;
    return geometry;
  }

  /** Writes the `launch` uniform of one dispatch (globalRange, groupOffset, value arguments) at `at`. */
  writeLaunchUniform(
    view: DataView,
    at: number,
    globalRange: Vec3,
    dispatch: Dispatch,
    args: CheckedArgs,
  ): void {
    for (const field of this.launchBinding!.fields) {
      const value: CanonicalValue | undefined =
        field.role === 'globalRange'
          ? globalRange
          : field.role === 'groupOffset'
            ? dispatch.groupOffset
            : args.values.get(field.name);
      if (value === undefined) {
        throw new SyclError(
          errc.kernelArgument,
          `the launch uniform has argument '${field.name}', which the kernel's declaration does not have`,
        );
      }
      writeValue(view, at + field.offset, field.type, value, 'uniform');
    }
  }

  /** The bind group over these accessor buffers and the batch's arena. */
  bindGroup(args: ReadonlyMap<string, DeviceBuffer>, batch: Batch): GPUBindGroup {
    if (batch.generation !== this.#generation) {
      this.#bindGroups.clear();
      this.#last = null;
      this.#generation = batch.generation;
    }
    const last = this.#last;
    if (last && this.#binds(last.buffers, args)) return last.bindGroup;
    const buffers = this.accessors.map((b) => accessorBuffer(this.resolved, args, b));
    const key = buffers.map((b) => bufferId(b)).join(',');
    let bindGroup = this.#bindGroups.get(key);
    if (!bindGroup) {
      bindGroup = this.#create(buffers, batch);
      if (this.#bindGroups.size >= BIND_GROUPS_PER_PLAN) this.#bindGroups.clear();
      this.#bindGroups.set(key, bindGroup);
    }
    this.#last = { buffers, bindGroup };
    return bindGroup;
  }

  #binds(buffers: readonly GPUBuffer[], args: ReadonlyMap<string, DeviceBuffer>): boolean {
    const { accessors } = this;
    for (let i = 0; i < accessors.length; i++) {
      if (args.get(accessors[i]!.arg)?.gpuBuffer !== buffers[i]) return false;
    }
    return true;
  }

  #create(buffers: readonly GPUBuffer[], batch: Batch): GPUBindGroup {
    const { context, resolved, variant } = this;
    const { program, image, info } = resolved;
    const entries: GPUBindGroupEntry[] = [];
    let accessor = 0;
    for (const binding of info.bindings) {
      const resource: GPUBufferBinding =
        binding.kind === 'accessor'
          ? { buffer: buffers[accessor++]! }
          : binding.kind === 'launch'
            ? { buffer: batch.arena, size: Math.max(16, binding.size) }
            : { buffer: context.globals.buffer(program, image, binding.storage) };
      entries.push({ binding: binding.binding, resource });
    }
    const emulation = variant === 'emulated' ? emulationBinding(image, info) : null;
    if (emulation) {
      entries.push({
        binding: emulation.binding,
        resource: { buffer: batch.arena, size: emulation.size },
      });
    }
    return context.device.createBindGroup({
      label: resolved.symbolicId,
      layout: context.layout(image, info, variant).bindGroupLayout,
      entries,
    });
  }
}

const ids = new WeakMap<GPUBuffer, number>();
let nextId = 0;
function bufferId(buffer: GPUBuffer): number {
  let id = ids.get(buffer);
  if (id === undefined) {
    id = nextId++;
    ids.set(buffer, id);
  }
  return id;
}

function accessorBuffer(
  resolved: ResolvedKernel,
  args: ReadonlyMap<string, DeviceBuffer>,
  binding: BindingInfo & { kind: 'accessor' },
): GPUBuffer {
  const buffer = args.get(binding.arg);
  if (!buffer) {
    throw new SyclError(
      errc.kernelArgument,
      `kernel ${resolved.symbolicId}: its image binds accessor '${binding.arg}', which the kernel's declaration does not have`,
    );
  }
  return buffer.gpuBuffer;
}

/** Per (queue, kernel): the plan of each variant. */
export type KernelPlans = Map<Variant, LaunchPlan>;

export function prepareLaunch(
  context: DeviceContext,
  policy: KernelPolicy,
  plans: KernelPlans,
  action: KernelAction,
  values: SpecValues,
): LaunchIssue {
  const { program, image, info } = action.resolved;
  const { variant, entry } = choosePipeline(context, policy, plans, action, values);
  const plan = planFor(context, plans, action, variant);
  const { globalRange, dispatches } = plan.geometry(action, values);
  // The emulation buffer's values, written into the arena when the launch is recorded.
  const emulation =
    variant === 'emulated' && emulationBinding(image, info)
      ? {
          size: image.emulation?.size ?? 0,
          write: (view: DataView, at: number) => writeEmulation(program, image, values, view, at),
        }
      : null;
  if (variant === 'native') context.stats.nativeLaunches++;
  else context.stats.emulatedLaunches++;
  const launchPlan = plan;
  return {
    name: action.name,
    after: entry.pipeline ? null : entry.ready,
    record: (batch, event) =>
      record(batch, event, launchPlan, entry, action, globalRange, dispatches, emulation),
  };
}

function planFor(
  context: DeviceContext,
  plans: KernelPlans,
  action: KernelAction,
  variant: Variant,
): LaunchPlan {
  let plan = plans.get(variant);
  if (!plan) {
    plan = new LaunchPlan(context, action.resolved, variant);
    plans.set(variant, plan);
  }
  return plan;
}

/**
 * The pipeline to launch with. 'auto' (tiered): the native pipeline of this value set when it
 * is ready; otherwise the emulated variant at once while the native one compiles in the
 * background (at most MAX_BACKGROUND per kernel, so a stream of new values does not queue a
 * compile for each); a kernel with no emulated variant waits for its native pipeline.
 */
function choosePipeline(
  context: DeviceContext,
  policy: KernelPolicy,
  plans: KernelPlans,
  action: KernelAction,
  values: SpecValues,
): { variant: Variant; entry: PipelineEntry } {
  const { resolved, name } = action;
  const { program, image, info } = resolved;
  const variant = policy.choose(name, image, info);
  const emulated = () =>
    planFor(context, plans, action, 'emulated').pipeline(
      '',
      () => context.pipeline(name, image, info, 'emulated', noConstants, '').entry,
    );
  if (variant === 'emulated') return { variant, entry: emulated() };
  const key = nativeKey(program, image, info, values);
  const native = planFor(context, plans, action, 'native');
  const constants = () => nativeConstants(program, image, info, values).constants;
  if (!policy.tiered || !policy.canEmulate(image, info)) {
    const entry = native.pipeline(
      key,
      () => context.pipeline(name, image, info, 'native', constants, key).entry,
    );
    return { variant, entry };
  }
  const cached = native.pipeline(
    key,
    () => context.cachedPipeline(image, info, 'native', key) ?? NOT_CACHED,
  );
  if (cached.pipeline) return { variant, entry: cached };
  if (
    cached === NOT_CACHED &&
    policy.compiling.size < MAX_BACKGROUND &&
    !policy.compiling.has(key)
  ) {
    // Set up and compiled once the emulated launch (submitted at the end of this task) is done,
    // and in a task after that: whoever waits for the launch goes first (creating a pipeline
    // can hold the thread), and the launch pays for the constants' values only.
    const pipelineConstants = constants();
    policy.compiling.add(key);
    context.stats.backgroundCompiles++;
    const finished = () => {
      policy.compiling.delete(key);
    };
    nextTask()
      .then(() => context.device.queue.onSubmittedWorkDone())
      .then(nextTask)
      .then(
        () =>
          context.pipeline(name, image, info, 'native', () => pipelineConstants, key).entry.ready,
      )
      .then(finished, finished);
  }
  context.stats.emulatedWhileCompiling++;
  return { variant: 'emulated', entry: emulated() };
}

/** A pipeline entry standing for "not in the cache" (never ready). */
const NOT_CACHED: PipelineEntry = { pipeline: null, ready: new Promise(() => {}) };

const noConstants = () => ({});

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Native pipelines of one kernel compiled in the background at a time, under 'auto'. */
export const MAX_BACKGROUND = 2;

function record(
  batch: Batch,
  event: SyclEvent,
  plan: LaunchPlan,
  entry: PipelineEntry,
  action: KernelAction,
  globalRange: Vec3,
  dispatches: readonly Dispatch[],
  emulation: EmulationValues | null,
): void {
  const pipeline = entry.pipeline;
  if (!pipeline)
    throw new SyclError(errc.build, `kernel ${action.name}: its pipeline is not ready`);
  if (dispatches.length === 0) {
    batch.add(event);
    return;
  }
  batch.reserve(dispatches.length, plan.launchSize, emulation?.size ?? 0);
  const group = plan.bindGroup(action.args.buffers, batch);
  const emulationOffset = emulation ? batch.slot(emulation.size, emulation.write) : -1;
  const { offsets } = plan;
  for (const dispatch of dispatches) {
    offsets.length = 0;
    if (plan.launchBinding) {
      offsets.push(
        batch.slot(plan.launchSize, (view, at) =>
          plan.writeLaunchUniform(view, at, globalRange, dispatch, action.args),
        ),
      );
    }
    if (emulationOffset >= 0) offsets.push(emulationOffset);
    batch.dispatch(pipeline, plan.pipelineLayout, group, offsets, dispatch.workgroups);
  }
  batch.add(event);
}

interface EmulationValues {
  readonly size: number;
  readonly write: (view: DataView, at: number) => void;
}

function sameSizes(a: readonly number[] | null, b: readonly number[] | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
