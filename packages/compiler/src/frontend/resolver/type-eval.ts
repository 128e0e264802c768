/** Type expressions (`f32`, `vec(f32, 3)`, `struct({...})`, aliases) evaluated to data types. */
import type { DataType, StructField } from '@syclts/dsl';
import { nestDepth, WGSL_LIMITS } from '../../ir/wgsl-limits.js';
import { type Expression, propertyName, unwrap } from '../ast.js';
import { codes } from '../report.js';
import { evalConst } from './const-eval.js';
import { DSL_TYPE_NAMES, isMatrixDim, isVectorSize } from './dsl-names.js';
import type { Resolver } from './resolver.js';
import { arrayType, isInteger, matrixType, scalarOf, structType, vectorType } from './types.js';

/** Evaluates a type expression to a DSL data type. Reports what is not one. */
export function evalType(r: Resolver, input: Expression): DataType | null {
  const node = unwrap(input);
  const notType = (why: string, hint?: string): null => {
    r.reporter.error(
      codes.notDslType,
      node,
      why,
      hint ??
        'use a type from @syclts/dsl (f32, u32, vec3f, array(f32, 4), struct({...}), ...) or a top-level const alias of one',
    );
    return null;
  };
  if (node.type === 'Identifier' || node.type === 'MemberExpression') {
    const entity = r.entityOf(node);
    if (!entity) {
      return notType(`\`${r.reporter.source.slice(node)}\` is not a DSL type`);
    }
    switch (entity.kind) {
      case 'type':
        return entity.type;
      case 'dsl': {
        const type = DSL_TYPE_NAMES.get(entity.name);
        if (type) return type;
        return notType(`\`${entity.name}\` from @syclts/dsl is not a type`);
      }
      case 'opaque':
        // The alias's own errors, at their place; the use adds nothing.
        if (entity.badType && r.reportBadType(entity.badType)) {
          r.reporter.error(codes.notDslType, node, '', undefined, true);
          return null;
        }
        if (r.top.bindings.get(r.reporter.source.slice(node))?.kind === 'import') {
          r.reporter.error(
            codes.unresolvedImport,
            node,
            `cannot resolve the type \`${r.reporter.source.slice(node)}\`: ${entity.why}`,
            'declare the type alias in this module, or build through the syclts plugin so imported .sycl.ts modules can be read',
          );
          return null;
        }
        return notType(`\`${r.reporter.source.slice(node)}\` is not a DSL type: ${entity.why}`);
      default:
        return notType(`\`${r.reporter.source.slice(node)}\` is a ${entity.kind}, not a type`);
    }
  }
  if (node.type !== 'CallExpression') {
    return notType(`\`${r.reporter.source.slice(node)}\` is not a DSL type`);
  }
  const callee = r.dslName(node.callee);
  const args = node.arguments;
  const arg = (i: number): Expression | null => {
    const a = args[i];
    return a && a.type !== 'SpreadElement' ? a : null;
  };
  const intArg = (i: number, what: string): number | null => {
    const a = arg(i);
    const v = a ? evalConst(r, a) : null;
    if (v?.kind === 'number' && !v.float && Number.isInteger(v.value)) return v.value;
    r.reporter.error(
      codes.notDslType,
      a ?? node,
      `${what} must be an integer constant`,
      'write a literal or a top-level const',
    );
    return null;
  };
  // Reported at the level that passes the limit; the levels around it see no type.
  const nested = (type: DataType): DataType | null => {
    const depth = nestDepth(type);
    if (depth <= WGSL_LIMITS.typeNesting) return type;
    r.reporter.error(
      codes.typeNesting,
      node,
      `this type nests ${depth} levels deep (arrays, structs, vectors 1 and matrices 2 each); WGSL allows ${WGSL_LIMITS.typeNesting}`,
      'flatten inner arrays into one longer array and compute the index',
    );
    return null;
  };
  switch (callee) {
    case 'vec': {
      const component = arg(0) ? evalType(r, arg(0)!) : null;
      const size = intArg(1, 'the size of a vector');
      if (!component || size === null) return null;
      if (component.kind !== 'scalar') {
        return notType('vector components must be scalars (bool, i32, u32, f32, f16)');
      }
      if (!isVectorSize(size)) return notType(`vectors have 2, 3 or 4 components, not ${size}`);
      return vectorType(component.scalar, size);
    }
    case 'mat': {
      const columns = intArg(0, 'the number of columns');
      const rows = intArg(1, 'the number of rows');
      if (columns === null || rows === null) return null;
      if (!isMatrixDim(columns) || !isMatrixDim(rows)) {
        return notType(`matrices are 2x2 to 4x4, not ${columns}x${rows}`);
      }
      return matrixType(columns, rows);
    }
    case 'array': {
      const element = arg(0) ? evalType(r, arg(0)!) : null;
      const length = intArg(1, 'the length of an array');
      if (!element || length === null) return null;
      if (length < 1) return notType(`an array needs at least one element, not ${length}`);
      return nested(arrayType(element, length));
    }
    case 'struct': {
      const shape = arg(0) ? unwrap(arg(0)!) : null;
      if (shape?.type !== 'ObjectExpression' || shape.properties.length === 0) {
        return notType(
          'struct takes an object literal of field types',
          'write struct({ x: f32, count: u32 })',
        );
      }
      const fields: StructField[] = [];
      for (const p of shape.properties) {
        const name = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
        if (p.type !== 'Property' || name === null || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
          r.reporter.error(
            codes.notDslType,
            p,
            'struct fields need plain names (letters, digits, underscores)',
          );
          return null;
        }
        if (fields.some((f) => f.name === name)) {
          r.reporter.error(codes.duplicate, p, `field \`${name}\` appears twice`);
          return null;
        }
        const type = r.reporter.inContext(`struct field \`${name}\``, () => evalType(r, p.value));
        if (!type) return null;
        fields.push({ name, type });
      }
      if (fields.length > WGSL_LIMITS.structMembers) {
        r.reporter.error(
          codes.structMembers,
          node,
          `this struct has ${fields.length} fields; WGSL allows at most ${WGSL_LIMITS.structMembers}`,
          'group fields into nested structs or arrays',
        );
        return null;
      }
      return nested(structType(fields));
    }
    case 'atomic': {
      const inner = arg(0) ? evalType(r, arg(0)!) : null;
      if (!inner) return null;
      const s = scalarOf(inner);
      if (inner.kind !== 'scalar' || !isInteger(s)) {
        return notType('atomics hold i32 or u32', 'write atomic(u32) or atomic(i32)');
      }
      return { kind: 'atomic', scalar: s };
    }
    default:
      return notType(`\`${r.reporter.source.slice(node)}\` is not a DSL type`);
  }
}
