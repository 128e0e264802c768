/**
 * Which lowering of group functions a device runs (see `CollectiveLowering`). WGSL's sub-group
 * built-ins need the device's `subgroups` feature and the `subgroup_id` WGSL language feature of
 * the implementation it comes from, which a GPUDevice does not tell: Queue.create records it,
 * and a device of the caller's is judged by the page's `navigator.gpu`.
 */
import type { CollectiveLowering, DeviceImage, LineMap } from '@syclts/dsl';

const languageFeatures = new WeakMap<GPUDevice, ReadonlySet<string>>();

export function recordLanguageFeatures(device: GPUDevice, features: ReadonlySet<string>): void {
  languageFeatures.set(device, features);
}

export function collectiveLowering(device: GPUDevice): CollectiveLowering {
  const features =
    languageFeatures.get(device) ??
    (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu?.wgslLanguageFeatures;
  return device.features.has('subgroups') && features?.has('subgroup_id') === true
    ? 'subgroups'
    : 'workgroup';
}

/** An image's WGSL variants and their line maps in `lowering`. */
export function loweredSources(
  image: DeviceImage,
  lowering: CollectiveLowering,
): {
  readonly wgsl: DeviceImage['wgsl'];
  readonly lineMaps?: { readonly native?: LineMap; readonly emulated?: LineMap };
} {
  return lowering === 'workgroup' && image.workgroupLowering ? image.workgroupLowering : image;
}
