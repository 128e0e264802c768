/** The subgroup-matrix configurations (products the device runs natively) of a device's adapter. */

/** One entry of the adapter's `subgroupMatrixConfigs` (Dawn): a product it runs natively. */
export interface SubgroupMatrixConfig {
  readonly componentType: string;
  readonly resultComponentType: string;
  readonly M: number;
  readonly N: number;
  readonly K: number;
}

/**
 * The configurations of the adapter each device of `Queue.create` came from. Dawn in Node lists
 * them on `adapter.info` and leaves `device.adapterInfo`'s list empty, so they are copied from the
 * adapter when the device is requested.
 */
const adapterConfigs = new WeakMap<GPUDevice, readonly SubgroupMatrixConfig[]>();

export function rememberSubgroupMatrixConfigs(device: GPUDevice, adapter: GPUAdapter): void {
  const listed = (adapter.info as { subgroupMatrixConfigs?: readonly SubgroupMatrixConfig[] })
    .subgroupMatrixConfigs;
  if (!listed?.length) return;
  // Dawn's entries are getters on a native prototype: copied into plain records.
  adapterConfigs.set(
    device,
    listed.map(({ componentType, resultComponentType, M, N, K }) => ({
      componentType,
      resultComponentType,
      M,
      N,
      K,
    })),
  );
}

/** The device's configurations: its adapter's where Queue.create requested it. */
export function subgroupMatrixConfigs(device: GPUDevice): readonly SubgroupMatrixConfig[] {
  return (
    adapterConfigs.get(device) ??
    (device.adapterInfo as { subgroupMatrixConfigs?: readonly SubgroupMatrixConfig[] })
      .subgroupMatrixConfigs ??
    []
  );
}
