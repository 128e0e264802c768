/**
 * Checks a folded initial value (a specialization constant's default, a device global's initial
 * contents) against its declared type and turns it into JSON. Trailing array elements and
 * struct fields left out are zero, as in the DSL's `completeValue`: a specialization constant's
 * default is completed (it is small, and read whole); a device global's initial value is kept as
 * given, so that a global of millions of elements given a few values costs a few values.
 */
import {
  type DataType,
  fitsScalar,
  I32_MAX,
  I32_MIN,
  type JsonValue,
  type ScalarName,
  U32_MAX,
  zeroValue,
} from '@syclts/dsl';
import type { Misfit, ValueMisfit } from '../../diagnostics/frontend-messages.js';
import type { ConstValue } from '../resolver/constants.js';

/** The value as JSON, or what does not fit (the messages word it). */
export type Checked =
  | { readonly ok: true; readonly json: JsonValue }
  | ({ readonly ok: false } & ValueMisfit);

const bad = (value: ConstValue, type: DataType, misfit: Misfit): Checked => ({
  ok: false,
  value,
  type,
  misfit,
});

/** How a value is checked. */
export interface CheckOptions {
  /** Fill what is left out with zeros (default true). */
  readonly complete?: boolean;
  /**
   * A reduction's identity, whose f32 values may be ±Infinity (as the JSON strings `'Infinity'`
   * and `'-Infinity'`: the link step writes them as bits, which WGSL allows where it refuses an
   * infinite constant). Default false.
   */
  readonly infinite?: boolean;
}

export function checkDefault(
  value: ConstValue,
  type: DataType,
  options: CheckOptions = {},
): Checked {
  return check(value, type, {
    complete: options.complete ?? true,
    infinite: options.infinite ?? false,
  });
}

function check(value: ConstValue, type: DataType, how: Required<CheckOptions>): Checked {
  switch (type.kind) {
    case 'scalar':
      return checkScalar(value, type.scalar, type, how.infinite);
    case 'atomic':
      // A device global's initial value (specialization constants cannot be atomic).
      return checkScalar(value, type.scalar, type, false);
    case 'vector':
      return checkList(
        value,
        type,
        type.size,
        () => ({ kind: 'scalar', scalar: type.component }),
        how,
      );
    case 'matrix':
      return checkList(
        value,
        type,
        type.columns * type.rows,
        () => ({ kind: 'scalar', scalar: 'f32' }),
        how,
        true,
      );
    case 'array':
      return checkList(value, type, type.length, () => type.element, how, false, true);
    case 'struct': {
      if (value.kind !== 'object') return bad(value, type, { kind: 'object' });
      const out: { [key: string]: JsonValue } = {};
      for (const f of type.fields) {
        const v = value.fields.get(f.name);
        if (!v) {
          if (how.complete) out[f.name] = zeroValue(f.type) as JsonValue;
          continue;
        }
        const c = check(v, f.type, how);
        if (!c.ok) return c;
        out[f.name] = c.json;
      }
      for (const k of value.fields.keys()) {
        if (!type.fields.some((f) => f.name === k))
          return bad(value, type, { kind: 'field', name: k });
      }
      return { ok: true, json: out };
    }
  }
}

function checkList(
  value: ConstValue,
  type: DataType,
  length: number,
  element: (i: number) => DataType,
  how: Required<CheckOptions>,
  matrix = false,
  partial = false,
): Checked {
  if (value.kind !== 'array') return bad(value, type, { kind: 'shape', matrix, length });
  const count = value.items.length;
  if (partial ? count > length : count !== length) {
    return bad(value, type, { kind: 'count', length, found: count, atMost: partial });
  }
  const out: JsonValue[] = [];
  for (const [i, item] of value.items.entries()) {
    const c = check(item, element(i), how);
    if (!c.ok) return c;
    out.push(c.json);
  }
  if (how.complete)
    for (let i = count; i < length; i++) out.push(zeroValue(element(i)) as JsonValue);
  return { ok: true, json: out };
}

function checkScalar(
  value: ConstValue,
  scalar: ScalarName,
  type: DataType,
  infinite: boolean,
): Checked {
  if (scalar === 'bool') {
    return value.kind === 'bool'
      ? { ok: true, json: value.value }
      : bad(value, type, { kind: 'bool' });
  }
  if (value.kind !== 'number') return bad(value, type, { kind: 'number' });
  const v = value.value;
  if (infinite && scalar === 'f32' && Math.abs(v) === Infinity) {
    return { ok: true, json: v > 0 ? 'Infinity' : '-Infinity' };
  }
  if ((scalar === 'i32' || scalar === 'u32') && !Number.isInteger(v)) {
    return bad(value, type, { kind: 'integer' });
  }
  // The ABI's rule, as the runtime checks values: a float that rounds to a finite one fits.
  if (!fitsScalar(scalar, v)) {
    const bounds: readonly [number, number] | null =
      scalar === 'i32' ? [I32_MIN, I32_MAX] : scalar === 'u32' ? [0, U32_MAX] : null;
    return bad(value, type, { kind: 'range', bounds });
  }
  return { ok: true, json: v };
}
