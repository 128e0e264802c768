import { u32 } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { inlinePipelineConstants } from '../../../src/emit/transforms/pipeline-constants.js';
import type { Block } from '../../../src/ir/device-code.js';
import { assign, bin, forS, ifS, letS, lit, local, param, spec } from '../../support/ir.js';

const n = spec('n', u32);
const out = param('out', u32);

test('a fixed integer let is replaced at each use by its initializer; the let stays', () => {
  const body: Block = [
    letS('m', bin('*', n, lit(2))),
    letS('k', bin('+', local('m', u32), lit(1))),
    assign(out, local('k', u32)),
  ];
  const fixed = bin('+', bin('*', n, lit(2)), lit(1));
  expect(inlinePipelineConstants(body, true)).toEqual([
    body[0],
    letS('k', fixed),
    assign(out, fixed),
  ]);
});

test('in the emulated variant a specialization constant is a run-time value', () => {
  const body: Block = [letS('m', n), assign(out, local('m', u32))];
  expect(inlinePipelineConstants(body, false)).toEqual(body);
  // Literals alone are fixed in both variants.
  const literal: Block = [letS('m', lit(4)), assign(out, local('m', u32))];
  expect(inlinePipelineConstants(literal, false)).toEqual([literal[0], assign(out, lit(4))]);
});

test('a shadowing let, a var and arithmetic that could fail at pipeline creation stay', () => {
  const body: Block = [
    letS('m', n),
    ifS(lit(true), [letS('m', out), assign(out, local('m', u32))]),
    assign(out, local('m', u32)),
    letS('v', n, true),
    letS('d', bin('/', lit(8), n)),
    letS('z', bin('%', n, lit(0))),
    letS('s', bin('<<', n, lit(3))),
    assign(out, bin('+', local('v', u32), bin('+', local('d', u32), local('z', u32)))),
    assign(out, local('s', u32)),
  ];
  expect(inlinePipelineConstants(body, true)).toEqual([
    ...body.slice(0, 2),
    assign(out, n),
    ...body.slice(3, 7),
    body[7],
    assign(out, bin('<<', n, lit(3))),
  ]);
});

test('a for header let is fixed in its loop only', () => {
  const update = assign(out, local('i', u32));
  const loop = forS(letS('i', lit(3)), bin('<', local('i', u32), n), update, [update]);
  const after = assign(out, local('i', u32));
  expect(inlinePipelineConstants([loop, after], true)).toEqual([
    {
      ...loop,
      condition: bin('<', lit(3), n),
      update: assign(out, lit(3)),
      body: [assign(out, lit(3))],
    },
    after,
  ]);
});

test('a folded argument is fixed like a constant; an argument left unfolded stays a run-time value', () => {
  const size = param('size', u32);
  const body: Block = [
    letS('m', bin('*', size, lit(2))),
    letS('k', bin('*', out, lit(2))),
    assign(out, bin('+', local('m', u32), local('k', u32))),
  ];
  expect(inlinePipelineConstants(body, true, new Set(['size']))).toEqual([
    body[0],
    body[1],
    assign(out, bin('+', bin('*', size, lit(2)), local('k', u32))),
  ]);
  expect(inlinePipelineConstants(body, true)).toEqual(body);
});
