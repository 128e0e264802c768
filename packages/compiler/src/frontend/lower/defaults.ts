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
import { type ConstValue, describeConst } from '../resolver/constants.js';
import { typeName } from '../resolver/types.js';

export type Checked =
  | { readonly ok: true; readonly json: JsonValue }
  | { readonly ok: false; readonly why: string };

const bad = (value: ConstValue, type: DataType, detail?: string): Checked => ({
  ok: false,
  why: `${describeConst(value)} does not fit ${typeName(type)}${detail ? `: ${detail}` : ''}`,
});

export function checkDefault(value: ConstValue, type: DataType, complete = true): Checked {
  switch (type.kind) {
    case 'scalar':
      return checkScalar(value, type.scalar, type);
    case 'atomic':
      // A device global's initial value (specialization constants cannot be atomic).
      return checkScalar(value, type.scalar, type);
    case 'vector':
      return checkList(
        value,
        type,
        type.size,
        () => ({ kind: 'scalar', scalar: type.component }),
        complete,
      );
    case 'matrix':
      return checkList(
        value,
        type,
        type.columns * type.rows,
        () => ({ kind: 'scalar', scalar: 'f32' }),
        complete,
        'a flat, column-major list',
      );
    case 'array':
      return checkList(value, type, type.length, () => type.element, complete, 'a list', true);
    case 'struct': {
      if (value.kind !== 'object') return bad(value, type, 'expected an object');
      const out: { [key: string]: JsonValue } = {};
      for (const f of type.fields) {
        const v = value.fields.get(f.name);
        if (!v) {
          if (complete) out[f.name] = zeroValue(f.type) as JsonValue;
          continue;
        }
        const c = checkDefault(v, f.type, complete);
        if (!c.ok) return c;
        out[f.name] = c.json;
      }
      for (const k of value.fields.keys()) {
        if (!type.fields.some((f) => f.name === k)) return bad(value, type, `no field \`${k}\``);
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
  complete: boolean,
  shape = 'a list',
  partial = false,
): Checked {
  if (value.kind !== 'array') return bad(value, type, `expected ${shape} of ${length} values`);
  const count = value.items.length;
  if (partial ? count > length : count !== length) {
    return bad(
      value,
      type,
      `expected ${partial ? 'at most ' : ''}${length} values, found ${count}`,
    );
  }
  const out: JsonValue[] = [];
  for (const [i, item] of value.items.entries()) {
    const c = checkDefault(item, element(i), complete);
    if (!c.ok) return c;
    out.push(c.json);
  }
  if (complete) for (let i = count; i < length; i++) out.push(zeroValue(element(i)) as JsonValue);
  return { ok: true, json: out };
}

function checkScalar(value: ConstValue, scalar: ScalarName, type: DataType): Checked {
  if (scalar === 'bool') {
    return value.kind === 'bool'
      ? { ok: true, json: value.value }
      : bad(value, type, 'expected true or false');
  }
  if (value.kind !== 'number') return bad(value, type, 'expected a number');
  const v = value.value;
  if ((scalar === 'i32' || scalar === 'u32') && !Number.isInteger(v)) {
    return bad(value, type, 'expected an integer');
  }
  // The ABI's rule, as the runtime checks values: a float that rounds to a finite one fits.
  if (!fitsScalar(scalar, v)) {
    return bad(
      value,
      type,
      scalar === 'i32'
        ? `out of range ${I32_MIN}..${I32_MAX}`
        : scalar === 'u32'
          ? `out of range 0..${U32_MAX}`
          : 'out of range',
    );
  }
  return { ok: true, json: v };
}
