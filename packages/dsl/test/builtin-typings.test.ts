/** The built-ins' TypeScript typings, derived from the table's overloads (checked by tsc). */
import { expect, expectTypeOf, test } from 'vitest';
import {
  type AtomicType,
  all,
  atomic,
  atomicAdd,
  atomicCompareExchangeWeak,
  atomicMin,
  atomicOr,
  atomicXor,
  bitcastU32,
  clamp,
  cross,
  type DeviceArray,
  type DeviceGlobal,
  type DeviceValue,
  determinant,
  dot,
  f32,
  type Group,
  jointAllOf,
  jointAnyOf,
  jointExclusiveScan,
  jointInclusiveScan,
  jointNoneOf,
  jointReduce,
  length,
  type Mat,
  maximum,
  min,
  pack2x16float,
  pack4x8unorm,
  pack4xI8Clamp,
  plus,
  select,
  sqrt,
  transpose,
  unpack2x16snorm,
  unpack4x8unorm,
  unpack4xU8,
  type Vec,
} from '../src/index.js';

test('overloads keep the vector type, give scalars where the table says, and refuse others', () => {
  type V3 = Vec<'f32', 3>;
  const v = {} as V3;
  // Never called: the built-ins only run on the device.
  const typed = () => {
    expectTypeOf(sqrt(v)).toEqualTypeOf<V3>();
    expectTypeOf(sqrt(2)).toEqualTypeOf<number>();
    expectTypeOf(dot(v, v)).toEqualTypeOf<number>();
    expectTypeOf(cross(v, v)).toEqualTypeOf<V3>();
    expectTypeOf(min({} as Vec<'i32', 2>, {} as Vec<'i32', 2>)).toEqualTypeOf<Vec<'i32', 2>>();
    expectTypeOf(select(v, v, {} as Vec<'bool', 3>)).toEqualTypeOf<V3>();
    expectTypeOf(select(1, 2, true)).toEqualTypeOf<number>();
    expectTypeOf(all({} as Vec<'bool', 4>)).toEqualTypeOf<boolean>();
    expectTypeOf(transpose({} as Mat<2, 3>)).toEqualTypeOf<Mat<3, 2>>();
    expectTypeOf(determinant({} as Mat<3, 3>)).toEqualTypeOf<number>();
    expectTypeOf(length(v)).toEqualTypeOf<number>();
    expectTypeOf(bitcastU32(1.5)).toEqualTypeOf<number>();
    // @ts-expect-error: no overload of clamp takes a vector and two scalars
    clamp(v, 0, 1);
    // @ts-expect-error: sqrt takes floats only
    sqrt({} as Vec<'i32', 2>);
    // @ts-expect-error: select of a vec3 with a vec2 condition
    select(v, v, {} as Vec<'bool', 2>);
  };
  expect(typed).toThrow('sqrt is device code');
});

test('pack takes the vector of its size and element type and gives a u32; unpack gives that vector', () => {
  const typed = () => {
    expectTypeOf(pack4x8unorm({} as Vec<'f32', 4>)).toEqualTypeOf<number>();
    expectTypeOf(pack2x16float({} as Vec<'f32', 2>)).toEqualTypeOf<number>();
    expectTypeOf(pack4xI8Clamp({} as Vec<'i32', 4>)).toEqualTypeOf<number>();
    expectTypeOf(unpack4x8unorm(0x80ff00ff)).toEqualTypeOf<Vec<'f32', 4>>();
    expectTypeOf(unpack2x16snorm(1)).toEqualTypeOf<Vec<'f32', 2>>();
    expectTypeOf(unpack4xU8(1)).toEqualTypeOf<Vec<'u32', 4>>();
    expectTypeOf(unpack4x8unorm(1).x).toEqualTypeOf<number>();
    // @ts-expect-error: pack4x8unorm takes a vec4f, not a vec3f
    pack4x8unorm({} as Vec<'f32', 3>);
    // @ts-expect-error: nor a vec4i
    pack4x8unorm({} as Vec<'i32', 4>);
    // @ts-expect-error: pack2x16float takes a vec2f
    pack2x16float({} as Vec<'f32', 4>);
    // @ts-expect-error: pack4xI8Clamp takes a vec4i
    pack4xI8Clamp({} as Vec<'u32', 4>);
    // @ts-expect-error: unpack takes a u32, a number
    unpack4x8unorm({} as Vec<'u32', 4>);
  };
  expect(typed).toThrow('pack4x8unorm is device code');
});

test('atomic(f32) places take add, sub, min, max, load, store, exchange and compare-exchange, not bit operations', () => {
  const typed = () => {
    const place = {} as DeviceValue<AtomicType<'f32'>>;
    const global = {} as DeviceGlobal<AtomicType<'f32'>>;
    expectTypeOf(atomicAdd(place, 1.5)).toEqualTypeOf<number>();
    expectTypeOf(atomicMin(global, -0)).toEqualTypeOf<number>();
    expectTypeOf(atomicCompareExchangeWeak(place, 0, 1).exchanged).toEqualTypeOf<boolean>();
    expectTypeOf(atomicOr({} as DeviceValue<AtomicType<'u32'>>, 1)).toEqualTypeOf<number>();
    // @ts-expect-error: atomicOr combines integer bits (SYCL1025 in the build)
    atomicOr(place, 1);
    // @ts-expect-error: so does atomicXor
    atomicXor(global, 1);
  };
  expect(typed).toThrow('atomicAdd is device code');
  expect(atomic(f32)).toEqual({ kind: 'atomic', scalar: 'f32' });
});

test('joint algorithms take workgroup arrays; the scans give nothing; the predicates compare or read bools', () => {
  const typed = () => {
    const g = {} as Group<1>;
    const xs = {} as DeviceArray<number>;
    const vs = {} as DeviceArray<Vec<'f32', 4>>;
    const flags = {} as DeviceArray<boolean>;
    expectTypeOf(jointReduce(g, xs, plus)).toEqualTypeOf<number>();
    expectTypeOf(jointReduce(g, vs, {} as Vec<'f32', 4>, maximum)).toEqualTypeOf<Vec<'f32', 4>>();
    expectTypeOf(jointExclusiveScan(g, xs, xs, 0, plus)).toEqualTypeOf<void>();
    expectTypeOf(jointInclusiveScan(g, vs, vs, plus)).toEqualTypeOf<void>();
    expectTypeOf(jointAnyOf(g, xs, '>', 0)).toEqualTypeOf<boolean>();
    expectTypeOf(jointAllOf(g, flags)).toEqualTypeOf<boolean>();
    // @ts-expect-error: no such comparison
    jointNoneOf(g, xs, '=>', 0);
    // @ts-expect-error: numbers need a comparison and a value
    jointAnyOf(g, xs);
    // @ts-expect-error: the output of another element type
    jointInclusiveScan(g, xs, vs, plus);
  };
  expect(typed).toThrow('jointReduce is device code');
});
