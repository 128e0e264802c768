/** `deviceFunction`'s signature object: parameter and return types, checked. */
import type { DataType } from '@syclts/dsl';
import * as msg from '../../diagnostics/frontend-messages.js';
import { type Expression, propertyName, unwrap } from '../ast.js';
import type { FunctionSignature } from './module-scope.js';
import type { Resolver } from './resolver.js';
import { evalType } from './type-eval.js';

/** `{ args: [T...], returns?: T }` of `deviceFunction`. Reports problems. */
export function functionSignature(r: Resolver, specNode: Expression): FunctionSignature | null {
  const spec = unwrap(specNode);
  if (spec.type !== 'ObjectExpression') {
    r.reporter.error(spec, msg.functionSpecNotObject());
    return null;
  }
  let params: (DataType | 'handler')[] | null = [];
  let returns: DataType | null = null;
  let sawArgs = false;
  for (const p of spec.properties) {
    const key = p.type === 'Property' ? propertyName(p.key, p.computed) : null;
    if (p.type !== 'Property' || (key !== 'args' && key !== 'returns')) {
      r.reporter.error(p, msg.functionSpecEntry());
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
      r.reporter.error(p.value, msg.functionArgsNotArray());
      return null;
    }
    for (const element of list.elements) {
      if (!element || element.type === 'SpreadElement') {
        r.reporter.error(list, msg.functionArgsEntry());
        params = null;
        break;
      }
      if (r.dslName(element) === 'kernelHandler') {
        if (params?.includes('handler')) {
          r.reporter.error(element, msg.handlerTwice());
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
    r.reporter.error(spec, msg.missingFunctionArgs());
    return null;
  }
  return params ? { params, returns } : null;
}
