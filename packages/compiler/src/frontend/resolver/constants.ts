import { foldAbstractFloat, foldAbstractInt, foldSmallInt } from './numbers.js';

/**
 * Constant values known at build time: numbers keep whether they were written as floats, so
 * WGSL's abstract int / abstract float rules can apply when device code uses them. An integer
 * past 2^53 keeps its exact value in `exact` (WGSL's abstract integers are 64-bit).
 */
export type ConstValue =
  | {
      readonly kind: 'number';
      readonly value: number;
      readonly float: boolean;
      readonly exact?: bigint;
    }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'array'; readonly items: readonly ConstValue[] }
  | { readonly kind: 'object'; readonly fields: ReadonlyMap<string, ConstValue> };

export const num = (value: number, float: boolean): ConstValue => ({
  kind: 'number',
  value,
  float,
});

/** An integer constant from its exact value. */
export function intConst(value: bigint): ConstValue {
  const n = Number(value);
  return Number.isSafeInteger(n)
    ? num(n, false)
    : { kind: 'number', value: n, float: false, exact: value };
}

/** The exact value of an integer constant. */
export function exactInt(c: { readonly value: number; readonly exact?: bigint }): bigint {
  return c.exact ?? BigInt(c.value);
}

export function describeConst(value: ConstValue): string {
  switch (value.kind) {
    case 'number':
      return String(value.exact ?? value.value);
    case 'bool':
      return String(value.value);
    case 'string':
      return JSON.stringify(value.value);
    case 'array':
      return `[${value.items.map(describeConst).join(', ')}]`;
    case 'object':
      return `{ ${[...value.fields].map(([k, v]) => `${k}: ${describeConst(v)}`).join(', ')} }`;
  }
}

/** How constant arithmetic behaves: as JavaScript (host values) or as WGSL abstract values. */
export type Semantics = 'host' | 'device';

/**
 * Folds a binary operator. 'device': WGSL's abstract values (integers exact and 64-bit,
 * division truncating; see numbers.ts), null where WGSL would reject the operation, so that the
 * operands stay apart and the concrete operation is reported where they meet. 'host':
 * JavaScript's, an integer-valued result staying an int.
 */
export function foldNumeric(
  operator: string,
  a: { readonly value: number; readonly float: boolean; readonly exact?: bigint },
  b: { readonly value: number; readonly float: boolean; readonly exact?: bigint },
  semantics: Semantics,
): ConstValue | null {
  if (semantics === 'host') return foldHost(operator, a.value, b.value, a.float || b.float);
  if (!a.float && !b.float && a.exact === undefined && b.exact === undefined) {
    const small = foldSmallInt(operator, a.value, b.value);
    if (typeof small === 'boolean') return { kind: 'bool', value: small };
    if (small !== undefined) return num(small, false);
  }
  const r =
    a.float || b.float
      ? foldAbstractFloat(operator, a.value, b.value)
      : Number.isInteger(a.value) && Number.isInteger(b.value)
        ? foldAbstractInt(operator, exactInt(a), exactInt(b))
        : null;
  if (!r?.ok) return null;
  if (typeof r.value === 'boolean') return { kind: 'bool', value: r.value };
  return typeof r.value === 'bigint' ? intConst(r.value) : num(r.value, true);
}

function foldHost(operator: string, x: number, y: number, float: boolean): ConstValue | null {
  const n = (v: number) => num(v, float || !Number.isInteger(v));
  switch (operator) {
    case '+':
      return n(x + y);
    case '-':
      return n(x - y);
    case '*':
      return n(x * y);
    case '/':
      return n(x / y);
    case '%':
      return n(x % y);
    case '**':
      return n(x ** y);
    case '&':
      return num(x & y, false);
    case '|':
      return num(x | y, false);
    case '^':
      return num(x ^ y, false);
    case '<<':
      return num(x << y, false);
    case '>>':
      return num(x >> y, false);
    case '>>>':
      return num(x >>> y, false);
    default: {
      const r = foldAbstractFloat(operator, x, y);
      return r.ok && typeof r.value === 'boolean' ? { kind: 'bool', value: r.value } : null;
    }
  }
}
