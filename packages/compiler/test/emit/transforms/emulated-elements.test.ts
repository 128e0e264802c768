import { array, f32, struct, u32, vec } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { emulatedElements } from '../../../src/emit/transforms/emulated-elements.js';
import type { Block, Expr } from '../../../src/ir/device-code.js';
import type { SymbolRef } from '../../../src/ir/device-object.js';
import {
  assign,
  bin,
  forS,
  ifS,
  increment,
  index,
  letS,
  lit,
  local,
  param,
  spec,
} from '../../support/ir.js';

const Taps = array(f32, 9);
const taps = spec('taps', Taps);
const out = param('out', f32);
const at = (i: number | Expr<SymbolRef>) => index(local('c', Taps), i, f32);

test('a let of an array constant read only by index goes; each read indexes the constant', () => {
  const k = local('k', u32);
  const body: Block = [
    letS('c', taps),
    forS(letS('k', lit(0, u32), true), bin('<', k, lit(9, u32)), increment(k), [
      assign(out, bin('+', at(k), at(0), f32)),
    ]),
    ifS(lit(true), [assign(out, at(8))]),
  ];
  expect(emulatedElements(body, true)).toEqual([
    forS(letS('k', lit(0, u32), true), bin('<', k, lit(9, u32)), increment(k), [
      assign(out, bin('+', index(taps, k, f32), index(taps, 0, f32), f32)),
    ]),
    ifS(lit(true), [assign(out, index(taps, 8, f32))]),
  ]);
});

test('a let also used whole stays, its index reads still read the constant', () => {
  const body: Block = [letS('c', taps), letS('copy', local('c', Taps)), assign(out, at(2))];
  expect(emulatedElements(body, true)).toEqual([
    letS('c', taps),
    letS('copy', local('c', Taps)),
    assign(out, index(taps, 2, f32)),
  ]);
});

test('a shadowing local of the same name is not the constant', () => {
  const inner: Block = [letS('c', param('other', Taps)), assign(out, at(1))];
  const body: Block = [letS('c', taps), ifS(lit(true), inner), assign(out, at(3))];
  expect(emulatedElements(body, true)).toEqual([
    ifS(lit(true), inner),
    assign(out, index(taps, 3, f32)),
  ]);
});

test('arrays of other elements are read in place only where the record is not held as words', () => {
  const Pairs = array(vec(f32, 2), 4);
  const Shapes = array(struct({ a: f32, b: u32 }), 2);
  for (const type of [Pairs, Shapes]) {
    const read: Block = [
      letS('c', spec('v', type)),
      assign(out, index(local('c', type), 1, type.element)),
    ];
    const direct: Block = [assign(out, index(spec('v', type), 1, type.element))];
    expect(emulatedElements(read, true)).toEqual(read);
    expect(emulatedElements(read, false)).toEqual(direct);
  }
});

test('a var holding the constant, and a let of a scalar or vector constant, stay', () => {
  const body: Block = [
    letS('c', taps, true),
    letS('s', spec('s', f32)),
    letS('v', spec('v', vec(f32, 4))),
    assign(out, at(1)),
  ];
  expect(emulatedElements(body, true)).toBe(body);
});
