/**
 * Operators TypeScript does not have for vectors, matrices or bools (SYCL1026): each is refused
 * at its place with the spelling the editor takes, and that spelling builds.
 */
import { expect, test } from 'vitest';
import { compileModule } from '../../src/index.js';

const source = (
  body: string,
) => `import { accessor, add, all, eq, kernel, mat2x2f, mul, neg, sub, u32, vec2f, vec3b, vec3f, vec3u } from '@syclts/dsl';
export const k = kernel({ range: 1, args: { v: accessor(vec3f, 'read_write'), n: u32 } }, (item, kh, { v, n }) => {
  const i = item.getId(0);
  ${body}
});
`;

/** [the body, what is highlighted, the message, the hint, the body the hint gives]. */
const cases: readonly (readonly [string, string, string, string, string])[] = [
  [
    'v[i] = v[i] + vec3f(1, 2, 3);',
    'v[i] + vec3f(1, 2, 3)',
    'vectors have no `+` operator in TypeScript (vec3<f32> + vec3<f32>)',
    'use add(v[i], vec3f(1, 2, 3))',
    'v[i] = add(v[i], vec3f(1, 2, 3));',
  ],
  [
    'v[i] = 2 * v[i];',
    '2 * v[i]',
    'vectors have no `*` operator in TypeScript (f32 * vec3<f32>)',
    'use mul(2, v[i])',
    'v[i] = mul(2, v[i]);',
  ],
  [
    'v[i] = vec3f(mat2x2f(1, 2, 3, 4) * vec2f(1, 0), 0);',
    'mat2x2f(1, 2, 3, 4) * vec2f(1, 0)',
    'matrices have no `*` operator in TypeScript (mat2x2<f32> * vec2<f32>)',
    'use mul(mat2x2f(1, 2, 3, 4), vec2f(1, 0))',
    'v[i] = vec3f(mul(mat2x2f(1, 2, 3, 4), vec2f(1, 0)), 0);',
  ],
  [
    'v[i] = -v[i];',
    '-v[i]',
    'vectors have no unary `-` in TypeScript, which types `-v[i]` as a number',
    'use neg(v[i])',
    'v[i] = neg(v[i]);',
  ],
  [
    'if (v[i] == vec3f(0, 0, 0)) { v[i].x = 1; }',
    'v[i] == vec3f(0, 0, 0)',
    'vectors have no `==` operator in TypeScript (vec3<f32> == vec3<f32>)',
    'use eq(v[i], vec3f(0, 0, 0)), a bool vector (all(...) or any(...) make one bool of it)',
    'if (all(eq(v[i], vec3f(0, 0, 0)))) { v[i].x = 1; }',
  ],
  [
    'const b = !vec3b(true, false, true);',
    '!vec3b(true, false, true)',
    'vectors have no unary `!` in TypeScript, which types `!vec3b(true, false, true)` as a boolean',
    'use eq(vec3b(true, false, true), vec3b(false))',
    'const b = eq(vec3b(true, false, true), vec3b(false));',
  ],
  [
    'let w = v[i];\n  w -= vec3f(1, 1, 1);\n  v[i] = w;',
    'w -= vec3f(1, 1, 1)',
    'vectors have no `-=` operator in TypeScript (vec3<f32> `w`)',
    'write w = sub(w, vec3f(1, 1, 1))',
    'let w = v[i];\n  w = sub(w, vec3f(1, 1, 1));\n  v[i] = w;',
  ],
  [
    'const u = vec3u(1, 2, 3) & vec3u(1, 1, 1);',
    'vec3u(1, 2, 3) & vec3u(1, 1, 1)',
    'vectors have no `&` operator in TypeScript (vec3<u32> & vec3<u32>)',
    'apply it to each component: vec3u(1, 2, 3).x & vec3u(1, 1, 1).x, ...',
    'const u = vec3u(1 & 1, 2 & 1, 3 & 1);',
  ],
  [
    'const b = (i > 0) | (n > 1);',
    '(i > 0) | (n > 1)',
    'bools have no `|` operator in TypeScript',
    'use (i > 0) || (n > 1)',
    'const b = (i > 0) || (n > 1);',
  ],
  [
    'const b = (i > 0) ^ (n > 1);',
    '(i > 0) ^ (n > 1)',
    'bools have no `^` operator in TypeScript',
    'use (i > 0) !== (n > 1)',
    'const b = (i > 0) !== (n > 1);',
  ],
];

test.each(cases)('%s', (body, highlighted, message, hint, fixed) => {
  const text = source(body);
  const { diagnostics } = compileModule(text, { module: 'src/ops.sycl.ts' });
  expect(
    diagnostics.map((d) => [d.code, text.slice(d.span!.start, d.span!.end), d.message, d.hint]),
  ).toEqual([['SYCL1026', highlighted, message, hint]]);
  const built = compileModule(source(fixed), { module: 'src/ops.sycl.ts' });
  expect(built.diagnostics).toEqual([]);
  expect(built.object).not.toBeNull();
});
