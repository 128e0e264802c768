/**
 * `sycl::queue` on one WebGPU device: in-order, every command (kernel launch, copy, buffer read
 * or write) runs after the ones submitted before it.
 */
import {
  type AccessMode,
  attachGeneration,
  type DataType,
  type Dimensions,
  f32,
  i32,
  type Kernel,
  type KernelArgTypes,
  type KernelInfo,
  type ScalarType,
  strideOf,
  type TextureDimension,
  u32,
} from '@syclts/dsl';
import { requestAdapter } from '#platform';
import {
  type BundleState,
  type KernelBundle,
  type KernelBundleRequest,
  kernelBundle,
} from '../bundles/kernel-bundle.js';
import { rememberAdapter } from '../device/adapters.js';
import { contextOf, type DeviceContext } from '../device/device-context.js';
import type { RuntimeStats } from '../device/stats.js';
import { errc, SyclError } from '../errors.js';
import { type BufferData, type BufferOptions, DeviceBuffer, type Plain } from '../memory/buffer.js';
import type {
  HostBytes,
  HostElements,
  MutableHostElements,
  ReadableGlobal,
  WritableGlobal,
} from '../memory/device-global-copy.js';
import type {
  DeviceTexture,
  ExternalImage,
  TextureDescriptor,
  TextureFormat,
} from '../memory/texture.js';
import type { AdapterRequest } from '../platform/adapter-request.js';
import { requireFeatures } from '../platform/device-features.js';
import { BufferUsage } from '../platform/webgpu-flags.js';
import { type ResolvedKernel, resolveKernel } from '../program/resolve.js';
import { KernelPolicy, type SpecConstantPolicy } from '../spec-constants/policy.js';
import type { AdaptiveProperty } from './adaptive-hook.js';
import type { QueueCore } from './core.js';
import type { SyclEvent } from './event.js';
import { Handler, NO_VALUES, singleTaskRange } from './handler.js';
import { type KernelState, kernelAction } from './kernel-action.js';
import type { KernelArgs } from './kernel-args.js';
import { schemaOf } from './kernel-args.js';
import { type KernelPlans, PreparedLaunch, prepareLaunch } from './launch.js';
import type { LaunchRange } from './range.js';
import { Scheduler } from './scheduler.js';
import { textureSupport } from './texture-hook.js';
import type { Profile, ProfilingProperty } from './timestamps.js';

export interface QueueOptions extends AdapterRequest {
  /** Run on this device instead of requesting an adapter. */
  readonly device?: GPUDevice;
  /** How kernels with specialization constants run; default 'auto' (see docs/runtime.md). */
  readonly specConstants?: SpecConstantPolicy;
  /** Per-kernel overrides of `specConstants`. */
  readonly kernelSpecConstants?: ReadonlyMap<Kernel, SpecConstantPolicy>;
  /** Most pipelines kept per device (least recently used dropped first); default 64. */
  readonly pipelineCacheSize?: number;
  /**
   * SYCL's `property::queue::enable_profiling`: the value `@syclts/runtime/profiling` exports
   * (`Queue.create({ enableProfiling })`), after which `getProfilingInfo(event)`, from there too,
   * gives each command's times. Needs the device's `timestamp-query` feature. Default: off.
   */
  readonly enableProfiling?: ProfilingProperty;
  /**
   * Adaptive specialization: the value `@syclts/runtime/adaptive` exports
   * (`Queue.create({ adaptive })`), after which a kernel's integer and bool arguments and
   * emulated specialization constants that stay the same across launches run folded into a
   * pipeline compiled in the background (see docs/runtime.md). Default: off.
   */
  readonly adaptive?: AdaptiveProperty;
  /**
   * Bytes of the buffer each launch of a kernel that prints (`console.log` in device code) writes
   * its lines into: a multiple of 4, at least 64, at most the device's
   * `maxStorageBufferBindingSize`; default 1 MiB. Lines past it are counted and reported. Checked
   * by `@syclts/runtime/log` at each launch of a kernel that prints.
   */
  readonly logBufferSize?: number;
}

export class Queue {
  readonly device: GPUDevice;
  readonly adapterDescription: string;
  readonly #core: QueueCore;
  readonly #context: DeviceContext;
  readonly #scheduler: Scheduler;
  /** The policies and adaptive specialization its kernels get. */
  readonly #settings: QueueSettings;
  readonly #policies = new Map<KernelInfo, KernelPolicy>();
  readonly #plans = new Map<KernelInfo, KernelPlans>();
  /** Per kernel host object: what its launches look up, until the next attach or relink. */
  readonly #kernels = new WeakMap<Kernel, KernelState>();
  #destroyed: Promise<void> | null = null;

