/** WGSL typing rules of operators, over concrete types. Returns the result type or why not. */
import type { DataType } from '@syclts/dsl';
import { sameType } from '@syclts/dsl';
import type { Message } from '../../diagnostics/codes.js';
import * as msg from '../../diagnostics/frontend-messages.js';
import type { BinaryOperator } from '../../ir/device-code.js';
import {
  BOOL,
  isFloat,
  isInteger,
  isNumeric,
  matrixType,
  scalarOf,
  vectorType,
  withScalar,
} from '../resolver/types.js';

export type Typing =
  | { readonly ok: true; readonly type: DataType }
  | { readonly ok: false; readonly message: Message };
const ok = (type: DataType): Typing => ({ ok: true, type });
const no = (message: Message): Typing => ({ ok: false, message });

const ARITHMETIC = new Set<BinaryOperator>(['+', '-', '*', '/', '%']);
const COMPARISON = new Set<BinaryOperator>(['==', '!=', '<', '<=', '>', '>=']);

export function binaryType(op: BinaryOperator, l: DataType, r: DataType): Typing {
  const ls = scalarOf(l);
  const rs = scalarOf(r);
  if (op === '&&' || op === '||') {
    return l.kind === 'scalar' && ls === 'bool' && sameType(l, r)
      ? ok(BOOL)
      : no(msg.logicalOperands(op, l, r));
  }
  if (COMPARISON.has(op)) {
    if (!sameType(l, r) || ls === null) return no(msg.comparedTypes(op, l, r));
    if (ls === 'bool' && op !== '==' && op !== '!=') return no(msg.unorderedBools(op, l, r));
    return ok(withScalar(l, 'bool'));
  }
  if (ARITHMETIC.has(op)) {
    if (l.kind === 'matrix' || r.kind === 'matrix') return matrixArithmetic(op, l, r);
    if (ls === null || rs === null || !isNumeric(ls) || ls !== rs) {
      return no(msg.arithmeticOperands(op, l, r));
    }
    if (sameType(l, r)) return ok(l);
    if (l.kind === 'vector' && r.kind === 'scalar') return ok(l);
    if (l.kind === 'scalar' && r.kind === 'vector') return ok(r);
    return no(msg.vectorSizes(op, l, r));
  }
  if (op === '<<' || op === '>>') {
    if (!isInteger(ls)) return no(msg.shiftedType(op, l));
    if (!sameType(withScalar(l, 'u32'), r)) return no(msg.shiftAmount(withScalar(l, 'u32'), r));
    return ok(l);
  }
  // & | ^
  if (!sameType(l, r) || !(isInteger(ls) || (ls === 'bool' && op !== '^'))) {
    return no(msg.bitwiseOperands(op, l, r));
  }
  return ok(l);
}

function matrixArithmetic(op: BinaryOperator, l: DataType, r: DataType): Typing {
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
  return no(msg.matrixOperands(op, l, r));
}

export function unaryType(op: '-' | '!' | '~', t: DataType): Typing {
  const s = scalarOf(t);
  if (op === '!') return s === 'bool' ? ok(t) : no(msg.notOperand(t));
  if (op === '~') return isInteger(s) ? ok(t) : no(msg.complementOperand(t));
  if (s === 'i32' || isFloat(s)) return ok(t);
  return no(s === 'u32' ? msg.negatedU32() : msg.negationOperand(t));
}
