/**
 * The combining operation of the scans and reductions, on 32-bit values carried as u32 bits: the
 * element type and the operator are a specialization constant, so one kernel serves u32, i32 and
 * f32 with `plus`, `minimum` and `maximum`, and the native variant of each is the plain
 * operation (the other branches fold away when the pipeline is created).
 */
import {
  bitcastF32,
  bitcastI32,
  bitcastU32,
  deviceFunction,
  kernelHandler,
  specializationId,
  u32,
} from '@syclts/dsl';

/** What `combine` does: one of the codes of `operationCode` (operation.ts). */
export const operation = specializationId(u32, 0);

/** `a` combined with `b` (`a` first: the element that comes earlier). */
export const combine = deviceFunction(
  { args: [kernelHandler, u32, u32], returns: u32 },
  (kh, a, b) => {
    const op = kh.getSpecializationConstant(operation);
    if (op === 1) {
      return bitcastU32(bitcastF32(a) + bitcastF32(b));
    }
    if (op === 2) {
      return Math.min(a, b);
    }
    if (op === 3) {
      return bitcastU32(Math.min(bitcastI32(a), bitcastI32(b)));
    }
    if (op === 4) {
      return bitcastU32(Math.min(bitcastF32(a), bitcastF32(b)));
    }
    if (op === 5) {
      return Math.max(a, b);
    }
    if (op === 6) {
      return bitcastU32(Math.max(bitcastI32(a), bitcastI32(b)));
    }
    if (op === 7) {
      return bitcastU32(Math.max(bitcastF32(a), bitcastF32(b)));
    }
    return a + b;
  },
);