  private constructor(
    device: GPUDevice,
    adapterDescription: string,
    settings: QueueSettings,
    profile: Profile | undefined,
  ) {
    this.device = device;
    this.adapterDescription = adapterDescription;
    this.#context = contextOf(device);
    if (settings.pipelineCacheSize !== null) {
      this.#context.pipelines.capacity = settings.pipelineCacheSize;
    }
    this.#scheduler = new Scheduler(device, this.#context.stats, this.#context);
    profile?.(this.#scheduler);
    this.#settings = settings;
    this.#core = {
      context: this.#context,
      scheduler: this.#scheduler,
      logBufferSize: settings.logBufferSize,
      policyFor: (kernel) => this.#policyFor(kernel),
      plansFor: (info) => this.#plansFor(info),
      kernel: (api, kernel) => this.#kernel(api, kernel),
    };
  }

  /** A queue on the adapter chosen by `options` (or SYCLTS_ADAPTER / SYCLTS_BACKEND), or on `options.device`. */
  static async create(options: QueueOptions = {}): Promise<Queue> {
    // Checked before a device is requested, so that a bad option leaves nothing behind.
    const settings = queueSettings(options);
    if (options.device) {
      const info = options.device.adapterInfo;
      const description = info
        ? [info.vendor, info.architecture, info.description].filter(Boolean).join(' ')
        : '';
      requireFeatures(
        options.device.features,
        options.requiredFeatures,
        'the GPUDevice passed as options.device',
      );
      const named = description || 'a caller-provided GPUDevice';
      const profile = settings.profiling?.profiler(options.device, named);
      return new Queue(options.device, named, settings, profile);
    }
    const { adapter, description } = await requestAdapter(options);
    // Before the device is requested, so that a refusal leaves nothing behind.
    const profile = settings.profiling?.profiler(adapter, description);
    // Group functions use sub-groups where the device has them (see device/collectives.ts);
    // joint matrices the subgroup-matrix units; profiling, timestamp queries (a feature enabled
    // costs nothing until used).
    const wanted = [
      'shader-f16',
      'subgroups',
      'subgroup-size-control',
      'chromium-experimental-subgroup-matrix',
      'timestamp-query',
    ];
    const device = await adapter.requestDevice({
      // The caller's are in the adapter's features (requestAdapter checked them).
      requiredFeatures: [...new Set([...wanted, ...(options.requiredFeatures ?? [])])].filter((f) =>
        adapter.features.has(f),
      ) as GPUFeatureName[],
      requiredLimits: {
        maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
        maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
        maxBufferSize: adapter.limits.maxBufferSize,
        // The limits a kernel may declare in requiredLimits: granted up to what the adapter offers.
        maxComputeWorkgroupSizeX: adapter.limits.maxComputeWorkgroupSizeX,
        maxComputeWorkgroupSizeY: adapter.limits.maxComputeWorkgroupSizeY,
        maxComputeWorkgroupSizeZ: adapter.limits.maxComputeWorkgroupSizeZ,
        maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
        maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize,
      },
    });
    rememberAdapter(device, adapter);
    return new Queue(device, description, settings, profile);
  }

  /** Counters of the queue's device (shared by every queue on that GPUDevice). */
  get stats(): Readonly<RuntimeStats> {
    return this.#context.stats;
  }

  /** Runs the command group function and schedules what it recorded. */
  submit(commandGroup: (cgh: Handler) => void): SyclEvent {
    return this.#submit('handler', 'queue.submit', commandGroup);
  }

