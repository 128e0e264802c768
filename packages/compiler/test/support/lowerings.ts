/**
 * Which lowering of an image's group functions a device runs, as the runtime chooses
 * (runtime's device/collectives.ts), for the tests that check WGSL on the adapter directly.
 */
import type { DeviceImage } from '@syclts/dsl';

/** Whether `device` runs the sub-group lowering of kernels requiring these sub-group sizes. */
export function runsSubgroups(device: GPUDevice, sizes: readonly number[]): boolean {
  const { subgroupMinSize = 0, subgroupMaxSize = 0 } = device.adapterInfo;
  const control = device.features.has('subgroup-size-control');
  return (
    device.features.has('subgroups') &&
    sizes.every((n) => control && n >= subgroupMinSize && n <= subgroupMaxSize)
  );
}

/** The sub-group sizes an image's kernels require. */
export function requiredSizes(image: DeviceImage): number[] {
  return Object.values(image.kernels).flatMap((k) => k.subGroupSize ?? []);
}

/** An image's WGSL texts the device can run: the sub-group lowering where it can, and the workgroup one. */
export function runnableTexts(
  device: GPUDevice,
  image: DeviceImage,
): { readonly label: string; readonly wgsl: DeviceImage['wgsl'] }[] {
  const fallback = image.workgroupLowering;
  const subgroups = !fallback || runsSubgroups(device, requiredSizes(image));
  return [
    ...(subgroups ? [{ label: '', wgsl: image.wgsl }] : []),
    ...(fallback ? [{ label: ', workgroup lowering', wgsl: fallback.wgsl }] : []),
  ];
}
