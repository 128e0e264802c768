/**
 * A kernel launch: the variant and pipeline chosen, the `launch` uniform and emulation values
 * written into the batch's arena, the dispatches recorded into the batch's compute pass (several
 * when the range exceeds the per-dimension limit). Everything that can fail on user input is
 * checked before anything is recorded. With a ready pipeline and a bind group over the kernel's
 * own layout (minimum binding sizes included) a launch cannot fail validation, so launches share
 * submissions; WebGPU's refusal of a submission, if the unexpected happens, fails its launches
 * (see Batch).
 */

import type { BindingInfo, KernelInfo } from '@syclts/dsl';
import { writeValue } from '@syclts/dsl';
import {
  type DeviceContext,
  emulationBinding,
  launchSlotsBinding,
  SLOTS_BINDING_BYTES,
  type Variant,
} from '../device/device-context.js';
import type { PipelineEntry, PipelineShelf } from '../device/pipeline-cache.js';
import { errc, SyclError } from '../errors.js';
import type { DeviceBuffer } from '../memory/buffer.js';
import type { ResolvedKernel } from '../program/resolve.js';
import type { KernelPolicy } from '../spec-constants/policy.js';
import {
  nativeConstants,
  nativeKey,
  type SpecValues,
  writeEmulation,
} from '../spec-constants/values.js';
import type { CanonicalValue } from '../values/host-value.js';
import { type Batch, OWN_RECORD } from './batch.js';
import type { SyclEvent } from './event.js';
import type { KernelAction } from './kernel-action.js';
import { checkMatrixArgs, checkRequiredLimits, checkSpecSizes, workgroupSizeOf } from './limits.js';
import type { LogLaunch } from './log-hook.js';
import { type Dispatch, splitDispatches, toSycl, toWgsl, type Vec3 } from './range.js';
import type { LaunchIssue, Written } from './scheduler.js';
import { type TextureArg, textureSupport } from './texture-hook.js';

/**
 * Launches of at most this many workgroups take their slot from the batch's table (the rest bind
 * their own record): one atomic per workgroup on one address is cheap for a small dispatch only.
 */