  #submit(
    owner: 'handler' | 'queue',
    api: string,
    commandGroup: (cgh: Handler) => void,
  ): SyclEvent {
    this.#scheduler.assertOpen(api);
    const handler = new Handler(this.#core, owner);
    commandGroup(handler);
    const recorded = handler.finish();
    // A copy back to the host raises only the error of what it reads (see Scheduler.schedule).
    if (!(recorded && 'reads' in recorded)) this.#scheduler.raiseUnobserved(api);
    if (!recorded) {
      return this.#scheduler.schedule({ name: 'empty command group', issue: () => undefined });
    }
    if (recorded instanceof PreparedLaunch) return this.#launchAll(recorded);
    return this.#scheduler.schedule(recorded);
  }

  /**
   * One signature, its range and arguments typed from the kernel: tsc then reports the argument
   * that is wrong, where overloads (one per kind of range) made it report the last overload's
   * range whatever the mistake.
   */
  parallelFor<D extends Dimensions, A extends KernelArgTypes, ND extends boolean>(
    range: NoInfer<LaunchRange<D, ND>>,
    kernel: Kernel<D, A, ND>,
    args: NoInfer<KernelArgs<A>>,
  ): SyclEvent {
    return this.#launch('queue.parallelFor', range, kernel, args);
  }

  singleTask<D extends Dimensions, A extends KernelArgTypes>(
    kernel: Kernel<D, A, false>,
    args: NoInfer<KernelArgs<A>>,
  ): SyclEvent {
    return this.#launch('queue.singleTask', singleTaskRange(kernel), kernel, args);
  }

  /** The shortcuts' launch: what a command group with only this launch records, without one. */
  #launch(api: string, range: unknown, kernel: Kernel, args: unknown): SyclEvent {
    this.#scheduler.throwPending(api);
    const action = kernelAction(api, range, kernel, this.#kernel(api, kernel), args, this.#core);
    return this.#launchAll(prepareLaunch(this.#context, action, NO_VALUES, this.#scheduler.batch));
  }

  /** A launch, then the launches that finish its reductions; the last one's event. */
  #launchAll(launch: PreparedLaunch): SyclEvent {
    const first = this.#scheduler.launch(launch);
    let event = first;
    for (const finisher of launch.finishers) {
      if (finisher.around?.before) this.#scheduler.schedule(finisher.around.before);
      event = this.#scheduler.launch(
        // The launch's constants: a combiner the finisher calls may read them.
        prepareLaunch(this.#context, finisher, launch.values, this.#scheduler.batch),
      );
      if (finisher.around) event = this.#scheduler.schedule(finisher.around.after);
    }
    // The command runs from its kernel's start to its last finisher's end.
    if (event !== first) this.#scheduler.spans?.(first, event);
    // A kernel that prints is waited for until its lines are printed.
    return launch.log?.print(first) ?? event;
  }

  copy<T extends DataType>(
    src: HostElements<T>,
    dest: WritableGlobal<T>,
    count?: number,
    startIndex?: number,
  ): SyclEvent;
  copy<T extends DataType>(
    src: ReadableGlobal<T>,
    dest: MutableHostElements<T>,
    count?: number,
    startIndex?: number,
  ): SyclEvent;
  copy(src: never, dest: never, count?: number, startIndex?: number): SyclEvent {
    return this.#submit('queue', 'queue.copy', (cgh) => cgh.copy(src, dest, count, startIndex));
  }

  memcpy<T extends DataType>(
    dest: WritableGlobal<T>,
    src: HostBytes,
    numBytes?: number,
    offset?: number,
  ): SyclEvent;
  memcpy<T extends DataType>(
    dest: HostBytes,
    src: ReadableGlobal<T>,
    numBytes?: number,
    offset?: number,
  ): SyclEvent;
  memcpy(dest: never, src: never, numBytes?: number, offset?: number): SyclEvent {
    return this.#submit('queue', 'queue.memcpy', (cgh) => cgh.memcpy(dest, src, numBytes, offset));
  }

  /** A buffer of `element`s: `init` is a length (zero-filled) or the contents. */
  buffer<T extends DataType, M extends AccessMode = 'read_write'>(
    element: T,
    init: number | BufferData<T>,
    options?: BufferOptions<M>,
  ): DeviceBuffer<Plain<T>, M>;
  /**
   * A `GPUBuffer` made by other code, as `element`s, without a copy: it must have `STORAGE`
   * usage (and `COPY_SRC`/`COPY_DST` for `read()`/`write()`). See docs/runtime.md, "Interop".
   */
  buffer<T extends DataType, M extends AccessMode = 'read_write'>(
    gpuBuffer: GPUBuffer,
    element: T,
    options?: BufferOptions<M>,
  ): DeviceBuffer<Plain<T>, M>;
  /**
   * A buffer of `data`, its element type the typed array's. Last of the overloads, so that
   * TypeScript 7, which reports the last one a call fails, shows a byte array its hint.
   */
  buffer<A, M extends AccessMode = 'read_write'>(
    data: TypedArrayArgument<A>,
    options?: BufferOptions<M>,
  ): DeviceBuffer<ScalarType<TypedArrayScalar<A>>, M>;
  buffer(
    first: DataType | ArrayBufferView | GPUBuffer,
    second?: unknown,
    third?: BufferOptions<AccessMode>,
  ): DeviceBuffer {
    this.#scheduler.throwPending('queue.buffer');
    if ('mapAsync' in first) {
      if (!(first.usage & BufferUsage.STORAGE)) {
        throw new SyclError(errc.invalid, 'queue.buffer: the GPUBuffer has no STORAGE usage');
      }
      const element = second as DataType;
      return new DeviceBuffer(this.#scheduler, element, 0, third ?? {}, {
        gpuBuffer: first,
        storage: { writer: null, destroyed: false },
        length: Math.floor(first.size / strideOf(element, 'storage')),
      });
    }
    if (ArrayBuffer.isView(first)) {
      const element = typedArrayElement(first);
      return new DeviceBuffer(
        this.#scheduler,
        element,
        first as unknown as BufferData<DataType>,
        (second ?? {}) as BufferOptions<AccessMode>,
      );
    }
    return new DeviceBuffer(
      this.#scheduler,
      first,
      second as number | BufferData<DataType>,
      third ?? {},
    );
  }

  /**
   * A texture for texture arguments (see docs/runtime.md, "Images"): a new one from a
   * descriptor; a copy of an image, of its size (default format rgba8unorm); or a `GPUTexture`
   * made elsewhere, wrapped without a copy. Its code is in `@syclts/runtime/textures`, which a
   * module declaring texture arguments loads.
   */
  texture<F extends TextureFormat>(descriptor: TextureDescriptor<F>): DeviceTexture<F>;
  texture<F extends TextureFormat = 'rgba8unorm'>(
    image: ExternalImage,
    options?: { readonly format?: F; readonly label?: string },
  ): DeviceTexture<F>;
  texture(
    gpuTexture: GPUTexture,
    options?: { readonly dimension?: TextureDimension; readonly label?: string },
  ): DeviceTexture;
  texture(...args: unknown[]): DeviceTexture {
    this.#scheduler.throwPending('queue.texture');
    return textureSupport('queue.texture').create(this.#scheduler, args) as DeviceTexture;
  }

  /** A sampler for `sampler()` arguments: WebGPU's descriptor (filters, address modes). */
  sampler(descriptor?: GPUSamplerDescriptor): GPUSampler {
    return this.device.createSampler(descriptor);
  }

  getKernelBundle<S extends BundleState>(request: KernelBundleRequest<S>): KernelBundle<S> {
    this.#scheduler.assertOpen('queue.getKernelBundle');
    return kernelBundle(this.#core, request);
  }

  /** Resolves when every command submitted so far has completed; raises errors no one observed. */
  async wait(): Promise<void> {
    this.#scheduler.assertOpen('queue.wait');
    await this.#scheduler.drain();
    this.#scheduler.raiseUnobserved('queue.wait');
  }

  /**
   * Releases what the queue holds on its device (the arena of launch values, bind groups,
   * policy state) once every command submitted so far has completed, and raises an error
   * no one observed, as `wait()` does. From the call on, using the queue, or a buffer made with
   * it, is errc.invalid. The GPUDevice, device globals and the pipeline cache stay: other queues
   * on the device share them. Calling it again returns the same promise.
   */
  destroy(): Promise<void> {
    if (!this.#destroyed) {
      this.#scheduler.close();
      this.#destroyed = this.#scheduler.drain().then(() => {
        this.#scheduler.batch.destroy();
        this.#plans.clear();
        this.#policies.clear();
        this.#scheduler.raiseUnobserved('queue.destroy');
      });
    }
    return this.#destroyed;
  }

  /** `await using queue = ...`: destroy() when the scope ends. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.destroy();
  }

  /**
   * `using queue = ...`: destroy() when the scope ends, without waiting: the release still
   * follows the commands in flight, and errors no one observed are dropped (use `await using`,
   * or `wait()` first, to see them).
   */
  [Symbol.dispose](): void {
    this.destroy().catch(() => {});
  }

  #policyFor(kernel: ResolvedKernel): KernelPolicy {
    let policy = this.#policies.get(kernel.info);
    if (!policy) {
      const { overrides, policy: queuePolicy, adaptive } = this.#settings;
      const override = overrides.get(kernel.info);
      policy = new KernelPolicy(
        override ?? queuePolicy,
        override !== undefined,
        adaptive?.specializer(),
      );
      this.#policies.set(kernel.info, policy);
    }
    return policy;
  }

  #kernel(api: string, kernel: Kernel): KernelState {
    const generation = attachGeneration();
    let state = this.#kernels.get(kernel);
    if (state?.generation !== generation) {
      const resolved = resolveKernel(api, kernel);
      state = {
        generation,
        resolved,
        schema: schemaOf(kernel),
        policy: this.#policyFor(resolved),
        plans: this.#plansFor(resolved.info),
      };
      this.#kernels.set(kernel, state);
    }
    return state;
  }

  #plansFor(info: KernelInfo): KernelPlans {
    let plans = this.#plans.get(info);
    if (!plans) {
      plans = new Map();
      this.#plans.set(info, plans);
    }
    return plans;
  }
}

