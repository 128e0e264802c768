/** Constant expressions folded at build time: literals, top-level consts, `Math` constants. */
import { type Expression, propertyName, unwrap } from '../ast.js';
import {
  type ConstValue,
  exactInt,
  foldNumeric,
  intConst,
  num,
  type Semantics,
} from './constants.js';
import { abstractInt } from './numbers.js';
import type { Resolver } from './resolver.js';

/**
 * Folds a constant expression, or returns null (silently) when it is not one. Top-level
 * values are host values and fold with JavaScript semantics ('host'); constant expressions
 * written in device code fold as WGSL abstract values ('device': integer division truncates).
 */
export function evalConst(
  r: Resolver,
  input: Expression,
  semantics: Semantics = 'host',
): ConstValue | null {
  const node = unwrap(input);
  switch (node.type) {
    case 'Literal':
      if (typeof node.value === 'number') {
        const raw = (node.raw ?? '').replace(/_/g, '');
        if (/[.eE]/.test(raw) && !/^0[xX]/.test(raw)) return num(node.value, true);
        // Integer literals are exact (WGSL's abstract integers are 64-bit, doubles are not).
        return semantics === 'device' &&
          !Number.isSafeInteger(node.value) &&
          /^(0[xXbBoO])?[0-9a-fA-F]+$/.test(raw)
          ? intConst(BigInt(raw))
          : num(node.value, false);
      }
      if (typeof node.value === 'boolean') return { kind: 'bool', value: node.value };
      if (typeof node.value === 'string') return { kind: 'string', value: node.value };
      return null;
    case 'Identifier': {
      const e = r.entity(node.name);
      // A host value: it fits no WGSL constant, and only a reduction's identity takes it.
      if (!e && node.name === 'Infinity' && semantics === 'host') return num(Infinity, true);
      return e?.kind === 'constant' ? e.value : null;
    }
    case 'MemberExpression': {
      if (!node.computed && node.object.type === 'Identifier' && node.object.name === 'Math') {
        const v = MATH_CONSTANTS.get(node.property.type === 'Identifier' ? node.property.name : '');
        return v === undefined || r.top.bindings.has('Math') ? null : num(v, true);
      }
      if (
        !node.computed &&
        semantics === 'host' &&
        node.object.type === 'Identifier' &&
        node.object.name === 'Number' &&
        !r.top.bindings.has('Number')
      ) {
        const v = NUMBER_INFINITIES.get(
          node.property.type === 'Identifier' ? node.property.name : '',
        );
        return v === undefined ? null : num(v, true);
      }
      const base = evalConst(r, node.object, semantics);
      if (!base) return null;
      if (node.computed) {
        const index = evalConst(r, node.property as Expression, semantics);
        if (base.kind === 'array' && index?.kind === 'number') {
          return base.items[index.value] ?? null;
        }
        return null;
      }
      if (base.kind === 'object' && node.property.type === 'Identifier') {
        return base.fields.get(node.property.name) ?? null;
      }
      if (base.kind === 'array' && node.property.type === 'Identifier') {
        return node.property.name === 'length' ? num(base.items.length, false) : null;
      }
      return null;
    }
    case 'UnaryExpression': {
      const v = evalConst(r, node.argument, semantics);
      if (!v) return null;
      if (node.operator === '!' && v.kind === 'bool') return { kind: 'bool', value: !v.value };
      if (v.kind !== 'number') return null;
      if (node.operator === '+') return v;
      if (semantics === 'host' || v.float || !Number.isInteger(v.value)) {
        if (node.operator === '-') return num(-v.value, v.float);
        return node.operator === '~' && !v.float ? num(~v.value, false) : null;
      }
      // WGSL abstract integers: exact, within 64 bits.
      if (node.operator !== '-' && node.operator !== '~') return null;
      const small = node.operator === '-' ? -v.value : -v.value - 1;
      if (v.exact === undefined && Number.isSafeInteger(small)) return num(small, false);
      const folded = abstractInt(node.operator === '-' ? -exactInt(v) : ~exactInt(v));
      return folded.ok ? intConst(folded.value) : null;
    }
    case 'BinaryExpression': {
      const a = evalConst(r, node.left as Expression, semantics);
      const b = evalConst(r, node.right, semantics);
      if (a?.kind === 'number' && b?.kind === 'number') {
        return foldNumeric(node.operator, a, b, semantics);
      }
      if (a?.kind === 'bool' && b?.kind === 'bool') {
        if (node.operator === '===' || node.operator === '==') {
          return { kind: 'bool', value: a.value === b.value };
        }
        if (node.operator === '!==' || node.operator === '!=') {
          return { kind: 'bool', value: a.value !== b.value };
        }
      }
      return null;
    }
    case 'LogicalExpression': {
      const a = evalConst(r, node.left, semantics);
      const b = evalConst(r, node.right, semantics);
      if (a?.kind !== 'bool' || b?.kind !== 'bool') return null;
      if (node.operator === '&&') return { kind: 'bool', value: a.value && b.value };
      if (node.operator === '||') return { kind: 'bool', value: a.value || b.value };
      return null;
    }
    case 'ConditionalExpression': {
      const c = evalConst(r, node.test, semantics);
      if (c?.kind !== 'bool') return null;
      return evalConst(r, c.value ? node.consequent : node.alternate, semantics);
    }
    case 'ArrayExpression': {
      const items: ConstValue[] = [];
      for (const e of node.elements) {
        if (!e || e.type === 'SpreadElement') return null;
        const v = evalConst(r, e, semantics);
        if (!v) return null;
        items.push(v);
      }
      return { kind: 'array', items };
    }
    case 'ObjectExpression': {
      const fields = new Map<string, ConstValue>();
      for (const p of node.properties) {
        if (p.type !== 'Property' || p.kind !== 'init' || p.method) return null;
        const key = propertyName(p.key, p.computed);
        if (key === null) return null;
        const v = evalConst(r, p.value, semantics);
        if (!v) return null;
        fields.set(key, v);
      }
      return { kind: 'object', fields };
    }
    default:
      return null;
  }
}

const NUMBER_INFINITIES: ReadonlyMap<string, number> = new Map([
  ['POSITIVE_INFINITY', Infinity],
  ['NEGATIVE_INFINITY', -Infinity],
]);

export const MATH_CONSTANTS: ReadonlyMap<string, number> = new Map([
  ['PI', Math.PI],
  ['E', Math.E],
  ['LN2', Math.LN2],
  ['LN10', Math.LN10],
  ['LOG2E', Math.LOG2E],
  ['LOG10E', Math.LOG10E],
  ['SQRT2', Math.SQRT2],
  ['SQRT1_2', Math.SQRT1_2],
]);
