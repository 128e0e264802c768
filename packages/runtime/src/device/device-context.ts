/**
 * What the runtime keeps per GPUDevice: shader modules per image and variant, bind group layouts
 * per kernel, the pipeline cache, device-global storage and the counters. Queues on the same
 * device share it, so a program's device globals have one buffer per GPUDevice whatever the queue.
 */

import type {
  BindingInfo,
  DeviceImage,
  KernelInfo,
  SourceLocation,
  SpecConstantMode,
} from '@syclts/dsl';
import { roundUp, strideOf, usesLaunchSlots } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { BytePatcher } from '../memory/byte-patch.js';
import { GlobalBuffers } from '../memory/global-storage.js';
import { ShaderStage } from '../platform/webgpu-flags.js';
import { quoteAt, sourceMessage } from '../program/wgsl-errors.js';
import { groupSupport } from '../queue/group-hook.js';
import { textureSupport } from '../queue/texture-hook.js';
import { PipelineCache, type PipelineEntry, type PipelineShelf } from './pipeline-cache.js';
import { emptyStats, type RuntimeStats } from './stats.js';

export type Variant = SpecConstantMode;

/** Workgroup arrivals a batch's launch-slot table holds: small launches past it bind their own record. */
export const SLOT_TABLE_ENTRIES = 4096;
/** Bytes of a launch-slot binding: `next`, the table. */
export const SLOTS_BINDING_BYTES = 4 + 4 * SLOT_TABLE_ENTRIES;

/** A kernel's explicit layout in one variant: exactly its bindings (plus the emulation buffer). */
export interface KernelLayout {
  readonly bindGroupLayout: GPUBindGroupLayout;
  readonly pipelineLayout: GPUPipelineLayout;
}

const contexts = new WeakMap<GPUDevice, DeviceContext>();

export const DEFAULT_PIPELINE_CACHE_SIZE = 64;

/**
 * Asynchronous pipeline creations in flight per device; later ones wait their turn, so that a
 * stream of new value sets never has thousands of compilations under way (Dawn failed under that).
 */
export const MAX_COMPILES_IN_FLIGHT = 4;

export function contextOf(device: GPUDevice): DeviceContext {
  let context = contexts.get(device);
  if (!context) {
    context = new DeviceContext(device);
    contexts.set(device, context);
  }
  return context;
}

export class DeviceContext {
  readonly stats: RuntimeStats = emptyStats();
  readonly pipelines = new PipelineCache(DEFAULT_PIPELINE_CACHE_SIZE);
  readonly globals: GlobalBuffers;
  readonly patcher: BytePatcher;
  readonly #modules = new WeakMap<DeviceImage, Map<Variant, GPUShaderModule>>();
  readonly #layouts = new WeakMap<KernelInfo, Map<Variant, KernelLayout>>();
  /** Each kernel's shelf in the pipeline cache, per image, by variant and entry point. */
  readonly #shelves = new WeakMap<DeviceImage, Map<string, PipelineShelf>>();
  /** Errors creating shader modules and layouts, reported with the pipelines that fail because of them. */
  readonly #creationErrors = new WeakMap<object, Promise<GPUError | null>>();
  /** Where each kernel with a pipeline is declared, by the symbolic ID its labels carry. */
  readonly #kernelSources = new Map<string, SourceLocation>();
  #compiling = 0;
  readonly #waitingCompiles: (() => void)[] = [];
  /** Creations launches wait for, asked for in the current task (see #create). */
  readonly #urgent: ((alone: boolean) => void)[] = [];
  /** Read once: in Node each access of `device.limits` crosses into Dawn (about 0.5 µs). */
  readonly maxWorkgroupsPerDimension: number;

  constructor(readonly device: GPUDevice) {
    this.maxWorkgroupsPerDimension = device.limits.maxComputeWorkgroupsPerDimension;
    this.globals = new GlobalBuffers(device, this.stats);
    this.patcher = new BytePatcher(device);
  }

  /** The image's WGSL and line maps in the lowering of group functions this device runs. */
  sources(image: DeviceImage): Pick<DeviceImage, 'wgsl' | 'lineMaps'> {
    const fallback = image.workgroupLowering;
    return fallback && groupSupport()?.lowering(this.device, image) === 'workgroup'
      ? fallback
      : image;
  }

