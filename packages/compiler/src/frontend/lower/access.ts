/**
 * Places: members and swizzles, indexing, and assignment targets with what may not be written.
 */

import type { DataType } from '@syclts/dsl';
import type { AssignmentTarget, MemberExpression } from 'oxc-parser';
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { Expr } from '../../ir/device-code.js';
import { type Expression, unwrap } from '../ast.js';
import { isInteger, scalarType, U32, vectorType } from '../resolver/types.js';
import { nearest } from '../suggest.js';
import { plainAtomic } from './atomics.js';
import {
  constantOf,
  fail,
  type Lowering,
  type Node,
  readOnlyAccessor,
  spanOf,
  textOf,
  topEntity,
} from './context.js';
import { lowerExpr, lowerLocal, lowerValue } from './expressions.js';
import { literalOf } from './literals.js';

export const SWIZZLE = /^([xyzw]{1,4}|[rgba]{1,4})$/;

export const RGBA_TO_XYZW: ReadonlyMap<string, string> = new Map([
  ['r', 'x'],
  ['g', 'y'],
  ['b', 'z'],
  ['a', 'w'],
]);

/** The declaration an lvalue chain starts from. */
export function rootOf(e: Expr): Expr {
  let cur = e;
  while (cur.op === 'index' || cur.op === 'member' || cur.op === 'swizzle') cur = cur.base;
  return cur;
}

export function rootNode(node: Expression): Expression {
  let cur = unwrap(node);
  while (cur.type === 'MemberExpression') {
    if (!cur.computed && cur.property.type === 'Identifier' && cur.property.name === 'value') {
      return cur.object;
    }
    cur = unwrap(cur.object);
  }
  return cur;
}

/** An accessor's type in expressions: a runtime-sized array, written as length 0. */
export const runtimeArray = (element: DataType): DataType => ({
  kind: 'array',
  element,
  length: 0,
});

/** A workgroup array's type: length 0 when a specialization constant sizes it. */
export function workgroupArrayType(decl: { element: DataType; length: Expr }): DataType {
  return {
    kind: 'array',
    element: decl.element,
    length:
      decl.length.op === 'literal' && typeof decl.length.value === 'number' ? decl.length.value : 0,
  };
}

export function indexableLength(t: DataType): number | null {
  if (t.kind === 'array') return t.length;
  if (t.kind === 'vector') return t.size;
  if (t.kind === 'matrix') return t.columns;
  return null;
}

export function elementType(t: DataType): DataType {
  if (t.kind === 'array') return t.element;
  if (t.kind === 'vector') return scalarType(t.component);
  if (t.kind === 'matrix') return vectorType('f32', t.rows);
  return t;
}

export function lowerMember(
  cx: Lowering,
  node: MemberExpression,
  expected?: DataType,
): Expr | null {
  if (node.optional) {
    return fail(cx, node, msg.optionalChaining());
  }
  if (node.computed) return lowerIndex(cx, node.object, node.property as Expression, node);
  if (node.property.type !== 'Identifier') {
    return fail(cx, node, msg.privateField());
  }
  const name = node.property.name;
  const objectEntity = topEntity(cx, node.object);
  if (objectEntity?.kind === 'deviceGlobal') {
    if (name !== 'value') {
      return fail(cx, node.property, msg.deviceGlobalMember(name, textOf(cx, node.object)));
    }
    return {
      op: 'deviceGlobal',
      ref: objectEntity.ref,
      type: objectEntity.type,
      span: spanOf(cx, node),
    };
  }
  const root = unwrap(node.object);
  if (root.type === 'Identifier') {
    const local = cx.scopes.lookup(root.name);
    if (local?.kind === 'members') {
      const binding = local.members.get(name);
      if (!binding) {
        return fail(
          cx,
          node.property,
          msg.noKernelMember(local.of, name, nearest(name, [...local.members.keys()])),
        );
      }
      return lowerLocal(cx, binding, name, node);
    }
    if (local?.kind === 'item' || local?.kind === 'handler' || local?.kind === 'group') {
      return fail(cx, node, msg.uncalledMethod(textOf(cx, node)));
    }
  }
  const base = lowerExpr(cx, node.object, expected);
  if (!base) return null;
  if (name === 'length' && base.type.kind === 'array') {
    if (base.type.length > 0xffffffff) {
      return fail(cx, node, msg.arrayLengthPastU32(textOf(cx, node), base.type.length));
    }
    if (base.type.length > 0) {
      return { op: 'literal', value: base.type.length, type: U32, span: spanOf(cx, node) };
    }
    if (base.op === 'param') {
      return {
        op: 'builtin',
        name: 'arrayLength',
        args: [base],
        type: U32,
        span: spanOf(cx, node),
      };
    }
  }
  if (base.type.kind === 'struct') {
    const field = base.type.fields.find((f) => f.name === name);
    if (!field) {
      return fail(cx, node.property, msg.noField(base.type, name));
    }
    return { op: 'member', base, member: name, type: field.type, span: spanOf(cx, node) };
  }
  if (base.type.kind === 'vector' && SWIZZLE.test(name)) {
    const size = base.type.size;
    const components = name.replace(/[rgba]/g, (c) => RGBA_TO_XYZW.get(c) ?? c);
    const valid = [...components].every((c) => 'xyzw'.indexOf(c) < size);
    if (!valid) {
      return fail(cx, node.property, msg.swizzlePastEnd(name, base.type));
    }
    const type =
      components.length === 1
        ? scalarType(base.type.component)
        : vectorType(base.type.component, components.length as 2 | 3 | 4);
    return { op: 'swizzle', base, components, type, span: spanOf(cx, node) };
  }
  return fail(cx, node.property, msg.noMember(base.type, name));
}

