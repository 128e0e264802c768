/**
 * An error the GPU's compiler finds in generated WGSL reads like a TypeScript error: the
 * `.sycl.ts` file, line and column, the line quoted with a caret, then the WGSL line.
 */
import { accessor, f32, kernel } from '@syclts/dsl';
import { expect, test } from 'vitest';
import { errc } from '../src/index.js';
import { compileSources } from './support/compile.js';
import { rejected } from './support/errors.js';
import { freshQueue } from './support/gpu.js';

const SOURCE = [
  "import { accessor, deviceFunction, f32, kernel, wgsl } from '@syclts/dsl';",
  '',
  '/** Returns a vector where it promised an f32: only the GPU compiler sees it. */',
  'const widen = deviceFunction({ args: [f32], returns: f32 }, (x) =>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: device source text
  '  wgsl`let y = ${x} + 1.0;',
  '    return y * vec3f(1.0);`,',
  ');',
  '',
  "export const bad = kernel({ range: 1, args: { out: accessor(f32, 'write') } }, (item, _kh, { out }) => {",
  '  out[item.getId(0)] = widen(2);',
  '});',
].join('\n');

test.each(['native', 'emulated'] as const)(
  'a WGSL type error in a raw body names its .sycl.ts line (%s)',
  async (policy) => {
    const bad = kernel({ range: 1, args: { out: accessor(f32, 'write') } }, () => {});
    compileSources([{ module: 'src/widen.sycl.ts', source: SOURCE, exports: { bad } }]);
    const q = await freshQueue({ specConstants: policy });
    const out = q.buffer(f32, 4);
    const error = await rejected(() => q.parallelFor(4, bad, { out }).wait());
    expect(error.errc).toBe(errc.build);
    const lines = error.message.split('\n');
    expect(lines[0]).toMatch(/^src\/widen\.sycl\.ts:6:5: error: /);
    expect(lines[1]).toBe('  6 |     return y * vec3f(1.0);`,');
    expect(lines[2]).toBe('    |     ^');
    expect(lines[3]).toMatch(/^ {2}WGSL \d+:\d+ \| return y \* vec3f\(1\.0\);$/);
    expect(lines.at(-1)).toMatch(
      /^kernel src\/widen\.sycl\.ts#bad: creating its (native|emulated) pipeline failed/,
    );
  },
);
