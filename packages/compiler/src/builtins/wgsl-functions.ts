/**
 * WGSL's predeclared functions for compute shaders (WGSL §17, no textures or derivatives): the
 * ones the built-in table calls, and the others, which syclts does not expose as built-ins but
 * which raw-WGSL bodies may call and no generated name may take.
 */
import { WGSL_BUILTIN_NAMES } from './overloads.js';

const NOT_IN_TABLE = `arrayLength bitcast dot4U8Packed dot4I8Packed extractBits faceForward frexp
insertBits ldexp modf quantizeToF16 reflect refract atomicLoad atomicStore atomicAdd atomicSub
atomicMax atomicMin atomicAnd atomicOr atomicXor atomicExchange atomicCompareExchangeWeak
storageBarrier workgroupBarrier workgroupUniformLoad textureBarrier`;

export const WGSL_FUNCTIONS: ReadonlySet<string> = new Set([
  ...WGSL_BUILTIN_NAMES,
  ...NOT_IN_TABLE.split(/\s+/),
]);