export function lowerIndex(
  cx: Lowering,
  objectNode: Expression,
  indexNode: Expression,
  node: Node,
): Expr | null {
  const base = lowerExpr(cx, objectNode);
  if (!base) return null;
  const length = indexableLength(base.type);
  if (length === null) {
    return fail(cx, objectNode, msg.notIndexable(base.type));
  }
  const index = lowerIndexValue(cx, indexNode, base.type, length);
  if (!index) return null;
  const type = elementType(base.type);
  return { op: 'index', base, index, type, span: spanOf(cx, node) };
}

/**
 * An index into `indexed`, of `length` elements (0: known at run time only): a constant is an
 * integer within the bounds (a u32 literal), anything else an integer value.
 */
export function lowerIndexValue(
  cx: Lowering,
  indexNode: Expression,
  indexed: DataType,
  length: number,
): Expr | null {
  const c = constantOf(cx, indexNode);
  if (c) {
    if (c.kind !== 'number' || c.float || !Number.isInteger(c.value)) {
      return fail(cx, indexNode, msg.indexNotInteger());
    }
    if (c.value < 0 || (length > 0 && c.value >= length)) {
      return fail(cx, indexNode, msg.indexOutOfBounds(c.value, indexed));
    }
    return literalOf(cx, c, U32, indexNode);
  }
  const index = lowerValue(cx, indexNode);
  if (index && (index.type.kind !== 'scalar' || !isInteger(index.type.scalar))) {
    return fail(cx, indexNode, msg.indexType(index.type, textOf(cx, indexNode)));
  }
  return index;
}

/** Lowers an assignment target; reports what cannot be written. */
export function lowerTarget(cx: Lowering, input: AssignmentTarget | Expression): Expr | null {
  const node = unwrap(input as Expression);
  if (node.type !== 'Identifier' && node.type !== 'MemberExpression') {
    return fail(cx, node, msg.notAssignable(textOf(cx, node)));
  }
  const e = lowerExpr(cx, node);
  if (!e) return null;
  if (e.type.kind === 'atomic') return plainAtomic(cx, node, 'write');
  if (e.op === 'swizzle' && e.components.length > 1) {
    return fail(cx, node, msg.swizzleAssignment());
  }
  const root = rootOf(e);
  const why = unwritable(cx, root, node);
  if (why) return fail(cx, node, why);
  return e;
}

/** Why the place `node` (whose declaration is `root`) cannot be written, if it cannot. */
export function unwritable(cx: Lowering, root: Expr, node: Expression): Message | null {
  const name = textOf(cx, rootNode(node));
  switch (root.op) {
    case 'local': {
      const b = cx.scopes.lookup(name);
      if (b?.kind !== 'local') return null;
      if (b.parameter) return msg.parameterAssignment(name);
      return b.mutable ? null : msg.constAssignment(name);
    }
    case 'param':
      if (root.type.kind === 'array' && root.type.length === 0) {
        return readOnlyAccessor(cx, root.name) ? msg.readOnlyAccessor(name) : null;
      }
      return msg.kernelArgumentAssignment(name);
    case 'workgroupArray':
    case 'deviceGlobal':
      return null;
    case 'specConstant':
      return msg.specConstantAssignment();
    default:
      return msg.notAPlace(textOf(cx, node));
  }
}
