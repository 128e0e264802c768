import {
  accessor,
  add,
  all,
  any,
  cross,
  div,
  dot,
  f32,
  gt,
  i32,
  kernel,
  length,
  mul,
  neg,
  normalize,
  select,
  sub,
  vec2i,
  vec3f,
  vec4f,
} from '@syclts/dsl';

/** Vector arithmetic through the DSL functions, swizzles and constructors. */
export const vectorOps = kernel(
  {
    range: 1,
    args: {
      a: accessor(vec4f, 'read'),
      b: accessor(vec4f, 'read'),
      out: accessor(vec4f, 'write'),
      k: f32,
    },
  },
  (item, _kh, { a, b, out, k }) => {
    const i = item.getId(0);
    const u = a[i]!;
    const v = b[i]!;
    const s = add(mul(u.xyz, k), v.zyx);
    const c = cross(normalize(u.xyz), sub(v.xyz, vec3f(1, 2, 3)));
    out[i] = vec4f(add(s, c), dot(u, v) + length(v.xy));
  },
);

/** Swizzle reads, component writes, vector comparisons with select/all/any. */
export const swizzles = kernel(
  { range: 1, args: { a: accessor(vec4f, 'read'), out: accessor(vec4f, 'write') } },
  (item, _kh, { a, out }) => {
    const i = item.getId(0);
    const v = a[i]!.wzyx;
    v.x = v.y + 1;
    v[2] = v.r * 2;
    const positive = gt(v, vec4f(0));
    const picked = select(vec4f(-1), v, positive);
    out[i] = all(positive) ? vec4f(picked.xy, 100, 100) : any(positive) ? picked : neg(v);
  },
);

/** Integer vectors: construction from scalars, splats, arithmetic with scalars. */
export const intVectors = kernel(
  { range: 1, args: { out: accessor(vec2i, 'write'), k: i32 } },
  (item, _kh, { out, k }) => {
    const i = i32(item.getId(0));
    const a = vec2i(i, -i);
    const b = add(mul(a, k), vec2i(3));
    out[item.getId(0)] = sub(b, div(vec2i(100, 50), vec2i(7, 3)));
  },
);
