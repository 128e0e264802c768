/** WGSL typing rules of operators, over concrete types. Returns the result type or why not. */
import type { DataType } from '@syclts/dsl';
import { sameType } from '@syclts/dsl';
import type { BinaryOperator } from '../../ir/device-code.js';
import {
  BOOL,
  isFloat,
  isInteger,
  isNumeric,
  matrixType,
  scalarOf,
  typeName,
  vectorType,
  withScalar,
} from '../resolver/types.js';

export type Typing =
  | { readonly ok: true; readonly type: DataType }
  | { readonly ok: false; readonly why: string };
const ok = (type: DataType): Typing => ({ ok: true, type });
const no = (why: string): Typing => ({ ok: false, why });

const ARITHMETIC = new Set<BinaryOperator>(['+', '-', '*', '/', '%']);
const COMPARISON = new Set<BinaryOperator>(['==', '!=', '<', '<=', '>', '>=']);

export function binaryType(op: BinaryOperator, l: DataType, r: DataType): Typing {
  const ls = scalarOf(l);
  const rs = scalarOf(r);
  const pair = `${typeName(l)} ${op} ${typeName(r)}`;
  if (op === '&&' || op === '||') {
    return l.kind === 'scalar' && ls === 'bool' && sameType(l, r)
      ? ok(BOOL)
      : no(`\`${op}\` takes two bool scalars, not ${pair}`);
  }
  if (COMPARISON.has(op)) {
    if (!sameType(l, r) || ls === null) return no(`cannot compare ${pair}: the types differ`);
    if (ls === 'bool' && op !== '==' && op !== '!=') return no(`bools are not ordered (${pair})`);
    return ok(withScalar(l, 'bool'));
  }
  if (ARITHMETIC.has(op)) {
    if (l.kind === 'matrix' || r.kind === 'matrix') return matrixArithmetic(op, l, r, pair);
    if (ls === null || rs === null || !isNumeric(ls) || ls !== rs) {
      return no(`\`${op}\` needs numbers of one type, not ${pair}`);
    }
    if (sameType(l, r)) return ok(l);
    if (l.kind === 'vector' && r.kind === 'scalar') return ok(l);
    if (l.kind === 'scalar' && r.kind === 'vector') return ok(r);
    return no(`vector sizes differ in ${pair}`);
  }
  if (op === '<<' || op === '>>') {
    if (!isInteger(ls)) return no(`\`${op}\` shifts an i32 or u32, not ${typeName(l)}`);
    if (!sameType(withScalar(l, 'u32'), r)) {
      return no(`the shift amount must be ${typeName(withScalar(l, 'u32'))}, not ${typeName(r)}`);
    }
    return ok(l);
  }
  // & | ^
  if (!sameType(l, r) || !(isInteger(ls) || (ls === 'bool' && op !== '^'))) {
    return no(`\`${op}\` needs two integers of one type, not ${pair}`);
  }
  return ok(l);
}

function matrixArithmetic(op: BinaryOperator, l: DataType, r: DataType, pair: string): Typing {
  if ((op === '+' || op === '-') && sameType(l, r)) return ok(l);
  if (op === '*') {
    if (l.kind === 'matrix' && r.kind === 'scalar' && r.scalar === 'f32') return ok(l);
    if (r.kind === 'matrix' && l.kind === 'scalar' && l.scalar === 'f32') return ok(r);
    if (
      l.kind === 'matrix' &&
      r.kind === 'vector' &&
      r.component === 'f32' &&
      r.size === l.columns
    ) {
      return ok(vectorType('f32', l.rows));
    }
    if (r.kind === 'matrix' && l.kind === 'vector' && l.component === 'f32' && l.size === r.rows) {
      return ok(vectorType('f32', r.columns));
    }
    if (l.kind === 'matrix' && r.kind === 'matrix' && l.columns === r.rows) {
      return ok(matrixType(r.columns, l.rows));
    }
  }
  return no(`\`${op}\` is not defined for ${pair}`);
}

export function unaryType(op: '-' | '!' | '~', t: DataType): Typing {
  const s = scalarOf(t);
  if (op === '!') return s === 'bool' ? ok(t) : no(`\`!\` negates a bool, not ${typeName(t)}`);
  if (op === '~') return isInteger(s) ? ok(t) : no(`\`~\` needs an i32 or u32, not ${typeName(t)}`);
  if (s === 'i32' || isFloat(s)) return ok(t);
  return no(
    s === 'u32'
      ? 'a u32 cannot be negated in WGSL'
      : `\`-\` needs an i32, f32 or f16 value, not ${typeName(t)}`,
  );
}
