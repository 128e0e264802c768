/**
 * WGSL's predeclared functions for compute shaders (WGSL §17, no derivatives): the ones the
 * built-in tables call, and the others, which syclts does not expose as built-ins but
 * which raw-WGSL bodies may call and no generated name may take.
 */
import { TEXTURE_TABLE } from '@syclts/dsl';
import { WGSL_BUILTIN_NAMES } from './overloads.js';

const NOT_IN_TABLE = `arrayLength bitcast dot4U8Packed dot4I8Packed extractBits faceForward frexp
insertBits ldexp modf quantizeToF16 reflect refract pack4x8snorm pack4x8unorm pack4xI8 pack4xU8
pack4xI8Clamp pack4xU8Clamp pack2x16snorm pack2x16unorm pack2x16float unpack4x8snorm
unpack4x8unorm unpack4xI8 unpack4xU8 unpack2x16snorm unpack2x16unorm unpack2x16float atomicLoad
atomicStore atomicAdd atomicSub atomicMax atomicMin atomicAnd atomicOr atomicXor atomicExchange
atomicCompareExchangeWeak storageBarrier workgroupBarrier workgroupUniformLoad textureBarrier`;

/** Texture functions compute shaders may not call, or that take depth or multisampled textures. */
const TEXTURES_NOT_IN_TABLE = `textureSample textureSampleBias textureSampleCompare
textureSampleCompareLevel textureGatherCompare textureNumSamples`;

export const WGSL_FUNCTIONS: ReadonlySet<string> = new Set([
  ...WGSL_BUILTIN_NAMES,
  ...Object.keys(TEXTURE_TABLE),
  ...TEXTURES_NOT_IN_TABLE.split(/\s+/),
  ...NOT_IN_TABLE.split(/\s+/),
]);
