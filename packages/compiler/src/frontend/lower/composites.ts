/**
 * Array and object literals, and type constructors and conversions (`vec3f(...)`, `f32(x)`).
 */

import type { DataType } from '@syclts/dsl';
import { sameType } from '@syclts/dsl';
import type { Expression as EsExpression, ObjectExpression } from 'oxc-parser';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expr } from '../../ir/device-code.js';
import { WGSL_LIMITS } from '../../ir/wgsl-limits.js';
import { type Expression, propertyName } from '../ast.js';
import { F32, scalarOf, scalarType, vectorType } from '../resolver/types.js';
import { constantOf, fail, type Lowering, type Node, spanOf, textOf } from './context.js';
import { lowerValue, lowerValueOf } from './expressions.js';
import { convertConstant, defaultType, literalOf, tooManyElements } from './literals.js';

export function lowerArrayLiteral(
  cx: Lowering,
  elements: readonly (EsExpression | { type: 'SpreadElement' } | null)[],
  node: Node,
  expected?: DataType,
): Expr | null {
  if (elements.length === 0) {
    return fail(cx, node, msg.emptyArray());
  }
  let elementTypeHint = expected?.kind === 'array' ? expected.element : undefined;
  const items: Expression[] = [];
  for (const e of elements) {
    if (!e || e.type === 'SpreadElement') {
      return fail(cx, node, msg.arrayHoles());
    }
    items.push(e as Expression);
  }
  if (items.length > WGSL_LIMITS.arrayConstructorElements)
    return tooManyElements(cx, node, items.length);
  if (expected?.kind === 'array' && expected.length !== items.length && expected.length > 0) {
    return fail(cx, node, msg.arrayLiteralLength(expected, items.length));
  }
  if (!elementTypeHint) {
    const firstConcrete = items.find((i) => !constantOf(cx, i));
    if (firstConcrete) {
      elementTypeHint = lowerValue(cx, firstConcrete)?.type;
      if (!elementTypeHint) return null;
    } else {
      const consts = items.map((i) => constantOf(cx, i)!);
      elementTypeHint = defaultType(
        consts.find((v) => v.kind === 'number' && v.float) ?? consts[0]!,
      );
    }
  }
  const args: Expr[] = [];
  for (const item of items) {
    const e = lowerValueOf(cx, item, elementTypeHint, 'element');
    if (!e) return null;
    args.push(e);
  }
  return {
    op: 'construct',
    args,
    type: { kind: 'array', element: elementTypeHint, length: args.length },
    span: spanOf(cx, node),
  };
}

export function lowerObjectLiteral(
  cx: Lowering,
  node: ObjectExpression,
  expected?: DataType,
): Expr | null {
  if (expected?.kind !== 'struct') {
    return fail(cx, node, msg.objectLiteralContext());
  }
  const given = new Map<string, Expression>();
  for (const prop of node.properties) {
    const key =
      prop.type === 'Property' && !prop.method ? propertyName(prop.key, prop.computed) : null;
    if (prop.type !== 'Property' || key === null) {
      return fail(cx, prop, msg.structLiteralEntry());
    }
    if (!expected.fields.some((f) => f.name === key)) {
      return fail(cx, prop.key, msg.noLiteralField(expected, key));
    }
    given.set(key, prop.value);
  }
  const args: Expr[] = [];
  for (const field of expected.fields) {
    const valueNode = given.get(field.name);
    if (!valueNode) {
      return fail(cx, node, msg.missingField(field.name));
    }
    const e = lowerValueOf(cx, valueNode, field.type, { kind: 'field', name: field.name });
    if (!e) return null;
    args.push(e);
  }
  return { op: 'construct', args, type: expected, span: spanOf(cx, node) };
}

/** `f32(x)`, `vec3f(a, b, c)`, `mat2x2f(...)`: conversions and constructors, as in WGSL. */
export function lowerConstruct(
  cx: Lowering,
  type: DataType,
  args: Expression[],
  node: Node,
): Expr | null {
  const span = spanOf(cx, node);
  if (type.kind === 'scalar') {
    if (args.length !== 1) {
      return fail(cx, node, msg.conversionArguments(type.scalar));
    }
    const c = constantOf(cx, args[0]!);
    if (c) return convertConstant(cx, c, type, args[0]!);
    const v = lowerValue(cx, args[0]!);
    if (!v) return null;
    if (v.type.kind !== 'scalar') {
      return fail(cx, args[0]!, msg.conversionOperand(type.scalar, v.type));
    }
    if (sameType(v.type, type)) return v;
    return { op: 'construct', args: [v], type, span };
  }
  if (type.kind === 'vector') {
    if (args.length === 0) return { op: 'construct', args: [], type, span };
    if (args.length === 1) {
      const c = constantOf(cx, args[0]!);
      const v = c
        ? literalOf(cx, c, scalarType(type.component), args[0]!)
        : lowerValue(cx, args[0]!);
      if (!v) return null;
      if (v.type.kind === 'scalar' && v.type.scalar === type.component) {
        return { op: 'construct', args: [v], type, span };
      }
      if (v.type.kind === 'vector' && v.type.size === type.size) {
        return sameType(v.type, type) ? v : { op: 'construct', args: [v], type, span };
      }
      return fail(cx, args[0]!, msg.vectorFrom(type, v.type));
    }
    const parts: Expr[] = [];
    let count = 0;
    for (const a of args) {
      const c = constantOf(cx, a);
      const v = c ? literalOf(cx, c, scalarType(type.component), a) : lowerValue(cx, a);
      if (!v) return null;
      if (
        scalarOf(v.type) !== type.component ||
        (v.type.kind !== 'scalar' && v.type.kind !== 'vector')
      ) {
        return fail(cx, a, msg.vectorComponent(type, v.type, textOf(cx, a)));
      }
      count += v.type.kind === 'vector' ? v.type.size : 1;
      parts.push(v);
    }
    if (count !== type.size) {
      return fail(cx, node, msg.vectorComponents(type, count));
    }
    return { op: 'construct', args: parts, type, span };
  }
  if (type.kind === 'matrix') {
    if (args.length === 0) return { op: 'construct', args: [], type, span };
    const column = vectorType('f32', type.rows);
    const byColumns = args.length === type.columns;
    if (!byColumns && args.length !== type.columns * type.rows) {
      return fail(cx, node, msg.matrixArguments(type));
    }
    const parts: Expr[] = [];
    for (const a of args) {
      const v = lowerValueOf(cx, a, byColumns ? column : F32, 'matrixArgument');
      if (!v) return null;
      parts.push(v);
    }
    return { op: 'construct', args: parts, type, span };
  }
  if (type.kind === 'struct' || type.kind === 'array') {
    if (args.length !== 1) {
      return fail(cx, node, msg.compositeArguments(type));
    }
    return lowerValueOf(cx, args[0]!, type, 'value');
  }
  return fail(cx, node, msg.notConstructible(type));
}
