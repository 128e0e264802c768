/**
 * Which lowering of group functions a device runs for an image (see `CollectiveLowering`): WGSL's
 * sub-group built-ins need the device's `subgroups` feature and the `subgroup_id` WGSL language
 * feature of its implementation (a page tells it in `navigator.gpu`; in Node, Dawn, the `webgpu`
 * package syclts supports, has it), and a kernel that requires a sub-group size needs
 * `subgroup-size-control` and a size between the adapter's smallest and largest.
 */
import type { CollectiveLowering, DeviceImage } from '@syclts/dsl';

export function collectiveLowering(device: GPUDevice, image: DeviceImage): CollectiveLowering {
  const features = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu
    ?.wgslLanguageFeatures;
  if (!device.features.has('subgroups') || features?.has('subgroup_id') === false) {
    return 'workgroup';
  }
  const { subgroupMinSize = 0, subgroupMaxSize = 0 } = device.adapterInfo;
  const control = device.features.has('subgroup-size-control');
  const fits = Object.values(image.kernels).every(
    ({ subGroupSize: n }) =>
      n === undefined || (control && n >= subgroupMinSize && n <= subgroupMaxSize),
  );
  return fits ? 'subgroups' : 'workgroup';
}
