/**
 * The editor and the build agree. A corpus of device-code snippets goes through TypeScript 5.9,
 * TypeScript 7 (one program each, diagnostics mapped back to snippets by file) and the syclts
 * compiler, and each snippet must get the same verdict from all three. Beside it, the mistakes
 * `parallelFor`, `singleTask` and `queue.buffer` calls can make: each must be named in both
 * TypeScript versions, not reported as a range the call never meant.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileModule } from '@syclts/compiler';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shell } from '../helpers/packed-app.js';
import { outRoot, repoRoot } from '../helpers/paths.js';

const TSC = {
  'TypeScript 5.9': join(repoRoot, 'node_modules/typescript/bin/tsc'),
  'TypeScript 7': join(repoRoot, 'node_modules/typescript7/bin/tsc'),
} as const;
type Checker = keyof typeof TSC;

const IMPORTS = `import {
  accessor, add, all, atomic, atomicAdd, deviceFunction, deviceGlobal, eq, f32,
  i32, kernel, mat2x2f, mul, neg, rem, sqrt, sub, u32, vec2f, vec3f, vec3u,
} from '@syclts/dsl';
`;

/** A kernel around `body`, with `top` above it: what each snippet of the corpus is. */
function kernelModule(body: string, top = ''): string {
  return `${IMPORTS}${top}
export const k = kernel(
  {
    range: 1,
    args: {
      src: accessor(f32, 'read'),
      out: accessor(f32, 'write'),
      vs: accessor(vec3f, 'read'),
      vo: accessor(vec3f, 'read_write'),
      counts: accessor(atomic(u32), 'read_write'),
      n: u32,
    },
  },
  (item, _kh, { src, out, vs, vo, counts, n }) => {
    const i = item.getId(0);
${body}
  },
);
`;
}

type Verdict = 'accept' | 'refuse';

