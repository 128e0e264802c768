import { bool, struct, u32, vec } from '@syclts/dsl';
import { expect, test } from 'vitest';
import {
  hostStorage,
  hostStorageParts,
  STORED,
} from '../../../src/emit/transforms/host-storage.js';
import type { Block, Expr } from '../../../src/ir/device-code.js';
import type { SymbolRef, WgslPart } from '../../../src/ir/device-object.js';
import { type IrProblem, validateKernel } from '../../../src/ir/validate.js';
import {
  accessorParam,
  assign,
  forS,
  global,
  index,
  kernelDecl,
  letS,
  lit,
  local,
  member,
  param,
  span,
  spec,
  swizzle,
  valueParam,
} from '../../support/ir.js';

const Flags = struct({ on: bool, count: u32 });
const fromHost = (place: Expr): Expr => ({ op: 'fromHost', place, type: place.type, span });
const toHost = (value: Expr): Expr => ({ op: 'toHost', value, type: value.type, span });
const launch = { launchArgs: new Set(['flag', 'flags']), emulated: false };

function transformed(body: Block, places = launch): Block {
  const out = hostStorage(body, places);
  // The result is valid IR in the kernel it came from.
  const problems: IrProblem[] = [];
  validateKernel(
    kernelDecl(
      'k',
      [valueParam('flag', bool), valueParam('flags', Flags), accessorParam('out', u32, 'write')],
      out,
    ),
    problems,
  );
  expect(problems).toEqual([]);
  return out;
}

test('a read of a device global holding bool converts the whole place read, nothing inside it', () => {
  const g = global('g', Flags);
  const on = member(g, 'on', bool);
  const count = member(g, 'count', u32);
  expect(transformed([letS('a', on), letS('b', count), letS('c', g)])).toEqual([
    letS('a', fromHost(on)),
    letS('b', count),
    letS('c', fromHost(g)),
  ]);
});

test('an index into a bool place is a value of its own and converts separately', () => {
  const mask = global('mask', vec(bool, 4));
  const bits = global('bits', vec(bool, 2));
  const picked = swizzle(mask, 'xy', vec(bool, 2));
  expect(transformed([letS('v', picked), assign(bits, picked)])).toEqual([
    letS('v', swizzle(fromHost(mask), 'xy', vec(bool, 2))),
    assign(bits, toHost(swizzle(fromHost(mask), 'xy', vec(bool, 2)))),
  ]);
});

test('a composite holding bool goes into a device global through a temporary read once', () => {
  const g = global('g', Flags);
  const value = param('flags', Flags);
  const out = transformed([assign(g, value)]);
  expect(out).toEqual([
    {
      kind: 'block',
      span,
      body: [
        { ...letS(STORED, fromHost(value)), type: Flags },
        assign(g, toHost(local(STORED, Flags))),
      ],
    },
  ]);
});

test('in a for header a composite store converts in place', () => {
  const g = global('g', Flags);
  const value = param('flags', Flags);
  const loop = forS(letS('i', lit(0), true), lit(false), assign(g, value), []);
  expect(transformed([loop])).toEqual([{ ...loop, update: assign(g, toHost(fromHost(value))) }]);
});

test('value arguments holding bool convert wherever they are read; accessors never do', () => {
  const flag = param('flag', bool);
  const out = index(param('out', u32), lit(0), u32);
  const flags = param('flags', Flags);
  expect(
    transformed([letS('a', flag), letS('b', member(flags, 'count', u32)), assign(out, lit(1))]),
  ).toEqual([
    letS('a', fromHost(flag)),
    letS('b', member(fromHost(flags), 'count', u32)),
    assign(out, lit(1)),
  ]);
});

test('specialization constants holding bool convert in the emulated variant only', () => {
  const on = spec('on', bool);
  const body = [letS('a', on)];
  expect(transformed(body, { ...launch, emulated: true })).toEqual([letS('a', fromHost(on))]);
  expect(transformed(body)).toEqual(body);
  const parts: WgslPart<SymbolRef>[] = [
    { kind: 'text', text: 'return ', span },
    { kind: 'ref', ref: { kind: 'local', name: 'on' }, span },
  ];
  const typeOf = () => bool;
  expect(hostStorageParts(parts, { ...launch, emulated: false }, typeOf)).toEqual(parts);
  expect(hostStorageParts(parts, { ...launch, emulated: true }, typeOf)[1]).toEqual({
    kind: 'value',
    expr: fromHost(spec('on', bool)),
    span,
  });
});