const SLOT_WORKGROUPS = 64;
/** Bind groups kept per (queue, kernel, variant); beyond this the cache starts over. */
const BIND_GROUPS_PER_PLAN = 32;

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
  /** The bindings of accessor and texture arguments. */
  readonly resources: readonly (BindingInfo & { kind: 'accessor' | 'texture' | 'log' })[];
  readonly launchBinding: (BindingInfo & { kind: 'launch' }) | null;
  /** Bytes of one dispatch's launch uniform (0 when the kernel has none). */
  readonly launchSize: number;
  /** Bytes of the emulation buffer's values (0 when the variant reads none). */
  readonly emulationSize: number;
  /** Whether the kernel takes a launch slot in this variant (see `usesLaunchSlots`). */
  readonly slotted: boolean;
  /** Records the launch uniform binding spans, or null when it is one record. */
  readonly launchRecords: number | null;
  /** Records of one batch's chunk: what every binding read by slot spans. */
  readonly capacity: number;
  /** The most bytes a binding reaches past its offset. */
  readonly window: number;
  /** Pipelines of one layout keep the bind group bound across a pipeline change. */
  readonly pipelineLayout: GPUPipelineLayout;
  /**
   * The dynamic offsets of one dispatch, in binding order: the launch uniform's, the emulation
   * buffer's, the launch-slot buffer's, each where the variant binds it (the batch copies them).
   */
  readonly offsets: number[];
  /** The workgroup size when no specialization constant sets it. */
  readonly #literalSize: Vec3 | null;
  #geometry: Geometry | null = null;
  /**
   * The kernel's pipelines in the device's cache, by constants key: a launch with values seen
   * before builds no key for the whole cache (and holds no pipeline the cache dropped).
   */
  readonly #pipelines: PipelineShelf;
  readonly #bindGroups = new Map<string, GPUBindGroup>();
  #generation = -1;
  /** The last bind group and the buffers it binds: the common case needs no key. */
  #last: {
    resources: readonly (GPUBuffer | GPUBindingResource)[];
    bindGroup: GPUBindGroup;
  } | null = null;
  /** This plan's records in the open batch: the batch's epoch, offsets, records used. */
  #chunkEpoch = -1;
  #chunkLaunch = 0;
  #chunkEmulation = 0;
  #chunkUsed = 0;
  /** The device globals the kernel uses: it may read and write each. */
  readonly globals: readonly Written[];
  /** Whether the launch uniform holds value arguments (else it follows from the dispatch alone). */
  readonly #valueArgs: boolean;
  /** The byte offset of `slot_mode` in a launch record (-1 when the kernel takes no slot). */
  readonly #slotModeOffset: number;
  /** The last launch uniform written in the open batch, for a launch of the same dispatch. */
  #uniformEpoch = -1;
  #uniformDispatch: Dispatch | null = null;
  #uniformMode: 0 | 1 = 0;
  #uniformAt = 0;

  constructor(
    readonly context: DeviceContext,
    readonly resolved: ResolvedKernel,
    readonly variant: Variant,
  ) {
    const { info } = resolved;
    const { bindings, workgroupSize } = info;
    this.resources = bindings.filter(
      (b): b is BindingInfo & { kind: 'accessor' | 'texture' | 'log' } =>
        b.kind !== 'launch' && b.kind !== 'deviceGlobals',
    );
    this.globals = info.deviceGlobals.map((id) => context.globals.written(resolved.program, id));
    this.launchBinding = bindings.find((b) => b.kind === 'launch') ?? null;
    this.launchSize = this.launchBinding ? Math.max(16, this.launchBinding.size) : 0;
    this.#valueArgs = this.launchBinding?.fields.some((f) => f.role === 'arg') ?? false;
    this.#slotModeOffset =
      this.launchBinding?.fields.find((f) => f.role === 'slotMode')?.offset ?? -1;
    const emulation = variant === 'emulated' ? emulationBinding(resolved.image, info) : null;
    this.emulationSize = emulation ? emulation.size : 0;
    this.slotted = launchSlotsBinding(resolved.image, info, variant) !== null;
    this.launchRecords = this.launchBinding?.records ?? null;
    const emulationRecords = emulation ? emulation.records : Number.POSITIVE_INFINITY;
    this.capacity = Math.min(this.launchRecords ?? Number.POSITIVE_INFINITY, emulationRecords);
    this.window = Math.max(
      this.launchSize * (this.launchRecords ?? 1),
      emulation ? emulation.size * emulation.records : 0,
    );
    this.pipelineLayout = context.layout(resolved.image, resolved.info, variant).pipelineLayout;
    this.#pipelines = context.shelf(resolved.image, info, variant);
    const dynamic =
      Number(this.launchSize > 0) + Number(this.emulationSize > 0) + Number(this.slotted);
    this.offsets = new Array<number>(dynamic).fill(0);
    const literal = workgroupSize.flatMap((dim) => (dim.kind === 'literal' ? [dim.value] : []));
    this.#literalSize = literal.length === 3 ? (literal as unknown as Vec3) : null;
  }

  /** The device's cached pipeline for `constantsKey` (empty for the emulated variant), if any. */
  cachedPipeline(constantsKey: string): PipelineEntry | undefined {
    return this.context.pipelines.get(this.#pipelines, constantsKey);
  }

  /** The cached pipeline for `constantsKey` if it is ready. */
  readyPipeline(constantsKey: string): PipelineEntry | undefined {
    const cached = this.cachedPipeline(constantsKey);
    if (!cached?.pipeline) return undefined;
    this.context.stats.pipelineCacheHits++;
    return cached;
  }

  /**
   * A workgroup size, and workgroup memory, that specialization constants set, against the
   * device's limits (before the pipeline is created, so that the error names the kernel).
   */
  checkWorkgroupSize(action: KernelAction, values: SpecValues): void {
    if (this.#literalSize && this.resolved.info.workgroupMemory.kind === 'literal') return;
    checkSpecSizes(this.context.device.limits, action, this.resolved, values);
  }

  /** The launch's global range and dispatches; the previous launch's when its ranges were the same. */
  geometry(action: KernelAction, values: SpecValues): Geometry {
    const last = this.#geometry;
    if (last && sameSizes(last.global, action.global) && sameSizes(last.local, action.local)) {
      return last;
    }
    const { info } = this.resolved;
    const workgroupSize = this.#literalSize ?? workgroupSizeOf(this.resolved, values);
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

  /**
   * Writes one dispatch's `launch` uniform into the batch's arena; returns its dynamic offset.
   * `slotMode` 1: the kernel takes its slot from the batch's table.
   */
  launchUniform(
    batch: Batch,
    geometry: Geometry,
    dispatch: Dispatch,
    action: KernelAction,
    slotMode: 0 | 1,
  ): number {
    const reuse =
      !this.#valueArgs &&
      this.#uniformEpoch === batch.epoch &&
      this.#uniformDispatch === dispatch &&
      this.#uniformMode === slotMode;
    if (reuse) return this.#uniformAt;
    const size = this.launchSize;
    const at = batch.claim(size);
    this.#writeLaunchUniform(batch.view, at, geometry.globalRange, dispatch, action, slotMode);
    this.#uniformAt = batch.keep(size, at);
    this.#uniformEpoch = batch.epoch;
    this.#uniformDispatch = dispatch;
    this.#uniformMode = slotMode;
    return this.#uniformAt;
  }

  /** Writes the `launch` uniform of one dispatch (its range, slot mode, group offset, value arguments) at `at`. */
  #writeLaunchUniform(
    view: DataView,
    at: number,
    globalRange: Vec3,
    dispatch: Dispatch,
    action: KernelAction,
    slotMode: 0 | 1,
  ): void {
    for (const field of this.launchBinding!.fields) {
      const value =
        field.role === 'globalRange'
          ? globalRange
          : field.role === 'groupOffset'
            ? dispatch.groupOffset
            : field.role === 'slotMode'
              ? slotMode
              : (argOf(action, field.name) as CanonicalValue | undefined);
      if (value === undefined) {
        throw new SyclError(
          errc.kernelArgument,
          `the launch uniform has argument '${field.name}', which the kernel's declaration does not have`,
        );
      }
      writeValue(view, at + field.offset, field.type, value, 'uniform');
    }
  }

  /** Arena bytes a launch of `dispatches` dispatches may take, binding windows included. */
  bytesFor(batch: Batch, dispatches: number): number {
    const launch = dispatches * batch.aligned(this.launchSize);
    const emulation = batch.aligned(this.emulationSize);
    const chunk = this.slotted
      ? batch.aligned(this.capacity * this.emulationSize) +
        (this.launchRecords === null ? 0 : batch.aligned(this.capacity * this.launchSize))
      : 0;
    return launch + emulation + chunk + this.window;
  }

  /**
   * Writes a small launch's values as its next record in the batch's chunk, hands its workgroups
   * that record in the batch's slot table, and sets its dynamic offsets (the chunk's).
   */
  slotRecord(
    batch: Batch,
    geometry: Geometry,
    dispatch: Dispatch,
    action: KernelAction,
    values: SpecValues,
  ): void {
    const { launchSize, emulationSize, offsets } = this;
    if (this.#chunkEpoch !== batch.epoch || this.#chunkUsed === this.capacity) {
      this.#chunkLaunch =
        this.launchRecords === null ? 0 : batch.allocate(this.capacity * launchSize);
      this.#chunkEmulation = emulationSize > 0 ? batch.allocate(this.capacity * emulationSize) : 0;
      this.#chunkEpoch = batch.epoch;
      this.#chunkUsed = 0;
    }
    const record = this.#chunkUsed++;
    let launchAt: number;
    if (this.launchRecords === null) {
      launchAt = this.launchUniform(batch, geometry, dispatch, action, 1);
    } else {
      launchAt = this.#chunkLaunch + record * launchSize;
      this.#writeLaunchUniform(batch.view, launchAt, geometry.globalRange, dispatch, action, 1);
      batch.wrote(launchAt + launchSize);
    }
    if (emulationSize > 0) {
      const { program, image } = this.resolved;
      const at = this.#chunkEmulation + record * emulationSize;
      writeEmulation(program, image, values, batch.view, at);
      batch.wrote(at + emulationSize);
    }
    const [x, y, z] = dispatch.workgroups;
    // A slotted kernel has a launch uniform (its slot mode is there): offsets[0].
    offsets[0] = this.launchRecords === null ? launchAt : this.#chunkLaunch;
    if (emulationSize > 0) offsets[1] = this.#chunkEmulation;
    // The slot mode of a chunk's first record, where the chunk holds the launch records: a batch
    // whose only slotted launches are such records sets it to 0 instead of writing the table.
    const modeAt =
      record === 0 && this.launchRecords !== null ? launchAt + this.#slotModeOffset : -1;
    offsets[offsets.length - 1] = batch.enterSlots(record, x * y * z, modeAt);
  }

  /**
   * Whether a launch of these dispatches takes its slot from the batch's table: a small one, while
   * the table has room (the rest bind their own record, in mode 0).
   */
  takesSlot(dispatches: readonly Dispatch[], batch: Batch): boolean {
    if (!this.slotted || dispatches.length !== 1) return false;
    const [x, y, z] = dispatches[0]!.workgroups;
    const workgroups = x * y * z;
    return workgroups <= SLOT_WORKGROUPS && batch.hasSlots(workgroups);
  }

  /** The bind group over the launch's accessor buffers and the batch's arena. */
  bindGroup(action: KernelAction, batch: Batch): GPUBindGroup {
    if (batch.generation !== this.#generation) {
      this.#bindGroups.clear();
      this.#last = null;
      this.#generation = batch.generation;
    }
    const last = this.#last;
    if (last && this.#binds(last.resources, action)) return last.bindGroup;
    const resources = this.resources.map((binding) => this.#resource(binding, action));
    const key = resources.map((r) => resourceId(r)).join(',');
    let bindGroup = this.#bindGroups.get(key);
    if (!bindGroup) {
      bindGroup = this.#create(resources, batch);
      if (this.#bindGroups.size >= BIND_GROUPS_PER_PLAN) this.#bindGroups.clear();
      this.#bindGroups.set(key, bindGroup);
    }
    this.#last = { resources, bindGroup };
    return bindGroup;
  }

  /**
   * What `binding` binds for this launch: an accessor's buffer, a texture's view or sampler, the
   * launch's log buffer.
   */
  #resource(
    binding: BindingInfo & { kind: 'accessor' | 'texture' | 'log' },
    action: KernelAction,
  ): GPUBuffer | GPUBindingResource {
    if (binding.kind === 'log') return action.log!.buffer;
    const arg = argOf(action, binding.arg);
    if (!arg) {
      throw new SyclError(
        errc.kernelArgument,
        `kernel ${this.resolved.symbolicId}: its image binds '${binding.arg}', which the kernel's declaration does not have`,
      );
    }
    return binding.kind === 'accessor'
      ? (arg as DeviceBuffer).gpuBuffer
      : textureSupport(action.name).resource(arg as TextureArg);
  }

  #binds(resources: readonly (GPUBuffer | GPUBindingResource)[], action: KernelAction): boolean {
    const bindings = this.resources;
    for (let i = 0; i < bindings.length; i++) {
      if (this.#resource(bindings[i]!, action) !== resources[i]) return false;
    }
    return true;
  }

  #create(resources: readonly (GPUBuffer | GPUBindingResource)[], batch: Batch): GPUBindGroup {
    const { context, resolved, variant } = this;
    const { program, image, info } = resolved;
    const entries: GPUBindGroupEntry[] = [];
    let at = 0;
    for (const binding of info.bindings) {
      const resource: GPUBindingResource =
        binding.kind === 'launch'
          ? { buffer: batch.arena, size: this.launchSize * (binding.records ?? 1) }
          : binding.kind === 'deviceGlobals'
            ? { buffer: context.globals.buffer(program, image, binding.storage) }
            : binding.kind === 'texture'
              ? resources[at++]!
              : { buffer: resources[at++] as GPUBuffer };
      entries.push({ binding: binding.binding, resource });
    }
    const emulation = variant === 'emulated' ? emulationBinding(image, info) : null;
    if (emulation) {
      entries.push({
        binding: emulation.binding,
        resource: { buffer: batch.arena, size: emulation.size * emulation.records },
      });
    }
    const slots = launchSlotsBinding(image, info, variant);
    if (slots) {
      entries.push({
        binding: slots.binding,
        resource: { buffer: batch.slots, size: SLOTS_BINDING_BYTES },
      });
    }
    return context.device.createBindGroup({
      label: resolved.symbolicId,
      layout: context.layout(image, info, variant).bindGroupLayout,
      entries,
    });
  }
}

/** The launch's argument `name` as checked (undefined when the kernel declares none so named). */
function argOf(
  action: KernelAction,
  name: string,
): DeviceBuffer | TextureArg | CanonicalValue | undefined {
  const index = action.schema.index.get(name);
  return index === undefined ? undefined : action.args[index];
}

const ids = new WeakMap<object, number>();
let nextId = 0;
function resourceId(resource: GPUBuffer | GPUBindingResource): number {
  let id = ids.get(resource);
  if (id === undefined) {
    id = nextId++;
    ids.set(resource, id);
  }
  return id;
}

/** Per (queue, kernel): the plan of each variant. */
export type KernelPlans = Map<Variant, LaunchPlan>;

/** Chooses the variant and pipeline of a launch with `values`, and its dispatches. */
export function prepareLaunch(
  context: DeviceContext,
  action: KernelAction,
  values: SpecValues,
  /** The batch the launch will be recorded into. */
  batch: Batch,
): PreparedLaunch {
  const { resolved, name, policy, plans } = action;
  const { image, info } = resolved;
  checkMatrixArgs(action);
  const specialized = policy.specialize?.(context, action, values, batch);
  if (specialized) return specialized;
  if (policy.choose(name, image, info) === 'native') {
    const native = planFor(context, plans, action, 'native');
    native.checkWorkgroupSize(action, values);
    const entry = nativePipeline(context, policy, native, action, values, batch);
    if (entry) return new PreparedLaunch(action, native, entry, values);
    context.stats.emulatedWhileCompiling++;
  }
  const emulated = planFor(context, plans, action, 'emulated');
  const entry =
    emulated.readyPipeline('') ??
    context.pipeline(name, image, info, 'emulated', noConstants, '').entry;
  return new PreparedLaunch(action, emulated, entry, values);
}

export function planFor(
  context: DeviceContext,
  plans: KernelPlans,
  action: KernelAction,
  variant: Variant,
): LaunchPlan {
  let plan = plans.get(variant);
  if (!plan) {
    checkRequiredLimits(context.device.limits, action, action.resolved.info);
    plan = new LaunchPlan(context, action.resolved, variant);
    plans.set(variant, plan);
  }
  return plan;
}

/**
 * The native pipeline to launch with, or null to run emulated. 'auto' (tiered): the native
 * pipeline of this value set when it is ready; otherwise null, while the native one compiles in
 * the background (at most MAX_BACKGROUND per kernel, so a stream of new values does not queue a
 * compile for each); a kernel with no emulated variant waits for its native pipeline, as under
 * 'native'.
 */
function nativePipeline(
  context: DeviceContext,
  policy: KernelPolicy,
  plan: LaunchPlan,
  action: KernelAction,
  values: SpecValues,
  batch: Batch,
): PipelineEntry | null {
  const { program, image, info } = action.resolved;
  const key = nativeKey(program, image, info, values);
  const ready = plan.readyPipeline(key);
  if (ready) return ready;
  if (!policy.tiered || !policy.canEmulate(image, info)) {
    const constants = () => nativeConstants(program, image, info, values).constants;
    return context.pipeline(action.name, image, info, 'native', constants, key).entry;
  }
  if (
    !plan.cachedPipeline(key) &&
    policy.compiling.size < MAX_BACKGROUND &&
    !policy.compiling.has(key)
  ) {
    compileInBackground(context, policy, action, key, values, batch);
  }
  return null;
}

/**
 * Sets up and compiles a native pipeline once the emulated launch is done, and in a task after
 * that: whoever waits for the launch goes first (creating a pipeline can hold the thread). The
 * launch itself only leaves a job with its batch, which starts a timer once the launch is
 * submitted (set up in the launch, after a wait, it took 22 to 30 µs of it on the H100 host);
 * the pipeline constants, the wait and the compile are made in later tasks (the values a launch
 * was made with do not change after its command group).
 */
function compileInBackground(
  context: DeviceContext,
  policy: KernelPolicy,
  action: KernelAction,
  key: string,
  values: SpecValues,
  batch: Batch,
): void {
  const { program, image, info } = action.resolved;
  policy.compiling.add(key);
  context.stats.backgroundCompiles++;
  const finished = () => {
    policy.compiling.delete(key);
  };
  const compile = () => {
    const { constants } = nativeConstants(program, image, info, values);
    return context.pipeline(action.name, image, info, 'native', () => constants, key, {
      background: true,
    }).entry.ready;
  };
  afterLaunchRan(context, batch, compile).then(finished, finished);
}

/**
 * Runs `job` in a task after the launch being recorded has been submitted and has run on the
 * device, so that whoever waits for the launch goes first: a background compile's schedule.
 */
export function afterLaunchRan<T>(
  context: DeviceContext,
  batch: Batch,
  job: () => Promise<T>,
): Promise<T> {
  return new Promise<void>((submitted) => batch.afterSubmit(() => setTimeout(submitted, 0)))
    .then(() => context.device.queue.onSubmittedWorkDone())
    .then(() => new Promise<void>((next) => setTimeout(next, 0)))
    .then(job);
}

const noConstants = () => ({});

/** Native pipelines of one kernel compiled in the background at a time, under 'auto'. */
export const MAX_BACKGROUND = 2;

/**
 * A launch ready to record: its plan (so its variant), pipeline and dispatches chosen. Recording
 * writes its values into the batch's arena and its dispatches into the batch's pass.
 */
export class PreparedLaunch implements LaunchIssue {
  readonly name: string;
  readonly after: Promise<unknown> | null;
  readonly #action: KernelAction;
  readonly #plan: LaunchPlan;
  readonly #pipeline: PipelineEntry;
  /** The values the emulation buffer is written from (unused by a native launch). */
  readonly #values: SpecValues;
  readonly #geometry: Geometry;

  /** The specialization constants' values it launches with (its finishers' too). */
  get values(): SpecValues {
    return this.#values;
  }

  /** The launches that finish the kernel's reductions, to schedule after this one. */
  get finishers(): readonly KernelAction[] {
    return this.#action.finishers;
  }

  /** Where the launch's `console.log` lines are printed from, when its kernel prints. */
  get log(): LogLaunch | null {
    return this.#action.log;
  }

  constructor(action: KernelAction, plan: LaunchPlan, pipeline: PipelineEntry, values: SpecValues) {
    this.name = action.name;
    this.after = pipeline.pipeline ? null : pipeline.ready;
    this.#action = action;
    this.#plan = plan;
    this.#pipeline = pipeline;
    this.#values = values;
    this.#geometry = plan.geometry(action, values);
    if (plan.variant === 'native') plan.context.stats.nativeLaunches++;
    else plan.context.stats.emulatedLaunches++;
  }

  link(event: SyclEvent): SyclEvent[] | null {
    const { args, schema } = this.#action;
    const { globals } = this.#plan;
    let inputs: SyclEvent[] | null = null;
    for (const i of schema.reads) inputs = unsettled(inputs, (args[i] as DeviceBuffer).writer);
    for (const global of globals) inputs = unsettled(inputs, global.writer);
    for (const i of schema.writes) (args[i] as DeviceBuffer).writer = event;
    for (const global of globals) global.writer = event;
    return inputs;
  }

  record(batch: Batch, event: SyclEvent): void {
    const plan = this.#plan;
    const action = this.#action;
    const pipeline = this.#pipeline.pipeline;
    if (!pipeline) {
      throw new SyclError(errc.build, `kernel ${action.name}: its pipeline is not ready`);
    }
    const { dispatches } = this.#geometry;
    if (dispatches.length === 0) {
      batch.add(event, action.args);
      return;
    }
    const { launchSize, emulationSize, offsets } = plan;
    batch.reserve(dispatches.length, plan.bytesFor(batch, dispatches.length));
    const group = plan.bindGroup(action, batch);
    if (plan.takesSlot(dispatches, batch)) {
      const dispatch = dispatches[0]!;
      plan.slotRecord(batch, this.#geometry, dispatch, action, this.#values);
      batch.dispatch(pipeline, plan.pipelineLayout, group, offsets, dispatch.workgroups);
      batch.add(event, action.args);
      return;
    }
    let emulationOffset = -1;
    if (emulationSize > 0) {
      const { program, image } = action.resolved;
      const at = batch.claim(emulationSize);
      writeEmulation(program, image, this.#values, batch.view, at);
      emulationOffset = batch.keep(emulationSize, at);
    }
    // A launch that binds its own record runs the pipeline without launch-slot code (and, in one
    // dispatch, without the group offset) once it is made (see PipelineEntry.own), the default
    // one until then.
    const own = this.#pipeline.own?.(dispatches.length > 1) ?? pipeline;
    for (const dispatch of dispatches) {
      let next = 0;
      if (launchSize > 0) {
        offsets[next++] = plan.launchUniform(batch, this.#geometry, dispatch, action, 0);
      }
      if (emulationOffset >= 0) offsets[next++] = emulationOffset;
      if (plan.slotted) offsets[next] = OWN_RECORD;
      batch.dispatch(own, plan.pipelineLayout, group, offsets, dispatch.workgroups);
    }
    batch.add(event, action.args);
  }
}

/** `inputs` with `writer` added when its outcome is unknown or failed (a list made when needed). */
function unsettled(inputs: SyclEvent[] | null, writer: SyclEvent | null): SyclEvent[] | null {
  if (!writer || writer.status === 'complete') return inputs;
  if (!inputs) return [writer];
  inputs.push(writer);
  return inputs;
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