  module(image: DeviceImage, variant: Variant): GPUShaderModule {
    let byVariant = this.#modules.get(image);
    if (!byVariant) {
      byVariant = new Map();
      this.#modules.set(image, byVariant);
    }
    let module = byVariant.get(variant);
    if (!module) {
      const code = this.sources(image).wgsl[variant];
      if (code === undefined) {
        throw new SyclError(
          errc.kernelNotSupported,
          `device image ${image.id} has no ${variant} variant`,
        );
      }
      this.device.pushErrorScope('validation');
      module = this.device.createShaderModule({ code, label: `${image.id} (${variant})` });
      this.#creationErrors.set(module, this.device.popErrorScope());
      this.stats.shaderModulesCreated++;
      byVariant.set(variant, module);
    }
    return module;
  }

  layout(image: DeviceImage, info: KernelInfo, variant: Variant): KernelLayout {
    let byVariant = this.#layouts.get(info);
    if (!byVariant) {
      byVariant = new Map();
      this.#layouts.set(info, byVariant);
    }
    let layout = byVariant.get(variant);
    if (!layout) {
      // Per-launch values (the launch uniform, the emulation buffer) live in the batch's arena,
      // at dynamic offsets.
      // Minimum sizes move the size checks from every dispatch to pipeline creation (the
      // shader's needs against the layout) and bind group creation: a launch with a ready
      // pipeline and a bind group cannot fail validation, and so never spoils a batch.
      const entries = info.bindings.map(
        (binding): GPUBindGroupLayoutEntry => ({
          binding: binding.binding,
          visibility: ShaderStage.COMPUTE,
          ...(binding.kind === 'texture'
            ? textureSupport(info.entryPoint).layout(binding)
            : {
                buffer: {
                  type: bufferBindingType(binding),
                  hasDynamicOffset: binding.kind === 'launch',
                  minBindingSize: minBindingSize(binding),
                },
              }),
        }),
      );
      const emulation = variant === 'emulated' ? emulationBinding(image, info) : null;
      if (emulation) {
        entries.push({
          binding: emulation.binding,
          visibility: ShaderStage.COMPUTE,
          buffer: {
            type: emulation.addressSpace === 'uniform' ? 'uniform' : 'read-only-storage',
            hasDynamicOffset: true,
            minBindingSize: emulation.size * emulation.records,
          },
        });
      }
      const slots = launchSlotsBinding(image, info, variant);
      if (slots) {
        entries.push({
          binding: slots.binding,
          visibility: ShaderStage.COMPUTE,
          buffer: { type: 'storage', hasDynamicOffset: true, minBindingSize: SLOTS_BINDING_BYTES },
        });
      }
      this.device.pushErrorScope('validation');
      const bindGroupLayout = this.device.createBindGroupLayout({
        entries,
        label: `${info.entryPoint} (${variant})`,
      });
      layout = {
        bindGroupLayout,
        pipelineLayout: this.device.createPipelineLayout({ bindGroupLayouts: [bindGroupLayout] }),
      };
      this.#creationErrors.set(layout.pipelineLayout, this.device.popErrorScope());
      byVariant.set(variant, layout);
    }
    return layout;
  }

