/**
 * `sycl::handler`: what a command group function records. One action per command group (a
 * kernel launch or a device-global copy), plus specialization constant values or a kernel
 * bundle. SYCL's rules: after `useKernelBundle`, setting or getting a constant is invalid, and
 * so is `useKernelBundle` after a constant was set; the bundle must be executable.
 */
import type {
  DataType,
  DeviceGlobal,
  Dimensions,
  HostValue,
  Kernel,
  KernelArgTypes,
  SpecializationId,
} from '@syclts/dsl';
import type { KernelBundle } from '../bundles/kernel-bundle.js';
import { errc, SyclError } from '../errors.js';
import {
  copyFromGlobal,
  copyToGlobal,
  type HostBytes,
  type HostElements,
  isDeviceGlobal,
  type MutableHostElements,
  memcpyFromGlobal,
  memcpyToGlobal,
  type ReadableGlobal,
  type WritableGlobal,
} from '../memory/device-global-copy.js';
import { SpecValues } from '../spec-constants/values.js';
import { thaw } from '../values/host-value.js';
import type { QueueCore } from './core.js';
import { type KernelAction, kernelAction } from './kernel-action.js';
import type { KernelArgs } from './kernel-args.js';
import { type PreparedLaunch, prepareLaunch } from './launch.js';
import type { LaunchRange } from './range.js';
import type { PreparedCommand } from './scheduler.js';

/** What a command group submits: a launch, or a command that submits on its own. */
export type Recorded = PreparedLaunch | PreparedCommand;

export class Handler {
  readonly #core: QueueCore;
  /** Made when a value is first set: most command groups set none. */
  #values: SpecValues | null = null;
  #bundle: KernelBundle<'executable'> | null = null;
  /** The command group's one action: a kernel launch, or a command. */
  #action: KernelAction | PreparedCommand | null = null;

  /** Who recorded the action, for messages: 'handler', or 'queue' for the queue's shortcuts. */
  readonly #owner: 'handler' | 'queue';

  /** @internal Created by Queue.submit. */
  constructor(core: QueueCore, owner: 'handler' | 'queue') {
    this.#core = core;
    this.#owner = owner;
  }

  setSpecializationConstant<T extends DataType>(
    id: SpecializationId<T>,
    value: HostValue<T>,
  ): void {
    const api = 'handler.setSpecializationConstant';
    this.#noBundle(api);
    this.#values ??= new SpecValues();
    this.#values.set(api, id, value);
  }

