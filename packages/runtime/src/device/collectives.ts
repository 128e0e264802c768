/**
 * Which lowering of group functions and joint matrices a device runs for an image (see
 * `CollectiveLowering`): WGSL's sub-group built-ins need the device's `subgroups` feature and the
 * `subgroup_id` WGSL language feature of its implementation (a page tells it in `navigator.gpu`;
 * in Node, Dawn, the `webgpu` package syclts supports, has it), and a kernel that requires a
 * sub-group size needs `subgroup-size-control` and a size between the adapter's smallest and
 * largest. An image with joint matrices runs its `subgroups` lowering (the subgroup-matrix
 * built-ins) only where the device also has `chromium-experimental-subgroup-matrix`, and then
 * every shape it uses must be one of the adapter's configurations.
 */
import type { CollectiveLowering, DeviceImage, JointMatrixInfo, KernelInfo } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { adapterOf } from './adapters.js';

export const SUBGROUP_MATRIX_FEATURE = 'chromium-experimental-subgroup-matrix';

/** One entry of the adapter's `subgroupMatrixConfigs` (Dawn): a product it runs natively. */
export interface SubgroupMatrixConfig {
  readonly componentType: string;
  readonly resultComponentType: string;
  readonly M: number;
  readonly N: number;
  readonly K: number;
}

type ListsConfigs = { readonly subgroupMatrixConfigs?: readonly SubgroupMatrixConfig[] };

/**
 * The device's configurations: its adapter's where `Queue.create` requested it (Dawn in Node
 * leaves the device's own list empty), else the device's.
 */
function subgroupMatrixConfigs(device: GPUDevice): readonly SubgroupMatrixConfig[] {
  const adapter = adapterOf(device)?.info as ListsConfigs | undefined;
  if (adapter?.subgroupMatrixConfigs?.length) return adapter.subgroupMatrixConfigs;
  return (device.adapterInfo as ListsConfigs).subgroupMatrixConfigs ?? [];
}

export function collectiveLowering(device: GPUDevice, image: DeviceImage): CollectiveLowering {
  const subgroups = subgroupsFit(device, image);
  const matrices = Object.entries(image.kernels).flatMap(([name, k]) =>
    k.jointMatrices ? [[name, k.jointMatrices] as const] : [],
  );
  if (matrices.length === 0) return subgroups ? 'subgroups' : 'workgroup';
  for (const [name, info] of matrices) requireF16(device, name, info);
  if (!subgroups || !device.features.has(SUBGROUP_MATRIX_FEATURE)) return 'workgroup';
  const configs = subgroupMatrixConfigs(device);
  for (const [name, info] of matrices) {
    requireShapes(name, info, configs, adapterOf(device) !== undefined);
  }
  for (const [name] of matrices) requireFullSubgroups(device, name, image.kernels[name]!);
  return 'subgroups';
}

/**
 * The subgroup-matrix built-ins need the work-group's x size (SYCL's last dimension) to be a
 * multiple of the device's largest sub-group; a size a specialization constant gives is checked
 * by the pipeline's creation.
 */
function requireFullSubgroups(device: GPUDevice, kernel: string, info: KernelInfo): void {
  const x = info.workgroupSize[0];
  const largest = device.adapterInfo.subgroupMaxSize ?? 0;
  if (x.kind !== 'literal' || largest === 0 || x.value % largest === 0) return;
  throw new SyclError(
    errc.kernelNotSupported,
    `kernel ${kernel} uses joint matrices in work-groups whose last dimension is ${x.value}: the device's subgroup matrices need a multiple of its largest sub-group, ${largest}`,
  );
}

function subgroupsFit(device: GPUDevice, image: DeviceImage): boolean {
  const features = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu
    ?.wgslLanguageFeatures;
  if (!device.features.has('subgroups') || features?.has('subgroup_id') === false) return false;
  const { subgroupMinSize = 0, subgroupMaxSize = 0 } = device.adapterInfo;
  const control = device.features.has('subgroup-size-control');
  return Object.values(image.kernels).every(
    ({ subGroupSize: n }) =>
      n === undefined || (control && n >= subgroupMinSize && n <= subgroupMaxSize),
  );
}

/** f16 matrices need `shader-f16` in both lowerings. */
function requireF16(device: GPUDevice, kernel: string, info: JointMatrixInfo): void {
  if (device.features.has('shader-f16')) return;
  const m = info.matrices.find((m) => m.element === 'f16');
  if (!m) return;
  throw new SyclError(
    errc.featureNotSupported,
    `kernel ${kernel} uses an f16 joint matrix (${m.use}, ${m.rows} × ${m.columns}) and the device has no 'shader-f16'`,
  );
}

/** Each matrix and product of the kernel among the device's configurations. */
function requireShapes(
  kernel: string,
  info: JointMatrixInfo,
  configs: readonly SubgroupMatrixConfig[],
  /** Whether `Queue.create` requested the device (its adapter's list was read). */
  fromAdapter: boolean,
): void {
  const offered = () =>
    configs.length === 0
      ? fromAdapter
        ? 'none'
        : "none listed: Dawn in Node lists them on the adapter, not on a device's adapterInfo, so let Queue.create request the device (with dawnToggles for Dawn's toggles)"
      : configs
          .map((c) => `${c.componentType} -> ${c.resultComponentType} ${c.M}x${c.N}x${c.K}`)
          .join(', ');
  for (const p of info.products) {
    const fits = configs.some(
      (c) =>
        c.componentType === p.element &&
        c.resultComponentType === p.result &&
        c.M === p.m &&
        c.N === p.n &&
        c.K === p.k,
    );
    if (!fits) {
      throw new SyclError(
        errc.kernelNotSupported,
        `kernel ${kernel} multiplies ${p.element} -> ${p.result} joint matrices of M x N x K = ${p.m}x${p.n}x${p.k}, which the device does not offer (its subgroup-matrix configurations, component -> result MxNxK: ${offered()})`,
      );
    }
  }
  for (const m of info.matrices) {
    const fits = configs.some((c) =>
      m.use === 'accumulator'
        ? c.resultComponentType === m.element && c.M === m.rows && c.N === m.columns
        : c.componentType === m.element &&
          (m.use === 'a'
            ? c.M === m.rows && c.K === m.columns
            : c.K === m.rows && c.N === m.columns),
    );
    if (!fits) {
      throw new SyclError(
        errc.kernelNotSupported,
        `kernel ${kernel} declares a ${m.element} joint matrix of use '${m.use}', ${m.rows} x ${m.columns}, which no subgroup-matrix configuration of the device holds (component -> result MxNxK: ${offered()})`,
      );
    }
  }
}
