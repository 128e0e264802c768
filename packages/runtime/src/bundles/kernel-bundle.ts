/**
 * SYCL 2020 kernel bundles. A bundle holds device images (those containing the requested
 * kernels, or every image of every attached program) and its own specialization constant
 * values. 'input' bundles take values; `build` turns one into an 'executable' bundle, creating
 * its pipelines ahead of first use; a handler runs kernels from an executable bundle with
 * `useKernelBundle`.
 */
import {
  attachedPrograms,
  bindingOf,
  type DataType,
  type DeviceImage,
  type HostValue,
  type Kernel,
  type KernelInfo,
  type Program,
  type SpecializationId,
} from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { resolveKernel } from '../program/resolve.js';
import type { QueueCore } from '../queue/core.js';
import { checkRequiredLimits, checkSpecSizes } from '../queue/limits.js';
import { canRun } from '../spec-constants/policy.js';
import { nativeConstants, nativeKey, SpecValues } from '../spec-constants/values.js';
import { type CanonicalValue, thaw } from '../values/host-value.js';

export type BundleState = 'input' | 'executable';

interface BundleImage {
  readonly program: Program;
  readonly image: DeviceImage;
}

export class KernelBundle<S extends BundleState = BundleState> {
  readonly state: S;
  readonly #core: QueueCore;
  readonly #images: readonly BundleImage[];
  readonly #values: SpecValues;

  /** @internal Use getKernelBundle, build or join. */
  constructor(core: QueueCore, state: S, images: readonly BundleImage[], values: SpecValues) {
    this.#core = core;
    this.state = state;
    this.#images = images;
    this.#values = values;
  }

  get device(): GPUDevice {
    return this.#core.context.device;
  }

  /** @internal */
  get core(): QueueCore {
    return this.#core;
  }

  /** @internal */
  get images(): readonly BundleImage[] {
    return this.#images;
  }

  /** @internal The bundle's values (read by launches). */
  get values(): SpecValues {
    return this.#values;
  }

  hasKernel(kernel: Kernel): boolean {
    const { image } = resolveKernel('KernelBundle.hasKernel', kernel);
    return this.#images.some((entry) => entry.image === image);
  }

  /** Whether a kernel of this bundle uses the constant (false for one never used on device). */
  hasSpecializationConstant(id: SpecializationId): boolean {
    const binding = bindingOf(id);
    if (!binding) return false;
    return this.#images.some(
      ({ program, image }) =>
        program === binding.program && binding.symbolicId in image.specConstants,
    );
  }

  containsSpecializationConstants(): boolean {
    return this.#images.some(({ image }) => Object.keys(image.specConstants).length > 0);
  }

  /**
   * SYCL's `native_specialization_constant()`: the bundle has constants, and every kernel that
   * uses one runs them natively (pipeline overrides). False for a bundle without constants.
   */
  nativeSpecializationConstant(): boolean {
    if (!this.containsSpecializationConstants()) return false;
    return this.#images.every(({ program, image }) =>
      Object.entries(image.kernels).every(
        ([symbolicId, info]) =>
          info.specConstants.length === 0 ||
          variantOf(this.#core, { symbolicId, program, image, info }) === 'native',
      ),
    );
  }

  /** Input bundles only (an executable bundle's values are fixed: a type error, and errc.invalid). */
  setSpecializationConstant<T extends DataType>(
    this: KernelBundle<'input'>,
    id: SpecializationId<T>,
    value: HostValue<T>,
  ): void {
    const api = 'KernelBundle.setSpecializationConstant';
    if (this.state !== 'input') {
      throw new SyclError(
        errc.invalid,
        `${api}: the bundle is ${this.state}; only input bundles take values`,
      );
    }
    this.#values.set(api, id, value);
  }

  getSpecializationConstant<T extends DataType>(id: SpecializationId<T>): HostValue<T> {
    return thaw(this.#values.read('KernelBundle.getSpecializationConstant', id)) as HostValue<T>;
  }
}

function variantOf(core: QueueCore, resolved: Parameters<QueueCore['policyFor']>[0]) {
  return core.policyFor(resolved).choose(resolved.symbolicId, resolved.image, resolved.info);
}

