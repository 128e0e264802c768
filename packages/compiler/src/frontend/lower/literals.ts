/**
 * Build-time constants in device code: abstract literals made concrete by their context, as in
 * WGSL (without context, i32 / f32), checked to fit.
 */

import type { DataType } from '@syclts/dsl';
import { fitsScalar, type ScalarName, sameType } from '@syclts/dsl';
import type { Expr } from '../../ir/device-code.js';
import { WGSL_LIMITS } from '../../ir/wgsl-limits.js';
import { codes } from '../report.js';
import { type ConstValue, describeConst } from '../resolver/constants.js';
import { BOOL, F32, I32, scalarOf, scalarType, typeName } from '../resolver/types.js';
import { fail, type Lowering, type Node, spanOf } from './context.js';
import { hintFor } from './expressions.js';

/** A literal of a concrete type from an abstract constant, checking that it fits. */
export function literalOf(
  cx: Lowering,
  value: ConstValue,
  type: DataType,
  node: Node,
): Expr | null {
  if (value.kind === 'bool') {
    if (type.kind === 'scalar' && type.scalar === 'bool') {
      return { op: 'literal', value: value.value, type, span: spanOf(cx, node) };
    }
    return fail(cx, codes.typeMismatch, node, `expected ${typeName(type)}, found a bool`);
  }
  if (value.kind !== 'number') return fail(cx, codes.typeMismatch, node, 'expected a number');
  const s = scalarOf(type);
  const fit = fits(value, s);
  if (type.kind !== 'scalar' || s === null || s === 'bool') {
    return fail(
      cx,
      codes.typeMismatch,
      node,
      `expected ${typeName(type)}, found the number ${describeConst(value)}`,
    );
  }
  if (fit !== true) return fail(cx, codes.literalRange, node, fit, hintFor(value, s));
  return { op: 'literal', value: value.value, type, span: spanOf(cx, node) };
}

/** Whether an abstract constant converts to `s` (the ABI's rule, as the runtime checks values). */
export function fits(
  value: { readonly value: number; readonly float: boolean; readonly exact?: bigint },
  s: ScalarName | null,
): true | string {
  const shown = String(value.exact ?? value.value);
  if ((s === 'i32' || s === 'u32') && value.float) {
    return `${shown} is a float literal and does not convert to ${s} implicitly`;
  }
  if (s === null || s === 'bool') return `expected ${s}`;
  return value.exact === undefined && fitsScalar(s, value.value)
    ? true
    : `${shown} does not fit in ${s}`;
}

/** Default concrete type of an abstract constant: i32, f32 or bool, as WGSL. */
export function defaultType(value: ConstValue): DataType {
  if (value.kind === 'bool') return BOOL;
  return value.kind === 'number' && value.float ? F32 : I32;
}

/** Concretises a constant for a context type: its scalar when the context is numeric. */
export function constantFor(
  cx: Lowering,
  value: ConstValue,
  context: DataType | undefined,
  node: Node,
) {
  const s = context?.kind === 'matrix' ? 'f32' : context ? scalarOf(context) : null;
  const target =
    s !== null && (value.kind === 'bool') === (s === 'bool') ? scalarType(s) : defaultType(value);
  return literalOf(cx, value, target, node);
}

/** An array value constructor is limited in WGSL; a longer list belongs in memory. */
export function tooManyElements(cx: Lowering, node: Node, count: number): null {
  return fail(
    cx,
    codes.arrayConstructor,
    node,
    `this array has ${count} elements; a WGSL array value constructor takes at most ${WGSL_LIMITS.arrayConstructorElements}`,
    'pass large tables through an accessor, or fill a device global or a workgroup array in a loop',
  );
}

/**
 * A top-level constant array or object used in device code becomes a constructed value:
 * elements take the context's type, else i32 / f32 / bool as literals do.
 */
export function lowerConstant(
  cx: Lowering,
  value: ConstValue,
  expected: DataType | undefined,
  node: Node,
): Expr | null {
  if (value.kind === 'number' || value.kind === 'bool')
    return constantFor(cx, value, expected, node);
  if (value.kind === 'array') {
    if (value.items.length === 0)
      return fail(cx, codes.typeMismatch, node, 'an empty array has no WGSL type');
    if (value.items.length > WGSL_LIMITS.arrayConstructorElements) {
      return tooManyElements(cx, node, value.items.length);
    }
    const element =
      expected?.kind === 'array'
        ? expected.element
        : expected?.kind === 'vector'
          ? undefined
          : constantElementType(cx, value.items);
    if (expected?.kind === 'vector' && value.items.length === expected.size) {
      const args: Expr[] = [];
      for (const item of value.items) {
        const e = lowerConstant(cx, item, scalarType(expected.component), node);
        if (!e) return null;
        args.push(e);
      }
      return { op: 'construct', args, type: expected, span: spanOf(cx, node) };
    }
    if (!element)
      return fail(cx, codes.typeMismatch, node, 'this constant does not fit its context');
    const args: Expr[] = [];
    for (const item of value.items) {
      const e = lowerConstant(cx, item, element, node);
      if (!e) return null;
      args.push(e);
    }
    const other = args.find((a) => !sameType(a.type, args[0]!.type));
    if (other) {
      return fail(
        cx,
        codes.typeMismatch,
        node,
        `the elements of ${describeConst(value)} have different types: ${typeName(args[0]!.type)} and ${typeName(other.type)}`,
        'a WGSL array holds one type: write all numbers or all booleans',
      );
    }
    return {
      op: 'construct',
      args,
      type: { kind: 'array', element: args[0]!.type, length: args.length },
      span: spanOf(cx, node),
    };
  }
  if (value.kind === 'object' && expected?.kind === 'struct') {
    const args: Expr[] = [];
    for (const field of expected.fields) {
      const v = value.fields.get(field.name);
      if (!v) return fail(cx, codes.typeMismatch, node, `field \`${field.name}\` is missing`);
      const e = lowerConstant(cx, v, field.type, node);
      if (!e) return null;
      args.push(e);
    }
    return { op: 'construct', args, type: expected, span: spanOf(cx, node) };
  }
  return fail(
    cx,
    codes.typeMismatch,
    node,
    value.kind === 'object'
      ? 'a constant object needs a struct type from its context'
      : `${describeConst(value)} is not a device value`,
  );
}

export function constantElementType(
  cx: Lowering,
  items: readonly ConstValue[],
): DataType | undefined {
  const first = items[0]!;
  if (first.kind === 'array') {
    const inner = constantElementType(cx, first.items);
    return inner && { kind: 'array', element: inner, length: first.items.length };
  }
  if (first.kind === 'bool') return BOOL;
  if (first.kind !== 'number') return undefined;
  return items.some((i) => i.kind === 'number' && i.float) ? F32 : I32;
}

export function convertConstant(
  cx: Lowering,
  c: ConstValue,
  type: DataType & { kind: 'scalar' },
  node: Node,
) {
  if (c.kind === 'bool') {
    if (type.scalar === 'bool') return literalOf(cx, c, type, node);
    return literalOf(cx, { kind: 'number', value: c.value ? 1 : 0, float: false }, type, node);
  }
  if (c.kind !== 'number') return literalOf(cx, c, type, node);
  if (type.scalar === 'bool')
    return literalOf(cx, { kind: 'bool', value: c.value !== 0 }, type, node);
  if (type.scalar === 'i32' || type.scalar === 'u32') {
    return literalOf(cx, { kind: 'number', value: Math.trunc(c.value), float: false }, type, node);
  }
  return literalOf(cx, { kind: 'number', value: c.value, float: true }, type, node);
}
