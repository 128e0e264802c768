import {
  accessor,
  determinant,
  f32,
  kernel,
  mat2x2f,
  mat3x3f,
  mul,
  transpose,
  vec2f,
  vec3f,
} from '@syclts/dsl';

/** Matrix construction, matrix-vector and matrix-matrix products, transpose, determinant. */
export const matrices = kernel(
  {
    range: 1,
    args: { m: accessor(mat3x3f, 'read'), v: accessor(vec3f, 'read'), out: accessor(f32, 'write') },
  },
  (item, _kh, { m, v, out }) => {
    const i = item.getId(0);
    const a = m[i]!;
    const x = v[i]!;
    const y = mul(a, x);
    const t = mul(transpose(a), a);
    const r = mul(x, mat3x3f(vec3f(1, 0, 0), vec3f(0, 2, 0), vec3f(0, 0, 3)));
    const small = mat2x2f(1, 2, 3, 4);
    const z = mul(small, vec2f(x.x, x.y));
    const base = i * 8;
    out[base] = y.x;
    out[base + 1] = y.y;
    out[base + 2] = y.z;
    out[base + 3] = t[1]![2]!;
    out[base + 4] = determinant(a);
    out[base + 5] = r.z + a[2]!.x;
    out[base + 6] = z.x - z.y;
    out[base + 7] = determinant(mul(small, 2));
  },
);
