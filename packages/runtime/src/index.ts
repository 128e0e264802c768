export { requestAdapter } from '#platform';
export {
  type BundleState,
  build,
  join,
  KernelBundle,
  type KernelBundleRequest,
} from './bundles/kernel-bundle.js';
export { DEFAULT_PIPELINE_CACHE_SIZE, MAX_COMPILES_IN_FLIGHT } from './device/device-context.js';
export type { RuntimeStats } from './device/stats.js';
export { type Errc, errc, SyclError } from './errors.js';
export {
  type BufferContents,
  type BufferData,
  type BufferOptions,
  DeviceBuffer,
  type Plain,
} from './memory/buffer.js';
export type {
  ElementOf,
  HostBytes,
  HostElements,
  MutableHostElements,
  ReadableGlobal,
  WritableGlobal,
} from './memory/device-global-copy.js';
export type { AdapterKind, AdapterRequest, ChosenAdapter } from './platform/adapter-request.js';
export { type EventStatus, SyclEvent } from './queue/event.js';
export { Handler } from './queue/handler.js';
export type { BufferModesFor, KernelArgs } from './queue/kernel-args.js';
export { getKernelBundle, Queue, type QueueOptions } from './queue/queue.js';
export { type NdRange, ndRange, type Range } from './queue/range.js';
export type { SpecConstantPolicy } from './spec-constants/policy.js';
