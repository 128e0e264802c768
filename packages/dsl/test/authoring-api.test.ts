import { expect, expectTypeOf, test } from 'vitest';
import {
  add,
  array,
  bool,
  deviceFunction,
  deviceGlobal,
  f32,
  i32,
  mat3x3f,
  struct,
  u32,
  type Vec,
  vec3f,
  wgsl,
} from '../src/index.js';

test('scalar types are their WGSL conversions on the host', () => {
  expect(f32(0.1)).toBe(Math.fround(0.1));
  expect(i32(3.9)).toBe(3);
  expect(i32(-3.9)).toBe(-3);
  expect(i32(2 ** 32 - 1)).toBe(-1);
  expect(i32(1e12 + 0.5)).toBe(2 ** 31 - 1);
  expect(u32(-1)).toBe(2 ** 32 - 1);
  expect(u32(-0.5)).toBe(0);
  expect(u32(7.8)).toBe(7);
  expect(bool(2)).toBe(true);
  expect(bool(0)).toBe(false);
});

test('callable type descriptors serialise like plain descriptors', () => {
  expect(JSON.stringify(f32)).toBe('{"kind":"scalar","scalar":"f32"}');
  expect(JSON.parse(JSON.stringify(vec3f))).toEqual({ kind: 'vector', component: 'f32', size: 3 });
  expect(JSON.parse(JSON.stringify(mat3x3f))).toEqual({
    kind: 'matrix',
    component: 'f32',
    columns: 3,
    rows: 3,
  });
  const S = struct({ a: u32, b: array(vec3f, 2) });
  expect(JSON.parse(JSON.stringify(S))).toEqual({
    kind: 'struct',
    fields: [
      { name: 'a', type: { kind: 'scalar', scalar: 'u32' } },
      {
        name: 'b',
        type: { kind: 'array', element: { kind: 'vector', component: 'f32', size: 3 }, length: 2 },
      },
    ],
  });
  expect(S.kind).toBe('struct');
  expect(vec3f.size).toBe(3);
});

test('device-only functions explain themselves when called on the host', () => {
  const v = {} as Vec<'f32', 3>;
  expect(() => add(v, 1)).toThrow(/device code/);
  expect(() => vec3f(1, 2, 3)).toThrow(/device code/);
  const g = deviceGlobal(u32);
  expect(() => g.value).toThrow(/device code only/);
  expect(JSON.stringify(g)).not.toContain('value');
  const twice = deviceFunction({ args: [f32], returns: f32 }, (x) => x * 2);
  expect(twice.declaration).toBe('deviceFunction');
  expect(twice.returns).toBe(f32);
  expect(() => twice(1)).toThrow(/device code/);
  expect(() => wgsl`return 1.0;`).toThrow(/device code/);
});

test('device values type-check as WGSL would allow', () => {
  // Type-level assertions, checked by the typecheck step of `npm test` (tsc over the tests):
  // the marked lines must not compile, and the others must have the types asserted.
  const check = (a: Vec<'f32', 3>, b: Vec<'i32', 3>, c: Vec<'f32', 4>) => {
    const s = add(a, 2);
    const sw = c.zx;
    // @ts-expect-error f32 and i32 vectors do not mix
    add(a, b);
    // @ts-expect-error vec3 has no w
    void a.w;
    // @ts-expect-error a swizzle of a vec3 is not a vec4
    const wrong: Vec<'f32', 4> = a.xyz;
    return [s, sw, wrong, a.xyz] as const;
  };
  expectTypeOf(check).returns.toEqualTypeOf<
    readonly [Vec<'f32', 3>, Vec<'f32', 2>, Vec<'f32', 4>, Vec<'f32', 3>]
  >();
});
