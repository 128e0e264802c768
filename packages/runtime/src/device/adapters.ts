/**
 * The adapter each device of `Queue.create` came from: Dawn in Node lists some of an adapter's
 * facts (its subgroup-matrix configurations) on `adapter.info` only, not on the device's
 * `adapterInfo`.
 */
const adapters = new WeakMap<GPUDevice, GPUAdapter>();

export function rememberAdapter(device: GPUDevice, adapter: GPUAdapter): void {
  adapters.set(device, adapter);
}

export function adapterOf(device: GPUDevice): GPUAdapter | undefined {
  return adapters.get(device);
}
