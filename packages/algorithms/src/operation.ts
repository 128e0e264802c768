/** The host's side of operation.sycl.ts: which code an element type and operator get. */
import type { ScalarType } from '@syclts/dsl';
import { errc, SyclError } from '@syclts/runtime';

/** The element types the algorithms take: 32-bit scalars. */
export type Element = ScalarType<'u32'> | ScalarType<'i32'> | ScalarType<'f32'>;

/** SYCL's function objects the scans and reductions take. */
export type Operator = 'plus' | 'minimum' | 'maximum';

/** An operation as operation.sycl.ts's `combine` takes it: its code and identity (as bits). */
export interface Operation {
  readonly code: number;
  readonly identity: number;
}

const OPERATIONS: Readonly<Record<Operator, Readonly<Record<Element['scalar'], Operation>>>> = {
  plus: {
    u32: { code: 0, identity: 0 },
    i32: { code: 0, identity: 0 },
    f32: { code: 1, identity: 0 },
  },
  minimum: {
    u32: { code: 2, identity: 0xffffffff },
    i32: { code: 3, identity: 0x7fffffff },
    // +Infinity
    f32: { code: 4, identity: 0x7f800000 },
  },
  maximum: {
    u32: { code: 5, identity: 0 },
    i32: { code: 6, identity: 0x80000000 },
    // -Infinity
    f32: { code: 7, identity: 0xff800000 },
  },
};

/** `op` on `element`; `api` names the caller in errors. */
export function operationOf(api: string, element: Element, op: Operator): Operation {
  const found = Object.hasOwn(OPERATIONS, op) ? OPERATIONS[op][element.scalar] : undefined;
  if (!found) {
    throw new SyclError(
      errc.invalid,
      `${api}: op must be 'plus', 'minimum' or 'maximum', got ${String(op)}`,
    );
  }
  return found;
}
