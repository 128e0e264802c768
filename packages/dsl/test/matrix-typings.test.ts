/** The joint-matrix functions' typings (checked by tsc): shapes, uses and types must fit. */
import { expect, expectTypeOf, test } from 'vitest';
import {
  type Accumulator,
  type DeviceAccessor,
  type DeviceArray,
  f16,
  f32,
  i32,
  type JointMatrix,
  jointMatrix,
  jointMatrixApply,
  jointMatrixFill,
  jointMatrixLoad,
  jointMatrixMad,
  jointMatrixStore,
  type ScalarType,
  type SubGroup,
} from '../src/index.js';

test('a matrix carries its use, element type, shape and layout; the functions refuse what does not fit', () => {
  const typed = () => {
    const sg = {} as SubGroup;
    const halves = {} as DeviceAccessor<ScalarType<'f16'>>;
    const tile = {} as DeviceArray<number>;
    const a = jointMatrix(sg, 'a', f16, 16, 8);
    const b = jointMatrix(sg, 'b', f16, 8, 16, 'colMajor');
    const c = jointMatrix(sg, 'accumulator', f32, 16, 16);
    expectTypeOf(a).toEqualTypeOf<JointMatrix<'a', 'f16', 16, 8, 'rowMajor'>>();
    expectTypeOf(b).toEqualTypeOf<JointMatrix<'b', 'f16', 8, 16, 'colMajor'>>();
    expectTypeOf(c).toEqualTypeOf<Accumulator<'f32', 16, 16>>();
    jointMatrixLoad(sg, a, halves, 0, 8);
    jointMatrixLoad(sg, b, tile, 0, 16);
    jointMatrixLoad(sg, c, tile, 0, 16, 'rowMajor');
    jointMatrixFill(sg, c, 0);
    jointMatrixMad(sg, c, a, b, c);
    jointMatrixApply(sg, c, '*', 0.5);
    jointMatrixStore(sg, c, tile, 0, 16, 'colMajor');
    const wide = jointMatrix(sg, 'b', f16, 16, 16);
    const ints = jointMatrix(sg, 'accumulator', i32, 16, 16);
    // @ts-expect-error: b must have a's columns as its rows
    jointMatrixMad(sg, c, a, wide, c);
    // @ts-expect-error: the product's operands in the wrong places
    jointMatrixMad(sg, c, b, a, c);
    // @ts-expect-error: d and c hold one element type
    jointMatrixMad(sg, ints, a, b, c);
    // @ts-expect-error: only accumulators are stored
    jointMatrixStore(sg, a, tile, 0, 16, 'rowMajor');
    // @ts-expect-error: an accumulator's load names its layout
    jointMatrixLoad(sg, c, tile, 0, 16);
    // @ts-expect-error: an accumulator has no layout of its own
    jointMatrix(sg, 'accumulator', f32, 16, 16, 'rowMajor');
    // @ts-expect-error: no such use
    jointMatrix(sg, 'c', f32, 16, 16);
    // @ts-expect-error: WGSL's matrices have no element-wise division
    jointMatrixApply(sg, c, '/', 2);
  };
  expect(typed).toThrow('jointMatrix is device code');
});