export interface KernelBundleRequest<S extends BundleState> {
  readonly state: S;
  /** The bundle holds the images containing these kernels; all attached images when absent. */
  readonly kernels?: readonly Kernel[];
}

/** @internal Called by Queue.getKernelBundle. */
export function kernelBundle<S extends BundleState>(
  core: QueueCore,
  request: KernelBundleRequest<S>,
): KernelBundle<S> {
  const api = 'getKernelBundle';
  if (request.state !== 'input' && request.state !== 'executable') {
    throw new SyclError(
      errc.invalid,
      `${api}: state must be 'input' or 'executable', got ${String(request.state)}`,
    );
  }
  const images: BundleImage[] = [];
  const add = (program: Program, image: DeviceImage) => {
    if (!images.some((entry) => entry.image === image)) images.push({ program, image });
  };
  if (request.kernels) {
    for (const kernel of request.kernels) {
      const { program, image } = resolveKernel(api, kernel);
      add(program, image);
    }
  } else {
    for (const program of attachedPrograms())
      for (const image of program.images) add(program, image);
  }
  const bundle = new KernelBundle(core, request.state, images, new SpecValues());
  if (request.state === 'executable') void prebuild(bundle).catch(() => {});
  return bundle;
}

/**
 * Creates the pipelines of every kernel of the bundle with its current values, each checked
 * against the device's limits first (as a launch is), so that `build` names the kernel and the
 * limit rather than passing on WebGPU's validation error.
 */
async function prebuild(bundle: KernelBundle): Promise<unknown> {
  const { core } = bundle;
  const { limits } = core.context.device;
  const ready: Promise<unknown>[] = [];
  for (const { program, image } of bundle.images) {
    for (const [symbolicId, info] of Object.entries(image.kernels) as [string, KernelInfo][]) {
      const resolved = { symbolicId, program, image, info };
      const variant = variantOf(core, resolved);
      if (!canRun(image, info, variant)) continue;
      const native = variant === 'native';
      const checked = { api: 'build', name: symbolicId };
      checkRequiredLimits(limits, checked, info);
      if (native) checkSpecSizes(limits, checked, resolved, bundle.values);
      const key = native ? nativeKey(program, image, info, bundle.values) : '';
      const constants = () =>
        native ? nativeConstants(program, image, info, bundle.values).constants : {};
      ready.push(
        core.context.pipeline(symbolicId, image, info, variant, constants, key).entry.ready,
      );
    }
  }
  return await Promise.all(ready);
}

/** input → executable: a new bundle with the same images and values, its pipelines created. */
export async function build(bundle: KernelBundle<'input'>): Promise<KernelBundle<'executable'>> {
  if (bundle.state !== 'input') {
    throw new SyclError(
      errc.invalid,
      `build: the bundle is ${bundle.state}; build takes an input bundle`,
    );
  }
  const built = new KernelBundle(
    bundle.core,
    'executable',
    bundle.images,
    new SpecValues(valuesMap(bundle)),
  );
  await prebuild(built);
  return built;
}

/**
 * One bundle with the images of all; all must be in the same state and on the same device. A
 * constant set in several bundles takes the value of the first bundle (in argument order) that
 * set it.
 */
export function join<S extends BundleState>(bundles: readonly KernelBundle<S>[]): KernelBundle<S> {
  const first = bundles[0];
  if (!first) throw new SyclError(errc.invalid, 'join: no bundles given');
  const images: BundleImage[] = [];
  const values = new Map<SpecializationId, CanonicalValue>();
  for (const bundle of bundles) {
    if (bundle.state !== first.state) {
      throw new SyclError(
        errc.invalid,
        `join: bundles in states '${first.state}' and '${bundle.state}' cannot be joined`,
      );
    }
    if (bundle.device !== first.device) {
      throw new SyclError(errc.invalid, 'join: the bundles belong to different devices');
    }
    for (const entry of bundle.images)
      if (!images.some((e) => e.image === entry.image)) images.push(entry);
    for (const [id, value] of bundle.values.entries()) if (!values.has(id)) values.set(id, value);
  }
  return new KernelBundle(first.core, first.state, images, new SpecValues(values));
}

function valuesMap(bundle: KernelBundle) {
  return new Map(bundle.values.entries());
}
