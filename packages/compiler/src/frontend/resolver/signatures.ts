/** `deviceFunction`'s signature object: parameter and return types, checked. */
import type { DataType } from '@syclts/dsl';
import { type Expression, propertyName, unwrap } from '../ast.js';
import { codes } from '../report.js';
import type { FunctionSignature } from './module-scope.js';
import type { Resolver } from './resolver.js';
import { evalType } from './type-eval.js';

/** `{ args: [T...], returns?: T }` of `deviceFunction`. Reports problems. */
export function functionSignature(r: Resolver, specNode: Expression): FunctionSignature | null {
  const spec = unwrap(specNode);
  if (spec.type !== 'ObjectExpression') {
    r.reporter.error(
      codes.badFunctionSpec,
      spec,
      'the first argument of deviceFunction must be an object literal',
      'write deviceFunction({ args: [f32, f32], returns: f32 }, (a, b) => ...)',
    );
    return null;
  }
  let params: (DataType | 'handler')[] | null = [];
  let returns: DataType | null = null;
  let sawArgs = false;
  for (const p of spec.properties) {
    const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
    if (p.type !== 'Property' || (key !== 'args' && key !== 'returns')) {
      r.reporter.error(
        codes.badFunctionSpec,
        p,
        'deviceFunction takes only `args` and `returns`',
        'write deviceFunction({ args: [f32, f32], returns: f32 }, (a, b) => ...)',
      );
      return null;
    }
    if (key === 'returns') {
      returns = evalType(r, p.value);
      if (!returns) return null;
      continue;
    }
    sawArgs = true;
    const list = unwrap(p.value);
    if (list.type !== 'ArrayExpression') {
      r.reporter.error(
        codes.badFunctionSpec,
        p.value,
        '`args` must be an array literal of DSL types, one per parameter',
        'write args: [f32, vec3f]',
      );
      return null;
    }
    for (const element of list.elements) {
      if (!element || element.type === 'SpreadElement') {
        r.reporter.error(codes.badFunctionSpec, list, '`args` must list one type per parameter');
        params = null;
        break;
      }
      if (r.dslName(element) === 'kernelHandler') {
        if (params?.includes('handler')) {
          r.reporter.error(
            codes.badFunctionSpec,
            element,
            'a device function takes the kernel handler once',
          );
          params = null;
        } else {
          params?.push('handler');
        }
        continue;
      }
      const t = evalType(r, element);
      if (!t) params = null;
      else params?.push(t);
    }
  }
  if (!sawArgs) {
    r.reporter.error(
      codes.badFunctionSpec,
      spec,
      'deviceFunction needs `args`',
      'write args: [] for a function without parameters',
    );
    return null;
  }
  return params ? { params, returns } : null;
}
