/**
 * Build-time constants in device code: abstract literals made concrete by their context, as in
 * WGSL (without context, i32 / f32), checked to fit.
 */

import type { DataType } from '@syclts/dsl';
import { fitsScalar, sameType } from '@syclts/dsl';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expr } from '../../ir/device-code.js';
import { WGSL_LIMITS } from '../../ir/wgsl-limits.js';
import type { ConstValue } from '../resolver/constants.js';
import { BOOL, F32, I32, scalarOf, scalarType } from '../resolver/types.js';
import { fail, type Lowering, type Node, spanOf } from './context.js';

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
    return fail(cx, node, msg.boolForType(type));
  }
  if (value.kind !== 'number') return fail(cx, node, msg.expectedNumber());
  const s = scalarOf(type);
  if (type.kind !== 'scalar' || s === null || s === 'bool') {
    return fail(cx, node, msg.numberForType(type, value));
  }
  // It fits by the ABI's rule, as the runtime checks values; a float literal never converts to
  // an integer implicitly.
  const float = (s === 'i32' || s === 'u32') && value.float;
  if (float || value.exact !== undefined || !fitsScalar(s, value.value)) {
    return fail(cx, node, msg.literalDoesNotFit(value, s, float));
  }
  return { op: 'literal', value: value.value, type, span: spanOf(cx, node) };
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
  return fail(cx, node, msg.arrayConstructor(count, WGSL_LIMITS.arrayConstructorElements));
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
    if (value.items.length === 0) return fail(cx, node, msg.emptyArray());
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
    if (!element) return fail(cx, node, msg.constantContext());
    const args: Expr[] = [];
    for (const item of value.items) {
      const e = lowerConstant(cx, item, element, node);
      if (!e) return null;
      args.push(e);
    }
    const other = args.find((a) => !sameType(a.type, args[0]!.type));
    if (other) {
      return fail(cx, node, msg.mixedConstantArray(value, args[0]!.type, other.type));
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
      if (!v) return fail(cx, node, msg.missingField(field.name));
      const e = lowerConstant(cx, v, field.type, node);
      if (!e) return null;
      args.push(e);
    }
    return { op: 'construct', args, type: expected, span: spanOf(cx, node) };
  }
  return fail(
    cx,
    node,
    value.kind === 'object' ? msg.constantObjectContext() : msg.constantNotADeviceValue(value),
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
