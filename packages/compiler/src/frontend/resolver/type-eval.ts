/** Type expressions (`f32`, `vec(f32, 3)`, `struct({...})`, aliases) evaluated to data types. */
import type { DataType, StructField } from '@syclts/dsl';
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import { nestDepth, WGSL_LIMITS } from '../../ir/wgsl-limits.js';
import { type Expression, propertyName, unwrap } from '../ast.js';
import { evalConst } from './const-eval.js';
import { DSL_TYPE_NAMES, isMatrixDim, isVectorSize } from './dsl-names.js';
import type { Resolver } from './resolver.js';
import { arrayType, isInteger, matrixType, scalarOf, structType, vectorType } from './types.js';

/** Evaluates a type expression to a DSL data type. Reports what is not one. */
export function evalType(r: Resolver, input: Expression): DataType | null {
  const node = unwrap(input);
  const notType = (message: Message): null => {
    r.reporter.error(node, message);
    return null;
  };
  if (node.type === 'Identifier' || node.type === 'MemberExpression') {
    const entity = r.entityOf(node);
    if (!entity) {
      return notType(msg.notAType(r.reporter.source.slice(node)));
    }
    switch (entity.kind) {
      case 'type':
        return entity.type;
      case 'dsl': {
        const type = DSL_TYPE_NAMES.get(entity.name);
        if (type) return type;
        return notType(msg.dslExportNotAType(entity.name));
      }
      case 'opaque':
        // The alias's own errors, at their place; the use adds nothing.
        if (entity.badType && r.reportBadType(entity.badType)) {
          r.reporter.alreadyReported();
          return null;
        }
        if (r.top.bindings.get(r.reporter.source.slice(node))?.kind === 'import') {
          r.reporter.error(node, msg.unresolvedType(r.reporter.source.slice(node), entity.why));
          return null;
        }
        return notType(msg.notAType(r.reporter.source.slice(node), entity.why));
      default:
        return notType(msg.declarationNotAType(r.reporter.source.slice(node), entity.kind));
    }
  }
  if (node.type !== 'CallExpression') {
    return notType(msg.notAType(r.reporter.source.slice(node)));
  }
  const callee = r.dslName(node.callee);
  const args = node.arguments;
  const arg = (i: number): Expression | null => {
    const a = args[i];
    return a && a.type !== 'SpreadElement' ? a : null;
  };
  const intArg = (i: number, argument: msg.TypeArgument): number | null => {
    const a = arg(i);
    const v = a ? evalConst(r, a) : null;
    if (v?.kind === 'number' && !v.float && Number.isInteger(v.value)) return v.value;
    r.reporter.error(a ?? node, msg.typeArgumentNotInteger(argument));
    return null;
  };
  // Reported at the level that passes the limit; the levels around it see no type.
  const nested = (type: DataType): DataType | null => {
    const depth = nestDepth(type);
    if (depth <= WGSL_LIMITS.typeNesting) return type;
    r.reporter.error(node, msg.typeNesting(depth, WGSL_LIMITS.typeNesting));
    return null;
  };
  switch (callee) {
    case 'vec': {
      const component = arg(0) ? evalType(r, arg(0)!) : null;
      const size = intArg(1, 'vectorSize');
      if (!component || size === null) return null;
      if (component.kind !== 'scalar') {
        return notType(msg.vectorComponentNotScalar());
      }
      if (!isVectorSize(size)) return notType(msg.vectorSize(size));
      return vectorType(component.scalar, size);
    }
    case 'mat': {
      const columns = intArg(0, 'columns');
      const rows = intArg(1, 'rows');
      if (columns === null || rows === null) return null;
      if (!isMatrixDim(columns) || !isMatrixDim(rows)) {
        return notType(msg.matrixSize(columns, rows));
      }
      return matrixType(columns, rows);
    }
    case 'array': {
      const element = arg(0) ? evalType(r, arg(0)!) : null;
      const length = intArg(1, 'arrayLength');
      if (!element || length === null) return null;
      if (length < 1) return notType(msg.emptyArrayType(length));
      return nested(arrayType(element, length));
    }
    case 'struct': {
      const shape = arg(0) ? unwrap(arg(0)!) : null;
      if (shape?.type !== 'ObjectExpression' || shape.properties.length === 0) {
        return notType(msg.structNotObject());
      }
      const fields: StructField[] = [];
      for (const p of shape.properties) {
        const name = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
        if (p.type !== 'Property' || name === null || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
          r.reporter.error(p, msg.structFieldName());
          return null;
        }
        if (fields.some((f) => f.name === name)) {
          r.reporter.error(p, msg.duplicateField(name));
          return null;
        }
        const type = r.reporter.inContext(msg.inStructField(name), () => evalType(r, p.value));
        if (!type) return null;
        fields.push({ name, type });
      }
      if (fields.length > WGSL_LIMITS.structMembers) {
        r.reporter.error(node, msg.structMembers(fields.length, WGSL_LIMITS.structMembers));
        return null;
      }
      return nested(structType(fields));
    }
    case 'atomic': {
      const inner = arg(0) ? evalType(r, arg(0)!) : null;
      if (!inner) return null;
      const s = scalarOf(inner);
      // f32 is held as the bits of an atomic<u32> (emit/print/atomics.ts).
      if (inner.kind !== 'scalar' || !(isInteger(s) || s === 'f32')) {
        return notType(msg.atomicType());
      }
      return { kind: 'atomic', scalar: s };
    }
    default:
      return notType(msg.notAType(r.reporter.source.slice(node)));
  }
}