/** [what the snippet does, the verdict all three must give, the kernel's body, module scope]. */
const CORPUS: readonly (readonly [string, Verdict, string, string?])[] = [
  // Vector and matrix arithmetic: the DSL's functions, not TypeScript's operators.
  ['add(a, b) on vectors', 'accept', 'vo[i] = add(vs[i], vo[i]);'],
  ['a + b on vectors', 'refuse', 'vo[i] = vs[i] + vo[i];'],
  ['sub(a, b) on vectors', 'accept', 'vo[i] = sub(vs[i], vec3f(1, 2, 3));'],
  ['a - b on vectors', 'refuse', 'vo[i] = vs[i] - vec3f(1, 2, 3);'],
  ['mul(v, s)', 'accept', 'vo[i] = mul(vs[i], 2);'],
  ['v * s', 'refuse', 'vo[i] = vs[i] * 2;'],
  ['s * v', 'refuse', 'vo[i] = 2 * vs[i];'],
  ['a / b on vectors', 'refuse', 'vo[i] = vs[i] / vo[i];'],
  ['rem(a, b) on vectors', 'accept', 'vo[i] = rem(vs[i], vec3f(2, 2, 2));'],
  ['a % b on vectors', 'refuse', 'vo[i] = vs[i] % vec3f(2, 2, 2);'],
  ['neg(v)', 'accept', 'vo[i] = neg(vs[i]);'],
  ['-v into a vector', 'refuse', 'vo[i] = -vs[i];'],
  ['-v kept, then its component', 'refuse', 'const v = -vs[i];\n    out[i] = v.x;'],
  ['+v into a vector', 'refuse', 'vo[i] = +vs[i];'],
  [
    'mul(m, v)',
    'accept',
    'const m = mat2x2f(1, 2, 3, 4);\n    vo[i] = vec3f(mul(m, vec2f(1, 2)), 0);',
  ],
  ['m * v', 'refuse', 'const m = mat2x2f(1, 2, 3, 4);\n    vo[i] = vec3f(m * vec2f(1, 2), 0);'],
  [
    'mul(m, m)',
    'accept',
    'const m = mul(mat2x2f(1, 0, 0, 1), mat2x2f(1, 2, 3, 4));\n    out[i] = m[0]!.x;',
  ],
  [
    'm + m',
    'refuse',
    'const m = mat2x2f(1, 0, 0, 1) + mat2x2f(1, 2, 3, 4);\n    out[i] = m[0]!.x;',
  ],
  [
    'u & u on vectors',
    'refuse',
    'const u = vec3u(1, 2, 3) & vec3u(3, 3, 3);\n    out[i] = f32(u.x);',
  ],
  [
    'u << u on vectors',
    'refuse',
    'const u = vec3u(1, 2, 3) << vec3u(1, 1, 1);\n    out[i] = f32(u.x);',
  ],
  ['~u kept, then its component', 'refuse', 'const u = ~vec3u(1, 2, 3);\n    out[i] = f32(u.x);'],
  // Comparisons of vectors give bool vectors.
  ['eq(a, b) with all', 'accept', 'if (all(eq(vs[i], vo[i]))) {\n      out[i] = 1;\n    }'],
  ['a < b, then a component', 'refuse', 'const lt = vs[i] < vo[i];\n    out[i] = lt.x ? 1 : 0;'],
  [
    '!b on a bool vector, then a component',
    'refuse',
    'const b = !eq(vs[i], vo[i]);\n    out[i] = b.x ? 1 : 0;',
  ],
  // Compound assignment.
  ['v = add(v, w)', 'accept', 'let v = vs[i];\n    v = add(v, vec3f(1, 1, 1));\n    vo[i] = v;'],
  ['v += w', 'refuse', 'let v = vs[i];\n    v += vec3f(1, 1, 1);\n    vo[i] = v;'],
  ['v *= s', 'refuse', 'let v = vs[i];\n    v *= 2;\n    vo[i] = v;'],
  ['v.x += s', 'accept', 'let v = vs[i];\n    v.x += 2;\n    vo[i] = v;'],
  ['s += s', 'accept', 'let s = src[i];\n    s += 1;\n    out[i] = s;'],
  ['v++', 'refuse', 'let v = vs[i];\n    v++;\n    vo[i] = v;'],
  // Bools have && and || in TypeScript.
  ['b && c', 'accept', 'const b = src[i] > 0 && n > 1;\n    out[i] = b ? 1 : 0;'],
  ['b & c', 'refuse', 'const b = (src[i] > 0) & (n > 1);\n    out[i] = b ? 1 : 0;'],
  ['b | c', 'refuse', 'const b = (src[i] > 0) | (n > 1);\n    out[i] = b ? 1 : 0;'],
  ['i & j on integers', 'accept', 'out[i] = f32((n & 3) | (i ^ 1));'],
  // Access modes and what cannot be assigned.
  ["a write to a 'read' accessor", 'refuse', 'src[i] = 1;'],
  ["a vector write to a 'read' accessor", 'refuse', 'vs[i] = vec3f(1, 2, 3);'],
  ["an increment of a 'read' accessor", 'refuse', 'src[i]++;'],
  ["a compound write to a 'read' accessor", 'refuse', 'src[i] += 1;'],
  ["a read of a 'read' accessor", 'accept', 'out[i] = src[i] * 2;'],
  ["a write to a 'read_write' accessor's component", 'accept', 'vo[i].y = 2;'],
  [
    "a 'read' accessor's element copied, then changed",
    'accept',
    'let v = vs[i];\n    v.x = 1;\n    vo[i] = v;',
  ],
  ['a const reassigned', 'refuse', 'const s = src[i];\n    s = 2;\n    out[i] = s;'],
  ['a let reassigned', 'accept', 'let s = src[i];\n    s = 2;\n    out[i] = s;'],
  [
    'a device global changed through .value',
    'accept',
    'total.value += src[i];',
    'const total = deviceGlobal(f32);\n',
  ],
  ['a device global assigned itself', 'refuse', 'total = 2;', 'const total = deviceGlobal(f32);\n'],
  // Calls.
  [
    'a device function called as declared',
    'accept',
    'out[i] = twice(src[i]);',
    'const twice = deviceFunction({ args: [f32], returns: f32 }, (x) => x * 2);\n',
  ],
  [
    'a device function given too few arguments',
    'refuse',
    'out[i] = twice();',
    'const twice = deviceFunction({ args: [f32], returns: f32 }, (x) => x * 2);\n',
  ],
  [
    'a device function given too many arguments',
    'refuse',
    'out[i] = twice(src[i], 2);',
    'const twice = deviceFunction({ args: [f32], returns: f32 }, (x) => x * 2);\n',
  ],
  ['add with one argument', 'refuse', 'vo[i] = add(vs[i]);'],
  ['a built-in given too many arguments', 'refuse', 'out[i] = sqrt(src[i], 2);'],
  ['a built-in given a bool', 'refuse', 'out[i] = sqrt(n > 1);'],
  ['an atomic on an atomic accessor', 'accept', 'atomicAdd(counts[0]!, 1);'],
  ['a vector built from a vector and a scalar', 'accept', 'vo[i] = vec3f(vec2f(1, 2), src[i]);'],
  ['a vector built from too many components', 'refuse', 'vo[i] = vec3f(1, 2, 3, 4);'],
  ['a vector built from too few components', 'refuse', 'vo[i] = vec3f(1, 2);'],
  ['a vector splat from one scalar', 'accept', 'vo[i] = vec3f(src[i]);'],
  [
    'a matrix from its columns',
    'accept',
    'const m = mat2x2f(vec2f(1, 0), vec2f(0, 1));\n    out[i] = m[1]!.y;',
  ],
  [
    'a matrix from too few elements',
    'refuse',
    'const m = mat2x2f(1, 2, 3);\n    out[i] = m[1]!.y;',
  ],
  ['an i32 local converted to f32', 'accept', 'const a = i32(n) - 1;\n    out[i] = f32(a);'],
  ['a component that vectors do not have', 'refuse', 'out[i] = vs[i].q;'],
];

