/** The shared test device (the software adapter in CI) and `runKernel` on it. */
import type { DeviceImage, SymbolicId } from '@syclts/dsl';
import { requestAdapter } from '@syclts/runtime';
import { afterAll } from 'vitest';
import { type Launch, type LaunchResult, launchKernel } from './launch.js';

export { at, type Launch, type LaunchResult, write } from './launch.js';

let shared: Promise<{ device: GPUDevice; f16: boolean }> | null = null;

// Dawn may crash at process exit while a device is alive: release it when the file is done.
afterAll(async () => {
  if (shared) (await shared).device.destroy();
  shared = null;
});

/** One device for the whole test file, with shader-f16 and subgroups when the adapter has them. */
export function gpu(): Promise<{ device: GPUDevice; f16: boolean }> {
  shared ??= (async () => {
    const { adapter } = await requestAdapter();
    const f16 = adapter.features.has('shader-f16');
    const features = (['shader-f16', 'subgroups', 'subgroup-size-control'] as const).filter((f) =>
      adapter.features.has(f),
    );
    const device = await adapter.requestDevice({ requiredFeatures: features });
    return { device, f16 };
  })();
  return shared;
}

export async function runKernel(
  image: DeviceImage,
  kernelId: SymbolicId,
  launch: Launch,
): Promise<LaunchResult> {
  return launchKernel((await gpu()).device, image, kernelId, launch);
}
