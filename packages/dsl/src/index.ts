export * from './abi/index.js';
export * from './builtins/group.js';
export type { DslBuiltins } from './builtins/index.js';
export * from './builtins/index.js';
export * from './builtins/matrix.js';
export {
  BUILTIN_TABLE,
  type BuiltinAccuracy,
  type BuiltinEntry,
  type BuiltinName,
  MATH_FORMS,
} from './builtins/table.js';
export * from './builtins/textures.js';
export { unroll } from './builtins/unroll.js';
export {
  attach,
  attachedByAnotherCopy,
  attachedPrograms,
  attachGeneration,
  type Binding,
  bindingOf,
  declarationOf,
  latestDeclaration,
  originOf,
  relink,
} from './declarations/attach.js';
export {
  type DeviceGlobal,
  type DeviceGlobalProperties,
  deviceGlobal,
  type HostAccess,
  type InitMode,
  type ResolvedDeviceGlobalProperties,
} from './declarations/device-global.js';
export {
  type AccessMode,
  type AccessorType,
  accessor,
  type BasicKernelSpec,
  type Dimensions,
  type Kernel,
  type KernelArgType,
  type KernelArgTypes,
  kernel,
  type NdKernelSpec,
  type ReducedValue,
  type ReductionCombiner,
  type ReductionType,
  reduction,
  type SizeSpec,
  type SpanType,
  span,
  type WorkgroupArrays,
  type WorkgroupArrayType,
  workgroupArray,
} from './declarations/kernel.js';
export { type SpecializationId, specializationId } from './declarations/specialization-id.js';
export {
  type ExternalTextureType,
  externalTexture,
  READ_WRITE_FORMATS,
  type SamplerType,
  type SampleScalar,
  STORAGE_FORMATS,
  type StorageDimension,
  type StorageFormat,
  type StorageTextureType,
  sampler,
  storageTexture1d,
  storageTexture2d,
  storageTexture2dArray,
  storageTexture3d,
  type TextureArgType,
  type TextureDimension,
  type TextureType,
  texelScalar,
  texture1d,
  texture2d,
  texture2dArray,
  texture3d,
  textureCube,
  textureCubeArray,
} from './declarations/texture.js';
export type * from './device/kernel-scope.js';
export { type Errc, errc, SyclError } from './errors.js';
export * from './image/limits.js';
export * from './image/log.js';
export * from './image/program.js';
export {
  array,
  atomic,
  bool,
  f16,
  f32,
  i32,
  mat,
  type ScalarConversion,
  type StructConstructor,
  struct,
  u32,
  vec,
} from './types/constructors.js';
export type * from './types/data-type.js';
export {
  completeValue,
  type InitialValue,
  writeInitialValue,
  zeroValue,
} from './types/initial-value.js';
export { sameType } from './types/same-type.js';
export { typeName } from './types/type-name.js';
