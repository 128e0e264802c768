/**
 * Which lowering of group functions a device runs (see `CollectiveLowering`): WGSL's sub-group
 * built-ins need the device's `subgroups` feature and the `subgroup_id` WGSL language feature of
 * its implementation. A page tells it in `navigator.gpu`; in Node, Dawn (the `webgpu` package
 * syclts supports) has it.
 */
import type { CollectiveLowering } from '@syclts/dsl';

export function collectiveLowering(device: GPUDevice): CollectiveLowering {
  const features = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu
    ?.wgslLanguageFeatures;
  return device.features.has('subgroups') && (!features || features.has('subgroup_id'))
    ? 'subgroups'
    : 'workgroup';
}