  getSpecializationConstant<T extends DataType>(id: SpecializationId<T>): HostValue<T> {
    const api = 'handler.getSpecializationConstant';
    this.#noBundle(api);
    return thaw((this.#values ?? NO_VALUES).read(api, id)) as HostValue<T>;
  }

  useKernelBundle(bundle: KernelBundle<'executable'>): void {
    const api = 'handler.useKernelBundle';
    if (this.#values && this.#values.size > 0) {
      throw new SyclError(
        errc.invalid,
        `${api}: a specialization constant was already set on this handler`,
      );
    }
    if (bundle.state !== 'executable') {
      throw new SyclError(errc.invalid, `${api}: the bundle is ${bundle.state}; build it first`);
    }
    if (bundle.device !== this.#core.context.device) {
      throw new SyclError(
        errc.invalid,
        `${api}: the bundle belongs to another device than the queue`,
      );
    }
    this.#bundle = bundle;
  }

  /** One signature, as `Queue.parallelFor`'s, so that tsc names the argument that is wrong. */
  parallelFor<D extends Dimensions, A extends KernelArgTypes, ND extends boolean>(
    range: NoInfer<LaunchRange<D, ND>>,
    kernel: Kernel<D, A, ND>,
    args: NoInfer<KernelArgs<A>>,
  ): void {
    this.#kernel(`${this.#owner}.parallelFor`, range, kernel, args);
  }

  /** Runs the kernel once (a range of 1 in each of its dimensions). */
  singleTask<D extends Dimensions, A extends KernelArgTypes>(
    kernel: Kernel<D, A, false>,
    args: NoInfer<KernelArgs<A>>,
  ): void {
    this.#kernel(`${this.#owner}.singleTask`, singleTaskRange(kernel), kernel, args);
  }

  /** Host elements → device global: `count` elements (default: to the end) from `startIndex`. */
  copy<T extends DataType>(
    src: HostElements<T>,
    dest: WritableGlobal<T>,
    count?: number,
    startIndex?: number,
  ): void;
  /** Device global → host elements; `dest` is filled when the command completes. */
  copy<T extends DataType>(
    src: ReadableGlobal<T>,
    dest: MutableHostElements<T>,
    count?: number,
    startIndex?: number,
  ): void;
  copy(src: unknown, dest: unknown, count?: number, startIndex = 0): void {
    const api = `${this.#owner}.copy`;
    this.#command(
      api,
      isDeviceGlobal(dest)
        ? copyToGlobal(this.#core.context, api, src as ArrayLike<unknown>, dest, count, startIndex)
        : copyFromGlobal(
            this.#core.context,
            api,
            src as DeviceGlobal,
            dest as MutableHostElements<DataType>,
            count,
            startIndex,
          ),
    );
  }

  /** Host bytes → device global: `numBytes` (default: to the end) at byte `offset`. */
  memcpy<T extends DataType>(
    dest: WritableGlobal<T>,
    src: HostBytes,
    numBytes?: number,
    offset?: number,
  ): void;
  /** Device global → host bytes; `dest` is filled when the command completes. */
  memcpy<T extends DataType>(
    dest: HostBytes,
    src: ReadableGlobal<T>,
    numBytes?: number,
    offset?: number,
  ): void;
  memcpy(dest: unknown, src: unknown, numBytes?: number, offset = 0): void {
    const api = `${this.#owner}.memcpy`;
    this.#command(
      api,
      isDeviceGlobal(dest)
        ? memcpyToGlobal(this.#core.context, api, dest, src as HostBytes, numBytes, offset)
        : memcpyFromGlobal(
            this.#core.context,
            api,
            dest as HostBytes,
            src as DeviceGlobal,
            numBytes,
            offset,
          ),
    );
  }

  /** @internal The command to schedule, or null for an empty command group. */
  finish(): Recorded | null {
    const action = this.#action;
    if (!action || !isKernelAction(action)) return action;
    const bundle = this.#bundle;
    if (bundle && !bundle.images.some((entry) => entry.image === action.resolved.image)) {
      throw new SyclError(
        errc.kernelNotSupported,
        `${action.api}: kernel ${action.name} is not in the kernel bundle used by this command group`,
      );
    }
    const values = bundle ? bundle.values : (this.#values ?? NO_VALUES);
    return prepareLaunch(this.#core.context, action, values, this.#core.scheduler.batch);
  }

  #kernel(api: string, range: unknown, kernel: Kernel, args: unknown): void {
    this.#oneAction(api);
    const core = this.#core;
    this.#action = kernelAction(api, range, kernel, core.kernel(api, kernel), args, core);
  }

  #command(api: string, command: PreparedCommand): void {
    this.#oneAction(api);
    this.#action = command;
  }

  #oneAction(api: string): void {
    if (this.#action) {
      throw new SyclError(
        errc.invalid,
        `${api}: this command group already has an action; submit one per command group`,
      );
    }
  }

  #noBundle(api: string): void {
    if (this.#bundle) {
      throw new SyclError(
        errc.invalid,
        `${api}: this command group uses a kernel bundle; its values come from the bundle`,
      );
    }
  }
}

/** The values of a command group that set none: every constant at its default. Never set. */
export const NO_VALUES = new SpecValues();

/** A single task's range: 1 in each of the kernel's dimensions. */
export function singleTaskRange(kernel: Kernel): number[] {
  return Array.from({ length: kernel.dimensions }, () => 1);
}

function isKernelAction(action: KernelAction | PreparedCommand): action is KernelAction {
  return 'resolved' in action;
}