  /**
   * The memoised pipeline of a kernel for a variant and a canonical constants key; created on a
   * miss (see #create). `created` tells the caller whether this call created it.
   */
  pipeline(
    kernelName: string,
    image: DeviceImage,
    info: KernelInfo,
    variant: Variant,
    /** The pipeline constants, made only when the pipeline is created. */
    constantsOf: () => Record<string, number>,
    constantsKey: string,
    {
      entryPoint = info.entryPoint,
      background = false,
    }: {
      /** The folded entry point's name, for a pipeline of it (see KernelInfo.foldedArgs). */
      entryPoint?: string;
      /** Made ahead of need (no launch waits for it): never on the host's thread. */
      background?: boolean;
    } = {},
  ): { entry: PipelineEntry; created: boolean } {
    const shelf = this.shelf(image, info, variant);
    const cached = this.pipelines.get(shelf, constantsKey);
    if (cached) {
      this.stats.pipelineCacheHits++;
      return { entry: cached, created: false };
    }
    const module = this.module(image, variant);
    const { pipelineLayout } = this.layout(image, info, variant);
    const constants = constantsOf();
    this.#kernelSources.set(kernelName, info.source);
    const entry: PipelineEntry = {
      pipeline: null,
      ready: this.#create(
        {
          label: `${kernelName} (${variant})`,
          layout: pipelineLayout,
          compute: { module, entryPoint, constants },
        },
        background,
      ).then(
        (pipeline) => {
          entry.pipeline = pipeline;
          return pipeline;
        },
        async (error: unknown) => {
          this.pipelines.delete(shelf, constantsKey, entry);
          const compileError = await this.#creationErrors.get(module);
          const layoutError = await this.#creationErrors.get(pipelineLayout);
          const failed = `kernel ${kernelName}: creating its ${variant} pipeline failed`;
          // A WGSL error: where the user wrote it, when the image has its line map.
          if (compileError) {
            const located = await this.#locate(image, variant, module);
            if (located) {
              throw new SyclError(errc.build, `${located}\n${failed}`, { cause: error });
            }
          }
          const reason = compileError
            ? `device image ${image.id} does not compile: ${compileError.message}`
            : layoutError
              ? `its bind group layout is invalid: ${layoutError.message}`
              : messageOf(error);
          const { module: file, line, column } = info.source;
          const lineMap = this.sources(image).lineMaps?.[variant];
          const quote = quoteAt(lineMap, file, line, column);
          throw new SyclError(
            errc.build,
            `${file}:${line}:${column}: ${failed}: ${reason}${quote ? `\n${quote}` : ''}`,
            { cause: error },
          );
        },
      ),
    };
    // A failure is reported to whoever launches with it; never as an unhandled rejection.
    entry.ready.catch(() => {});
    const slots = launchSlotsBinding(image, info, variant) && image.launchSlots?.override;
    const offsets = image.groupOffsetOverride;
    if (slots || offsets) {
      // By `split` (0, 1): undefined until asked for, null while made or where it failed (the
      // default pipeline serves those launches as well).
      const made: (GPUComputePipeline | null | undefined)[] = [];
      const launches = [0, 0];
      entry.own = (split) => {
        const k = +split;
        if (made[k] !== undefined) return made[k];
        if ((split && !slots) || ++launches[k]! < 2) return null;
        made[k] = null;
        const off = (split ? [slots] : [slots, offsets]).filter((o): o is string => !!o);
        this.#create(
          {
            label: `${kernelName} (${variant}, ${split ? 'no launch slots' : 'one dispatch'})`,
            layout: pipelineLayout,
            compute: {
              module,
              entryPoint,
              constants: {
                ...constants,
                ...Object.fromEntries(off.map((o) => [o, 0])),
              },
            },
          },
          true,
        ).then(
          (pipeline) => {
            made[k] = pipeline;
          },
          () => {},
        );
        return null;
      };
    }
    this.stats.pipelinesCreated++;
    this.stats.pipelineCacheEvictions += this.pipelines.add(shelf, constantsKey, entry);
    return { entry, created: true };
  }

  /** The first compile error of a variant's WGSL, told at its place in the `.sycl.ts` source. */
  async #locate(
    image: DeviceImage,
    variant: Variant,
    module: GPUShaderModule,
  ): Promise<string | null> {
    const { messages } = await module.getCompilationInfo();
    const first = messages.find((m) => m.type === 'error');
    const sources = this.sources(image);
    return first
      ? sourceMessage(sources.lineMaps?.[variant], sources.wgsl[variant] ?? '', first)
      : null;
  }

  /** `file:line:col` of the kernel whose symbolic ID is exactly `name`, or null. */
  place(name: string): string | null {
    const source = this.#kernelSources.get(name);
    return source ? `${source.module}:${source.line}:${source.column}` : null;
  }

  /**
   * `file:line:col` of the kernel a WebGPU message names through a label, or null. Labels are
   * quoted in messages: a bind group's is the kernel's symbolic ID, a pipeline's that and its
   * variant. Compared whole: `#k` is not `#kb`.
   */
  locate(message: string): string | null {
    for (const [, label] of message.matchAll(/"([^"]*)"/g)) {
      const place = this.place(label!.replace(/ \((?:native|emulated)\)$/, ''));
      if (place) return place;
    }
    return null;
  }

  /** A kernel's shelf in the pipeline cache for a variant: its pipelines by constants key. */
  shelf(image: DeviceImage, info: KernelInfo, variant: Variant): PipelineShelf {
    let byKernel = this.#shelves.get(image);
    if (!byKernel) {
      byKernel = new Map();
      this.#shelves.set(image, byKernel);
    }
    const key = `${variant}|${info.entryPoint}`;
    let shelf = byKernel.get(key);
    if (!shelf) {
      shelf = new Map();
      byKernel.set(key, shelf);
    }
    return shelf;
  }

  /**
   * Creates a pipeline. One a launch waits for, when it is the only one asked for in its task, is
   * made with `createComputePipeline`: in Node that is the same compile on the host's thread
   * (which it holds; the launch could not run sooner) without what the asynchronous path can add on top (up to
   * 6 ms on pipelines of 11 to 17 ms on the H100), and in a browser the call returns at once
   * while the GPU process compiles. Several asked for in one task (a stream of new value sets), and those made
   * in the background, are made with `createComputePipelineAsync`, MAX_COMPILES_IN_FLIGHT at a
   * time, off the host's thread.
   */
  #create(
    descriptor: GPUComputePipelineDescriptor,
    background: boolean,
  ): Promise<GPUComputePipeline> {
    const urgent = this.#urgent;
    const decided = background
      ? Promise.resolve(false)
      : new Promise<boolean>((turn) => {
          // Decided when the task ends: whether another launch asked for a pipeline too.
          if (urgent.push(turn) === 1) {
            queueMicrotask(() => {
              for (const next of urgent) next(urgent.length === 1);
              urgent.length = 0;
            });
          }
        });
    return decided.then((alone) => {
      const { device } = this;
      if (!alone) {
        return this.#compileSlot()
          .then(() => device.createComputePipelineAsync(descriptor))
          .finally(() => this.#releaseCompileSlot());
      }
      device.pushErrorScope('internal');
      device.pushErrorScope('validation');
      const popped = () => Promise.all([device.popErrorScope(), device.popErrorScope()]);
      let pipeline: GPUComputePipeline;
      try {
        pipeline = device.createComputePipeline(descriptor);
      } catch (error) {
        // A scope left open would swallow the errors of every later call.
        void popped();
        throw error;
      }
      return popped().then((errors) => {
        const error = errors[0] ?? errors[1];
        if (error) throw new Error(error.message);
        return pipeline;
      });
    });
  }

  /** Waits for one of MAX_COMPILES_IN_FLIGHT pipeline creations to be free. */
  #compileSlot(): Promise<void> {
    if (this.#compiling < MAX_COMPILES_IN_FLIGHT) {
      this.#compiling++;
      return Promise.resolve();
    }
    return new Promise((grant) => this.#waitingCompiles.push(grant));
  }

  #releaseCompileSlot(): void {
    const next = this.#waitingCompiles.shift();
    // The slot passes to the next creation in line, or is freed.
    if (next) next();
    else this.#compiling--;
  }
}

type BufferBinding = Exclude<BindingInfo, { kind: 'texture' }>;

function bufferBindingType(binding: BufferBinding): GPUBufferBindingType {
  if (binding.kind === 'launch') return 'uniform';
  return binding.kind === 'accessor' && binding.access === 'read' ? 'read-only-storage' : 'storage';
}

/**
 * The bytes a binding holds at least: an accessor one element (or one whole joint matrix, where
 * one is loaded or stored through it), a uniform its whole struct.
 */
function minBindingSize(binding: BufferBinding): number {
  if (binding.kind === 'accessor') {
    return Math.max(roundUp(4, strideOf(binding.element, 'storage')), binding.matrixBytes ?? 0);
  }
  return binding.kind === 'launch' ? binding.size * (binding.records ?? 1) : 0;
}

/** The emulation buffer binding of the emulated variant, when the kernel uses any constant. */
export function emulationBinding(image: DeviceImage, info: KernelInfo) {
  return info.specConstants.length > 0 ? image.emulation : null;
}

/** The launch-slot binding, when the kernel takes a launch slot in `variant`. */
export function launchSlotsBinding(image: DeviceImage, info: KernelInfo, variant: Variant) {
  return usesLaunchSlots(info, variant) ? image.launchSlots : null;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