/**
 * Device code the build refuses that TypeScript cannot: an operator it takes on any object, a
 * number's truthiness, WGSL's scalar types (all `number` to the editor), an element of a
 * `'read'` accessor changed in place. Each build error says what to write.
 */
const BEYOND_THE_EDITOR: readonly (readonly [string, string, string, RegExp])[] = [
  [
    'v == w as a condition',
    'if (vs[i] == vo[i]) {\n      out[i] = 1;\n    }',
    'SYCL1026',
    /use eq\(vs\[i\], vo\[i\]\)/,
  ],
  ['-v into a scalar', 'out[i] = -vs[i];', 'SYCL1026', /use neg\(vs\[i\]\)/],
  [
    'a kernel argument reassigned (a parameter to TypeScript)',
    'n = 2;\n    out[i] = f32(n);',
    'SYCL1015',
    /let nCopy = n/,
  ],
  ['a u32 as a condition', 'if (n) {\n      out[i] = 1;\n    }', 'SYCL1012', /n !== 0/],
  ['i32 + u32', 'const a = i32(1);\n    out[i] = f32(a + n);', 'SYCL1012', /convert explicitly/],
  [
    "a component of a 'read' accessor's element written",
    'vs[i].x = 1;',
    'SYCL1015',
    /'read_write'/,
  ],
];

/**
 * Mistakes in launching a kernel or making a buffer: [the mistake, the call, what both
 * TypeScript versions must say]. Each pattern names the mistake, where overloads once made
 * TypeScript 7 report "missing the following properties from type 'NdRange<1>': global, local"
 * for most of them.
 */
