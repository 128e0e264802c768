/**
 * Which variant a kernel launches in. 'native' specialises pipelines (fast kernels, a pipeline
 * per distinct value set); 'emulated' reads values from a buffer (one pipeline, cheap changes);
 * 'auto' starts native and moves a kernel to emulated for good once AUTO_MISSES of its last
 * AUTO_WINDOW native launches each had to create a new pipeline, if the kernel has an emulated
 * variant.
 */
import type { DeviceImage, KernelInfo } from '@syclts/dsl';
import type { Variant } from '../device/device-context.js';
import { errc, SyclError } from '../errors.js';

export type SpecConstantPolicy = 'native' | 'emulated' | 'auto';

export const AUTO_WINDOW = 16;
export const AUTO_MISSES = 4;

export function canRun(image: DeviceImage, info: KernelInfo, variant: Variant): boolean {
  return image.wgsl[variant] !== undefined && info.variants.includes(variant);
}

/** Per (queue, kernel): the policy and, under 'auto', the recent launches' pipeline misses. */
export class KernelPolicy {
  readonly #recentMisses: boolean[] = [];
  #switched = false;

  constructor(
    readonly policy: SpecConstantPolicy,
    /** Whether the policy was given for this kernel (then an impossible 'emulated' is an error). */
    readonly explicit: boolean,
  ) {}

  /** Whether 'auto' has moved the kernel to its emulated variant. */
  get switched(): boolean {
    return this.#switched;
  }

  choose(kernelName: string, image: DeviceImage, info: KernelInfo): Variant {
    const native = canRun(image, info, 'native');
    const emulated = canRun(image, info, 'emulated');
    if (!native && !emulated) {
      throw new SyclError(
        errc.kernelNotSupported,
        `kernel ${kernelName}: its image has no variant it can run in`,
      );
    }
    if (info.specConstants.length === 0) return native ? 'native' : 'emulated';
    const wantEmulated = this.policy === 'emulated' || (this.policy === 'auto' && this.#switched);
    if (wantEmulated && emulated) return 'emulated';
    if (wantEmulated && this.explicit && this.policy === 'emulated') {
      throw new SyclError(
        errc.featureNotSupported,
        `kernel ${kernelName}: it cannot run emulated (a specialization constant sizes its workgroup or workgroup memory)`,
      );
    }
    return native ? 'native' : 'emulated';
  }

  /** Records a native launch (whether it created a pipeline) and applies the 'auto' rule. */
  recordNative(image: DeviceImage, info: KernelInfo, createdPipeline: boolean): void {
    if (this.policy !== 'auto' || this.#switched) return;
    this.#recentMisses.push(createdPipeline);
    if (this.#recentMisses.length > AUTO_WINDOW) this.#recentMisses.shift();
    const misses = this.#recentMisses.filter(Boolean).length;
    if (misses >= AUTO_MISSES && canRun(image, info, 'emulated')) this.#switched = true;
  }
}
