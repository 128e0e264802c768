/**
 * Places: members and swizzles, indexing, and assignment targets with what may not be written.
 */

import type { DataType } from '@syclts/dsl';
import type { AssignmentTarget, MemberExpression } from 'oxc-parser';
import type { Expr } from '../../ir/device-code.js';
import { type Expression, unwrap } from '../ast.js';
import { codes } from '../report.js';
import {
  isFloat,
  isInteger,
  scalarOf,
  scalarType,
  typeName,
  U32,
  vectorType,
} from '../resolver/types.js';
import { didYouMean } from '../suggest.js';
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
    return fail(
      cx,
      codes.unsupportedSyntax,
      node,
      'optional chaining is not supported in device code',
    );
  }
  if (node.computed) return lowerIndex(cx, node.object, node.property as Expression, node);
  if (node.property.type !== 'Identifier') {
    return fail(cx, codes.unsupportedSyntax, node, 'private fields are not supported');
  }
  const name = node.property.name;
  const objectEntity = topEntity(cx, node.object);
  if (objectEntity?.kind === 'deviceGlobal') {
    if (name !== 'value') {
      return fail(
        cx,
        codes.badMember,
        node.property,
        `a device global has only \`.value\` in device code, not \`.${name}\``,
        `write ${textOf(cx, node.object)}.value`,
      );
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
          codes.unknownName,
          node.property,
          `the kernel has no ${local.of} \`${name}\``,
          didYouMean(name, [...local.members.keys()]),
        );
      }
      return lowerLocal(cx, binding, name, node);
    }
    if (local?.kind === 'item' || local?.kind === 'handler') {
      return fail(
        cx,
        codes.badMember,
        node,
        `\`${textOf(cx, node)}\` must be called`,
        `write ${textOf(cx, node)}(...)`,
      );
    }
  }
  const base = lowerExpr(cx, node.object, expected);
  if (!base) return null;
  if (name === 'length' && base.type.kind === 'array') {
    if (base.type.length > 0xffffffff) {
      return fail(
        cx,
        codes.literalRange,
        node,
        `\`${textOf(cx, node)}\` is ${base.type.length}, which no u32 holds: an array this long cannot live on the GPU`,
      );
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
      return fail(
        cx,
        codes.badMember,
        node.property,
        `${typeName(base.type)} has no field \`${name}\``,
        `fields: ${base.type.fields.map((f) => f.name).join(', ')}`,
      );
    }
    return { op: 'member', base, member: name, type: field.type, span: spanOf(cx, node) };
  }
  if (base.type.kind === 'vector' && SWIZZLE.test(name)) {
    const size = base.type.size;
    const components = name.replace(/[rgba]/g, (c) => RGBA_TO_XYZW.get(c) ?? c);
    const valid = [...components].every((c) => 'xyzw'.indexOf(c) < size);
    if (!valid) {
      return fail(
        cx,
        codes.badMember,
        node.property,
        `\`.${name}\` reads past the end of a ${typeName(base.type)}`,
      );
    }
    const type =
      components.length === 1
        ? scalarType(base.type.component)
        : vectorType(base.type.component, components.length as 2 | 3 | 4);
    return { op: 'swizzle', base, components, type, span: spanOf(cx, node) };
  }
  return fail(
    cx,
    codes.badMember,
    node.property,
    `${typeName(base.type)} has no member \`${name}\``,
    base.type.kind === 'vector' ? 'vectors have swizzles: .x .xy .zyx .rgba ...' : undefined,
  );
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
    return fail(cx, codes.badIndex, objectNode, `${typeName(base.type)} cannot be indexed`);
  }
  const c = constantOf(cx, indexNode);
  let index: Expr | null;
  if (c) {
    if (c.kind !== 'number' || c.float || !Number.isInteger(c.value)) {
      return fail(cx, codes.badIndex, indexNode, 'an index must be an integer');
    }
    if (c.value < 0 || (length > 0 && c.value >= length)) {
      return fail(
        cx,
        codes.badIndex,
        indexNode,
        `index ${c.value} is out of bounds for ${typeName(base.type)}`,
      );
    }
    index = literalOf(cx, c, U32, indexNode);
  } else {
    index = lowerValue(cx, indexNode);
    if (index && (index.type.kind !== 'scalar' || !isInteger(index.type.scalar))) {
      return fail(
        cx,
        codes.badIndex,
        indexNode,
        `an index must be i32 or u32, not ${typeName(index.type)}`,
        isFloat(scalarOf(index.type)) ? `write u32(${textOf(cx, indexNode)})` : undefined,
      );
    }
  }
  if (!index) return null;
  const type = elementType(base.type);
  return { op: 'index', base, index, type, span: spanOf(cx, node) };
}

/** Lowers an assignment target; reports what cannot be written. */
export function lowerTarget(cx: Lowering, input: AssignmentTarget | Expression): Expr | null {
  const node = unwrap(input as Expression);
  if (node.type !== 'Identifier' && node.type !== 'MemberExpression') {
    return fail(cx, codes.notAssignable, node, `\`${textOf(cx, node)}\` cannot be assigned to`);
  }
  const e = lowerExpr(cx, node);
  if (!e) return null;
  if (e.type.kind === 'atomic') return plainAtomic(cx, node, 'write');
  if (e.op === 'swizzle' && e.components.length > 1) {
    return fail(
      cx,
      codes.notAssignable,
      node,
      'WGSL assigns one vector component at a time',
      'assign the whole vector, or each component',
    );
  }
  const root = rootOf(e);
  const why = unwritable(cx, root, node);
  if (why) return fail(cx, codes.notAssignable, node, why.message, why.hint);
  return e;
}

export function unwritable(
  cx: Lowering,
  root: Expr,
  node: Expression,
): { message: string; hint?: string } | null {
  const name = textOf(cx, rootNode(node));
  switch (root.op) {
    case 'local': {
      const b = cx.scopes.lookup(name);
      if (b?.kind !== 'local') return null;
      if (b.parameter) {
        return {
          message: `parameter \`${name}\` cannot be assigned to (WGSL parameters are immutable)`,
          hint: `copy it first: let ${name}Copy = ${name};`,
        };
      }
      return b.mutable
        ? null
        : { message: `\`${name}\` is a const`, hint: `declare it with let: let ${name} = ...` };
    }
    case 'param':
      if (root.type.kind === 'array' && root.type.length === 0) {
        return readOnlyAccessor(cx, root.name)
          ? {
              message: `accessor \`${name}\` is read-only`,
              hint: "declare it with accessor(T, 'write') or accessor(T, 'read_write')",
            }
          : null;
      }
      return {
        message: `kernel argument \`${name}\` cannot be assigned to`,
        hint: `copy it first: let ${name}Copy = ${name};`,
      };
    case 'workgroupArray':
    case 'deviceGlobal':
      return null;
    case 'specConstant':
      return { message: 'a specialization constant cannot be assigned to in device code' };
    default:
      return { message: `\`${textOf(cx, node)}\` is not a place that can be assigned to` };
  }
}