const LAUNCH_MISTAKES: readonly (readonly [string, string, RegExp])[] = [
  [
    'a 2-d kernel given one size',
    'queue.parallelFor(4, index2d, { out, base: 1 });',
    /Argument of type 'number' is not assignable to parameter of type 'readonly \[number, number\]'/,
  ],
  [
    'a value argument of the wrong type',
    "queue.parallelFor([2, 2], index2d, { out, base: '1' });",
    /Type 'string' is not assignable to type 'number'/,
  ],
  [
    'a missing argument',
    'queue.parallelFor([2, 2], index2d, { out });',
    /Property 'base' is missing in type '\{ out: DeviceBuffer<ScalarType<"u32">, "read_write">; \}'/,
  ],
  [
    'an extra argument',
    'queue.parallelFor([2, 2], index2d, { out, base: 1, more: 2 });',
    /Object literal may only specify known properties, and 'more' does not exist in type 'KernelArgs</,
  ],
  [
    'a misspelt argument',
    'queue.parallelFor([2, 2], index2d, { out, bsae: 1 });',
    /Object literal may only specify known properties, and 'bsae' does not exist in type 'KernelArgs</,
  ],
  [
    "a 'read' buffer for a 'write' accessor",
    'queue.parallelFor(4, fill, { out: readOnly });',
    /Type '"read"' is not assignable to type '("write" \| "read_write"|"read_write" \| "write")'/,
  ],
  [
    'a buffer of the wrong element type',
    'queue.parallelFor([2, 2], index2d, { out: floats, base: 1 });',
    /Type '"f32"' is not assignable to type '"u32"'/,
  ],
  [
    'a device global where a buffer belongs',
    'queue.parallelFor(4, fill, { out: counter });',
    /Type 'DeviceGlobal<ScalarConversion<"u32">, "read_write">' is missing the following properties from type 'DeviceBuffer</,
  ],
  [
    'a typed array where a buffer belongs',
    'queue.parallelFor(4, fill, { out: new Uint32Array(4) });',
    /Type 'Uint32Array<ArrayBuffer>' is missing the following properties from type 'DeviceBuffer</,
  ],
  [
    'an nd-range kernel given a plain range',
    'queue.parallelFor(16, groups, { out });',
    /Argument of type 'number' is not assignable to parameter of type 'NdRange<1>'/,
  ],
  [
    'a basic kernel given an nd-range',
    'queue.parallelFor(ndRange(16, 16), fill, { out });',
    /Argument of type 'NdRange<1>' is not assignable to parameter of type 'number \| readonly \[number\]'/,
  ],
  [
    'an nd-range of the wrong dimensions',
    'queue.parallelFor(ndRange([16, 1], [16, 1]), groups, { out });',
    /Argument of type 'NdRange<2>' is not assignable to parameter of type 'NdRange<1>'/,
  ],
  [
    'a handler launch with a missing argument',
    'queue.submit((cgh) => cgh.parallelFor([2, 2], index2d, { out }));',
    /Property 'base' is missing in type/,
  ],
  [
    "singleTask with a 'read' buffer for a 'write' accessor",
    'queue.singleTask(fill, { out: readOnly });',
    /Type '"read"' is not assignable to type '("write" \| "read_write"|"read_write" \| "write")'/,
  ],
  ['no arguments object', 'queue.parallelFor(4, fill);', /Expected 3 arguments, but got 2/],
  [
    "ImageData's bytes for a buffer",
    'queue.buffer(image.data);',
    /a Uint8ClampedArray does not say its element type; pass bytes such as RGBA pixels as 32-bit words: new Uint32Array\(data\.buffer, data\.byteOffset, data\.byteLength \/ 4\)/,
  ],
];

const LAUNCH_HEADER = `import { accessor, deviceGlobal, kernel, u32 } from '@syclts/dsl';
import { ndRange, type Queue } from '@syclts/runtime';

const index2d = kernel({ range: 2, args: { out: accessor(u32, 'write'), base: u32 } }, () => {});
const fill = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, () => {});
const groups = kernel(
  { ndRange: 1, workgroupSize: [16], args: { out: accessor(u32, 'write') } },
  () => {},
);
const counter = deviceGlobal(u32);

export async function launches(queue: Queue, image: ImageData) {
  const data = image.data;
  // The hint for a byte array, followed; what read() gives, back to ImageData without a cast.
  const pixels = queue.buffer(new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4));
  new ImageData(new Uint8ClampedArray((await pixels.read()).buffer), image.width, image.height);
  const out = queue.buffer(new Uint32Array(4));
  const floats = queue.buffer(new Float32Array(4));
  const readOnly = queue.buffer(u32, 4, { access: 'read' });
  queue.parallelFor([2, 2], index2d, { out, base: 1 });
  queue.parallelFor(ndRange(16, 16), groups, { out });
`;
const LAUNCH = `${LAUNCH_HEADER}${LAUNCH_MISTAKES.map(([, call]) => `  ${call}\n`).join('')}}\n`;
/** The line of the i-th mistake in launch.ts. */
const launchLine = (index: number) => LAUNCH_HEADER.split('\n').length + index;

let work: string;
/** Each checker's diagnostics, by snippet file; launch.ts's, by line. */
const errors: Record<Checker, Map<string, string[]>> = {
  'TypeScript 5.9': new Map(),
  'TypeScript 7': new Map(),
};

const snippetFile = (index: number) => `snippets/s${String(index).padStart(3, '0')}.sycl.ts`;
const beyondFile = (index: number) => `snippets/b${String(index).padStart(3, '0')}.sycl.ts`;

