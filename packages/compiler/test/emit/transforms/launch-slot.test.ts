import { u32 } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { passLaunchSlot } from '../../../src/emit/transforms/launch-slot.js';
import type { Block, Expr, UpdateStmt } from '../../../src/ir/device-code.js';
import type { SymbolRef } from '../../../src/ir/device-object.js';
import {
  assign,
  bin,
  call,
  exprS,
  forS,
  ifS,
  letS,
  lit,
  param,
  ref,
  span,
} from '../../support/ir.js';

const reads = ref('reads');
const other = ref('other');
const out = param('out', u32);
const slot: Expr<SymbolRef> = { op: 'launchSlot', type: { kind: 'scalar', scalar: 'u32' }, span };
const callStmt = (callee: SymbolRef, args: Expr<SymbolRef>[]): UpdateStmt<SymbolRef> => ({
  kind: 'call',
  callee,
  args,
  span,
});

test('every call of a function that takes the slot passes it, as an expression and as a statement', () => {
  const body: Block = [
    letS('a', call(reads, [lit(1)], u32)),
    callStmt(reads, [lit(2)]),
    assign(out, bin('+', call(reads, [call(reads, [lit(3)], u32)], u32), lit(4))),
    ifS(lit(true), [callStmt(reads, [])]),
    forS(letS('i', lit(0)), lit(false), callStmt(reads, [lit(5)]), [exprS(call(reads, [], u32))]),
  ];
  expect(passLaunchSlot(body, new Set([reads]))).toEqual([
    letS('a', call(reads, [lit(1), slot], u32)),
    callStmt(reads, [lit(2), slot]),
    assign(out, bin('+', call(reads, [call(reads, [lit(3), slot], u32), slot], u32), lit(4))),
    ifS(lit(true), [callStmt(reads, [slot])]),
    forS(letS('i', lit(0)), lit(false), callStmt(reads, [lit(5), slot]), [
      exprS(call(reads, [slot], u32)),
    ]),
  ]);
});

test('calls of other functions, and a variant where no function takes the slot, stay', () => {
  const body: Block = [callStmt(other, [lit(1)]), letS('b', call(other, [], u32))];
  expect(passLaunchSlot(body, new Set([reads]))).toEqual(body);
  expect(passLaunchSlot(body, new Set())).toBe(body);
});
