/**
 * Which variant a kernel launches in. 'native' specialises pipelines (fast kernels, a pipeline
 * per distinct value set; a launch waits for its pipeline); 'emulated' reads values from a
 * buffer (one pipeline, cheap changes); 'auto' is tiered: a launch runs native when the pipeline
 * of its value set is ready, and otherwise runs emulated at once while that pipeline compiles in
 * the background (a kernel with no emulated variant waits, as under 'native').
 */
import type { DeviceImage, KernelInfo } from '@syclts/dsl';
import type { Variant } from '../device/device-context.js';
import { errc, SyclError } from '../errors.js';
import type { Specializer } from '../queue/adaptive-hook.js';

export type SpecConstantPolicy = 'native' | 'emulated' | 'auto';

export function canRun(image: DeviceImage, info: KernelInfo, variant: Variant): boolean {
  return image.wgsl[variant] !== undefined && info.variants.includes(variant);
}

/** Per (queue, kernel): the policy, and the native pipelines being compiled in the background. */
export class KernelPolicy {
  /** Constants keys of this kernel's native pipelines being compiled in the background ('auto'). */
  readonly compiling = new Set<string>();
  /** The variant chosen for the kernel (its image and the policy never change). */
  #choice: Variant | null = null;

  constructor(
    readonly policy: SpecConstantPolicy,
    /** Whether the policy was given for this kernel (then an impossible 'emulated' is an error). */
    readonly explicit: boolean,
    /** Adaptive specialization's hook, on a queue created with it. */
    readonly specialize?: Specializer,
  ) {}

  /** Whether launches may run emulated while their native pipeline compiles. */
  get tiered(): boolean {
    return this.policy === 'auto';
  }

  canEmulate(image: DeviceImage, info: KernelInfo): boolean {
    return info.specConstants.length > 0 && canRun(image, info, 'emulated');
  }

  /** The variant the policy asks for ('auto' asks for native; see prepareLaunch). */
  choose(kernelName: string, image: DeviceImage, info: KernelInfo): Variant {
    this.#choice ??= this.#choose(kernelName, image, info);
    return this.#choice;
  }

  #choose(kernelName: string, image: DeviceImage, info: KernelInfo): Variant {
    const native = canRun(image, info, 'native');
    const emulated = canRun(image, info, 'emulated');
    if (!native && !emulated) {
      throw new SyclError(
        errc.kernelNotSupported,
        `kernel ${kernelName}: its image has no variant it can run in`,
      );
    }
    if (info.specConstants.length === 0) return native ? 'native' : 'emulated';
    if (this.policy === 'emulated' && emulated) return 'emulated';
    if (this.policy === 'emulated' && this.explicit) {
      throw new SyclError(
        errc.featureNotSupported,
        `kernel ${kernelName}: it cannot run emulated (a specialization constant sizes its workgroup or workgroup memory)`,
      );
    }
    return native ? 'native' : 'emulated';
  }
}
