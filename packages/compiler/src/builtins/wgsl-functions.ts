/**
 * WGSL's predeclared functions for compute shaders (WGSL §17, no derivatives): the ones the
 * built-in tables call, and the others, which syclts does not expose as built-ins but
 * which raw-WGSL bodies may call and no generated name may take.
 */
import { TEXTURE_TABLE } from '@syclts/dsl';
import { WGSL_BUILTIN_NAMES } from './overloads.js';

const NOT_IN_TABLE = `arrayLength bitcast dot4U8Packed dot4I8Packed extractBits faceForward frexp
insertBits ldexp modf quantizeToF16 reflect refract atomicLoad atomicStore atomicAdd atomicSub
atomicMax atomicMin atomicAnd atomicOr atomicXor atomicExchange atomicCompareExchangeWeak
storageBarrier workgroupBarrier workgroupUniformLoad textureBarrier`;

/** Texture functions compute shaders may not call, or that take depth or multisampled textures. */
const TEXTURES_NOT_IN_TABLE = `textureSample textureSampleBias textureSampleCompare
textureSampleCompareLevel textureGatherCompare textureNumSamples`;

export const WGSL_FUNCTIONS: ReadonlySet<string> = new Set([
  ...WGSL_BUILTIN_NAMES,
  ...Object.keys(TEXTURE_TABLE),
  ...TEXTURES_NOT_IN_TABLE.split(/\s+/),
  ...NOT_IN_TABLE.split(/\s+/),
]);