beforeAll(async () => {
  await mkdir(outRoot, { recursive: true });
  work = await mkdtemp(join(outRoot, 'types-'));
  await mkdir(join(work, 'snippets'));
  await symlink(join(repoRoot, 'node_modules'), join(work, 'node_modules'), 'dir');
  await Promise.all([
    ...CORPUS.map(([, , body, top], index) =>
      writeFile(join(work, snippetFile(index)), kernelModule(body, top)),
    ),
    ...BEYOND_THE_EDITOR.map(([, body], index) =>
      writeFile(join(work, beyondFile(index)), kernelModule(body)),
    ),
    writeFile(join(work, 'launch.ts'), LAUNCH),
    writeFile(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        // The starter's options: what a new project type-checks with.
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'bundler',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          isolatedModules: true,
          skipLibCheck: true,
        },
        include: ['snippets', 'launch.ts'],
      }),
    ),
  ]);
  for (const checker of Object.keys(TSC) as Checker[]) {
    const { stdout } = await shell(`node ${TSC[checker]} -p tsconfig.json --pretty false`, work);
    // One diagnostic per unindented line (`file(line,col): error TSnnnn: ...`), its details indented below.
    for (const diagnostic of stdout.split(/\n(?=\S)/).filter(Boolean)) {
      const where = /^([^(]+)\((\d+),\d+\)/.exec(diagnostic);
      if (!where) throw new Error(`${checker}: unexpected output: ${diagnostic}`);
      const key = where[1] === 'launch.ts' ? `launch.ts:${where[2]}` : where[1]!;
      errors[checker].set(key, [...(errors[checker].get(key) ?? []), diagnostic]);
    }
  }
}, 300_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

function buildVerdict(
  source: string,
  file: string,
): { verdict: Verdict; codes: string[]; text: string } {
  const { diagnostics } = compileModule(source, { module: file });
  const errorsOnly = diagnostics.filter((d) => d.severity === 'error');
  return {
    verdict: errorsOnly.length === 0 ? 'accept' : 'refuse',
    codes: errorsOnly.map((d) => d.code),
    text: errorsOnly.map((d) => `${d.message} (${d.hint ?? ''})`).join('\n'),
  };
}

describe('device code: TypeScript 5.9, TypeScript 7 and the build give one verdict', () => {
  test('the corpus has a refused and an accepted side', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(CORPUS.filter((c) => c[1] === 'accept').length).toBeGreaterThan(10);
    expect(CORPUS.filter((c) => c[1] === 'refuse').length).toBeGreaterThan(10);
  });

  test.each(CORPUS.map((c, index) => [c[0], c[1], index] as const))(
    '%s: %s',
    (_, verdict, index) => {
      const [, , body, top] = CORPUS[index]!;
      const file = snippetFile(index);
      const build = buildVerdict(kernelModule(body, top), file);
      const verdicts = {
        build: build.verdict,
        'TypeScript 5.9': errors['TypeScript 5.9'].has(file) ? 'refuse' : 'accept',
        'TypeScript 7': errors['TypeScript 7'].has(file) ? 'refuse' : 'accept',
      };
      const detail = [build.text, ...(errors['TypeScript 5.9'].get(file) ?? [])].join('\n');
      expect(verdicts, detail).toEqual({
        build: verdict,
        'TypeScript 5.9': verdict,
        'TypeScript 7': verdict,
      });
    },
  );

  test.each(BEYOND_THE_EDITOR.map((c, index) => [c[0], index] as const))(
    'beyond the editor, the build refuses with what to write: %s',
    (_, index) => {
      const [, body, code, hint] = BEYOND_THE_EDITOR[index]!;
      const file = beyondFile(index);
      expect(errors['TypeScript 5.9'].get(file)).toBeUndefined();
      expect(errors['TypeScript 7'].get(file)).toBeUndefined();
      const build = buildVerdict(kernelModule(body), file);
      expect(build.codes).toEqual([code]);
      expect(build.text).toMatch(hint);
    },
  );
});

describe('launch and buffer mistakes are named in TypeScript 5.9 and 7', () => {
  test('correct launches and buffers type-check', () => {
    const header = LAUNCH_HEADER.split('\n').length - 1;
    for (const checker of Object.keys(TSC) as Checker[]) {
      const early = [...errors[checker].keys()].filter(
        (key) => key.startsWith('launch.ts:') && Number(key.slice(10)) <= header,
      );
      expect(early, checker).toEqual([]);
    }
  });

  test.each(LAUNCH_MISTAKES.map(([mistake], index) => [mistake, index] as const))(
    '%s',
    (_, index) => {
      const [, , named] = LAUNCH_MISTAKES[index]!;
      for (const checker of Object.keys(TSC) as Checker[]) {
        const reported = errors[checker].get(`launch.ts:${launchLine(index)}`) ?? [];
        expect(reported, checker).toHaveLength(1);
        expect(reported[0], checker).toMatch(named);
        expect(reported[0], checker).not.toMatch(/No overload matches|global, local/);
      }
    },
  );
});