/** SYCL's free function form: `getKernelBundle(queue, { state, kernels })`. */
export function getKernelBundle<S extends BundleState>(
  queue: Queue,
  request: KernelBundleRequest<S>,
): KernelBundle<S> {
  return queue.getKernelBundle(request);
}

interface QueueSettings {
  readonly pipelineCacheSize: number | null;
  readonly logBufferSize: number | undefined;
  readonly profiling: ProfilingProperty | null;
  readonly adaptive: AdaptiveProperty | null;
  readonly policy: SpecConstantPolicy;
  readonly overrides: ReadonlyMap<KernelInfo, SpecConstantPolicy>;
}

function queueSettings(options: QueueOptions): QueueSettings {
  const size = options.pipelineCacheSize;
  if (size !== undefined && (!Number.isInteger(size) || size < 1)) {
    throw new SyclError(
      errc.invalid,
      `Queue.create: pipelineCacheSize must be a positive integer, got ${size}`,
    );
  }
  return {
    pipelineCacheSize: size ?? null,
    logBufferSize: options.logBufferSize,
    profiling: exported(options.enableProfiling, 'enableProfiling', 'profiling', 'profiler'),
    adaptive: exported(options.adaptive, 'adaptive', 'adaptive', 'specializer'),
    policy: checkPolicy(options.specConstants ?? 'auto'),
    overrides: new Map(
      [...(options.kernelSpecConstants ?? [])].map(([kernel, policy]) => [
        resolveKernel('Queue.create', kernel).info,
        checkPolicy(policy),
      ]),
    ),
  };
}

