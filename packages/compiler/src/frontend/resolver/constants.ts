/**
 * Constant values known at build time: numbers keep whether they were written as floats, so
 * WGSL's abstract int / abstract float rules can apply when device code uses them.
 */
export type ConstValue =
  | { readonly kind: 'number'; readonly value: number; readonly float: boolean }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'array'; readonly items: readonly ConstValue[] }
  | { readonly kind: 'object'; readonly fields: ReadonlyMap<string, ConstValue> };

export const num = (value: number, float: boolean): ConstValue => ({
  kind: 'number',
  value,
  float,
});

export function describeConst(value: ConstValue): string {
  switch (value.kind) {
    case 'number':
      return String(value.value);
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
 * Folds a binary operator. 'device': WGSL abstract-int rules (division truncates, division by
 * zero is not a constant). 'host': JavaScript's, an integer-valued result staying an int.
 */
export function foldNumeric(
  operator: string,
  a: { value: number; float: boolean },
  b: { value: number; float: boolean },
  semantics: Semantics,
): ConstValue | null {
  if (semantics === 'host') return foldHost(operator, a.value, b.value, a.float || b.float);
  const float = a.float || b.float;
  const x = a.value;
  const y = b.value;
  switch (operator) {
    case '+':
      return num(x + y, float);
    case '-':
      return num(x - y, float);
    case '*':
      return num(x * y, float);
    case '/':
      if (float) return num(x / y, true);
      return y === 0 ? null : num(Math.trunc(x / y), false);
    case '%':
      if (float) return num(x % y, true);
      return y === 0 ? null : num(x % y, false);
    case '**':
      return num(x ** y, float);
    case '&':
    case '|':
    case '^':
    case '<<':
    case '>>':
    case '>>>':
      if (float) return null;
      return num(bitwise(operator, x, y), false);
    case '<':
      return { kind: 'bool', value: x < y };
    case '<=':
      return { kind: 'bool', value: x <= y };
    case '>':
      return { kind: 'bool', value: x > y };
    case '>=':
      return { kind: 'bool', value: x >= y };
    case '==':
    case '===':
      return { kind: 'bool', value: x === y };
    case '!=':
    case '!==':
      return { kind: 'bool', value: x !== y };
    default:
      return null;
  }
}

function bitwise(operator: string, x: number, y: number): number {
  switch (operator) {
    case '&':
      return x & y;
    case '|':
      return x | y;
    case '^':
      return x ^ y;
    case '<<':
      return x * 2 ** y;
    case '>>':
      return Math.floor(x / 2 ** y);
    default:
      return x >>> y;
  }
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
    default:
      return foldNumeric(operator, { value: x, float }, { value: y, float }, 'device');
  }
}
