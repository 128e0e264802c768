import { f32, u32 } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { signedMinMax } from '../../../src/emit/transforms/signed-min-max.js';
import type { Block } from '../../../src/ir/device-code.js';
import { assign, builtin, forS, i32, ifS, letS, lit, local, param } from '../../support/ir.js';

const vec3i = { kind: 'vector', component: 'i32', size: 3 } as const;
const x = local('x', i32);
const y = local('y', i32);
const v = local('v', vec3i);
const out = param('out', i32);

test('i32 min, max, clamp and abs, scalar and vector, call their helpers wherever they stand', () => {
  const body: Block = [
    letS('a', builtin('max', [builtin('abs', [x], i32), y], i32)),
    assign(
      out,
      builtin('min', [builtin('min', [x, y], i32), builtin('clamp', [x, y, lit(3)], i32)], i32),
    ),
    ifS(lit(true), [letS('w', builtin('abs', [v], vec3i))]),
    forS(
      letS('i', builtin('min', [x, lit(4)], i32)),
      lit(true),
      assign(out, builtin('clamp', [x, y, y], i32)),
      [assign(out, builtin('max', [v, v], vec3i))],
    ),
  ];
  expect(signedMinMax(body)).toEqual([
    letS('a', builtin('i32_max', [builtin('i32_abs', [x], i32), y], i32)),
    assign(
      out,
      builtin(
        'i32_min',
        [builtin('i32_min', [x, y], i32), builtin('i32_clamp', [x, y, lit(3)], i32)],
        i32,
      ),
    ),
    ifS(lit(true), [letS('w', builtin('i32_abs', [v], vec3i))]),
    forS(
      letS('i', builtin('i32_min', [x, lit(4)], i32)),
      lit(true),
      assign(out, builtin('i32_clamp', [x, y, y], i32)),
      [assign(out, builtin('i32_max', [v, v], vec3i))],
    ),
  ]);
});

test('f32 and u32 ones, and other built-ins on i32, stay; a block with none is returned as it is', () => {
  const body: Block = [
    letS('f', builtin('max', [local('p', f32), local('q', f32)], f32)),
    letS('u', builtin('min', [local('r', u32), local('s', u32)], u32)),
    letS('c', builtin('countOneBits', [x], i32)),
    letS('s', builtin('sign', [x], i32)),
  ];
  expect(signedMinMax(body)).toBe(body);
});