/** An option whose value a subpath module exports (`enableProfiling`), known by its method. */
function exported<T>(value: T | undefined, name: string, module: string, method: string): T | null {
  if (
    value !== undefined &&
    typeof (value as Record<string, unknown> | null)?.[method] !== 'function'
  ) {
    throw new SyclError(
      errc.invalid,
      `Queue.create: ${name} must be @syclts/runtime/${module}'s ${name}, got ${String(value)}`,
    );
  }
  return value ?? null;
}

function checkPolicy(policy: SpecConstantPolicy): SpecConstantPolicy {
  if (policy !== 'native' && policy !== 'emulated' && policy !== 'auto') {
    throw new SyclError(
      errc.invalid,
      `Queue.create: specConstants must be 'native', 'emulated' or 'auto', got ${String(policy)}`,
    );
  }
  return policy;
}

/** The typed arrays whose element type `queue.buffer` knows. */
export type ScalarArray = Float32Array | Uint32Array | Int32Array;

/** What `queue.buffer` says, in the editor and at run time, of bytes such as `ImageData`'s. */
const BYTES_HINT =
  'bytes such as RGBA pixels as 32-bit words: new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4)';

/**
 * `queue.buffer`'s typed array: a byte array (or another view) is refused with the run-time
 * error's hint as the type it would need to be.
 */
export type TypedArrayArgument<A> = A extends ScalarArray
  ? A
  : A extends ArrayBufferView
    ? `a ${A extends { readonly [Symbol.toStringTag]: infer N extends string } ? N : 'view'} does not say its element type; pass ${typeof BYTES_HINT}`
    : ScalarArray;

/** The element type of a typed array `queue.buffer` takes. */
export type TypedArrayScalar<A> = A extends Float32Array
  ? 'f32'
  : A extends Uint32Array
    ? 'u32'
    : 'i32';

function typedArrayElement(data: ArrayBufferView): DataType {
  // The DSL's own descriptors, so that the per-launch element check is an identity test.
  if (data instanceof Float32Array) return f32;
  if (data instanceof Uint32Array) return u32;
  if (data instanceof Int32Array) return i32;
  throw new SyclError(
    errc.invalid,
    `queue.buffer: a ${data.constructor.name} does not say its element type; pass a Float32Array, Uint32Array or Int32Array (${BYTES_HINT})`,
  );
}
