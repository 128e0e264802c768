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
  type ElementArray,
  type Plain,
} from './memory/buffer.js';
export type {
  ElementOf,
  ExactTypedArray,
  HostBytes,
  HostElements,
  MutableHostElements,
  ReadableGlobal,
  WritableGlobal,
} from './memory/device-global-copy.js';
export { reinterpret } from './memory/reinterpret.js';
export type {
  DeviceTexture,
  ExternalImage,
  TexelArray,
  TextureDescriptor,
  TextureFormat,
  TextureRegion,
} from './memory/texture.js';
export type { AdapterKind, AdapterRequest, ChosenAdapter } from './platform/adapter-request.js';
export type { DawnToggles } from './platform/device-features.js';
export { isSupported } from './platform/is-supported.js';
export type { AdaptiveProperty } from './queue/adaptive-hook.js';
export { type EventStatus, SyclEvent } from './queue/event.js';
export { Handler } from './queue/handler.js';
export type {
  BufferModesFor,
  ExternalTextureSource,
  GlobalTargetType,
  KernelArgs,
  ReductionTarget,
  TextureLike,
} from './queue/kernel-args.js';
export {
  getKernelBundle,
  Queue,
  type QueueOptions,
  type ScalarArray,
  type TypedArrayArgument,
  type TypedArrayScalar,
} from './queue/queue.js';
export { type LaunchRange, type NdRange, ndRange, type Range } from './queue/range.js';
export type { ProfilingInfo, ProfilingProperty } from './queue/timestamps.js';
export type { SpecConstantPolicy } from './spec-constants/policy.js';

/**
 * The WebGPU interfaces the runtime's declarations name, declared empty so that they merge with
 * whichever full declarations the app has (lib.dom from TypeScript 6 on, or `@webgpu/types`)
 * and stay opaque where it has none. The runtime does not reference `@webgpu/types` itself:
 * beside lib.dom's copy that would declare WebGPU twice.
 */
declare global {
  // biome-ignore-start lint/suspicious/noEmptyInterface: merged with the app's WebGPU types
  interface GPUAdapter {}
  interface GPUBindGroup {}
  interface GPUBindGroupLayout {}
  interface GPUBindGroupLayoutEntry {}
  interface GPUBuffer {}
  interface GPUCompilationMessage {}
  interface GPUComputePipeline {}
  interface GPUDevice {}
  interface GPUExternalTexture {}
  interface GPUPipelineLayout {}
  interface GPUSampler {}
  interface GPUSamplerDescriptor {}
  interface GPUShaderModule {}
  interface GPUTexture {}
  interface GPUTextureView {}
  // The images textures are made from, for apps without the DOM's types (in Node).
  interface HTMLCanvasElement {}
  interface HTMLImageElement {}
  interface HTMLVideoElement {}
  interface ImageBitmap {}
  interface ImageData {}
  interface OffscreenCanvas {}
  interface VideoFrame {}
  // biome-ignore-end lint/suspicious/noEmptyInterface: merged with the app's WebGPU types

  /** `Queue` is disposable (`using`); declared as @types/node does, for libs before ESNext. */
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}
