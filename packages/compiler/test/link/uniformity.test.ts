/**
 * Barriers must be reached by every item of a work-group together (WGSL's uniformity rules).
 * A kernel that breaks the rule is refused at its `.sycl.ts` line, naming the condition that
 * varies; one that keeps it builds, and Dawn accepts and runs it. The refused cases are the
 * shapes Tint refuses; the accepted ones, shapes it accepts.
 */
import { describe, expect, test } from 'vitest';
import { build } from '../../src/build.js';
import { buildProgram, runKernel } from '../frontend/gpu.js';

/** A kernel of 8 items in work-groups of 4 whose body is `body`. */
function kernelWith(body: string, fns = ''): string {
  return `import {
  accessor, atomic, atomicAdd, deviceFunction, deviceGlobal, kernel, specializationId, u32, workgroupArray, wgsl,
} from '@syclts/dsl';
// A raw WGSL function that holds a barrier, and one that reaches it when its argument is large.
const sync = deviceFunction({ args: [] }, () => wgsl\`workgroupBarrier();\`);
const syncIf = deviceFunction({ args: [u32] }, (x) => { if (x > 2) { sync(); } });
export const limit = specializationId(u32, 3);
export const counter = deviceGlobal(u32);
${fns}
export const k = kernel(
  { ndRange: 1, workgroupSize: [4], args: { out: accessor(u32, 'read_write'), src: accessor(u32, 'read'), n: u32, hits: accessor(atomic(u32), 'read_write') }, local: { shared: workgroupArray(u32, 4) } },
  (item, kh, { out, src, n, hits }, { shared }) => {
    const i = item.getGlobalId(0);
    const l = item.getLocalId(0);
${body}
    out[i] = shared[l]! + 1;
  });
`;
}

const refused: readonly [string, string, string, string?][] = [
  // [what, body, the text named first: the condition that varies, or the argument's origin]
  [
    'under a condition on storage the kernel writes',
    'if (out[i] > 3) { item.barrier(); }',
    'out[i] > 3',
  ],
  ['under a condition on the item id', 'if (l < 2) { item.barrier(); }', 'l < 2'],
  [
    'after an early return that depends on the item',
    'if (i >= n) { return; }\n    item.barrier();',
    'i >= n',
  ],
  [
    'under a condition on workgroup memory',
    'if (shared[0]! === 0) { item.barrier(); }',
    'shared[0]! === 0',
  ],
  [
    'under a condition on an atomic',
    'if (atomicAdd(hits[0]!, 1) === 0) { item.barrier(); }',
    'atomicAdd(hits[0]!, 1) === 0',
  ],
  [
    'under a condition on a device global',
    'if (counter.value === 0) { item.barrier(); }',
    'counter.value === 0',
  ],
  [
    'in a loop after a break that depends on the item',
    'for (let j = u32(0); j < n; j++) { if (l > j) { break; } item.barrier(); }',
    'l > j',
  ],
  [
    'at the top of a loop with a continue that depends on the item',
    'let j = u32(0);\n    while (j < n) { item.barrier(); j++; if (l > j) { continue; } }',
    'l > j',
  ],
  [
    'after a loop an item may return from',
    'for (let j = u32(0); j < n; j++) { if (l === j) { return; } }\n    item.barrier();',
    'l === j',
  ],
  [
    'under a local assigned under a condition that varies',
    'let x = u32(0);\n    if (l === 0) { x = 1; }\n    if (x === 0) { item.barrier(); }',
    'x === 0',
  ],
  [
    'under a loop counter advanced by the item id',
    'let j = u32(0);\n    while (j < n) { j += l; }\n    if (j === 3) { item.barrier(); }',
    'j === 3',
  ],
  [
    'through a device function whose result depends on its argument',
    'if (plusOne(l) === 1) { item.barrier(); }',
    'plusOne(l) === 1',
    'const plusOne = deviceFunction({ args: [u32], returns: u32 }, (x) => x + 1);',
  ],
  ['in a device function called where control flow varies', 'if (l === 0) { sync(); }', 'l === 0'],
  [
    'in a device function whose argument decides whether it reaches one',
    'syncIf(l + 1);',
    'item.getLocalId(0)',
  ],
];

describe('a barrier where the items of a work-group may not all arrive is refused (SYCL2020)', () => {
  test.each(refused)('%s', (_what, body, condition, fns) => {
    const source = kernelWith(body, fns);
    const { program, diagnostics } = build([{ module: 'src/u.sycl.ts', source }]);
    expect(program).toBeNull();
    const d = diagnostics.find((x) => x.code === 'SYCL2020');
    expect(d, diagnostics.map((x) => x.message).join('\n')).toBeDefined();
    expect(d!.file).toBe('src/u.sycl.ts');
    const lines = source.split('\n');
    const start = lines.findIndex((line) => line.includes('const l = '));
    const barrierLine =
      lines.findIndex((line, n) => n > start && /barrier\(\)|sync(If)?\(/.test(line)) + 1;
    expect(d!.span!.line).toBe(barrierLine);
    const varies = d!.related![0]!;
    expect(varies.message).toMatch(/varies between items: /);
    expect(source.slice(varies.span!.start, varies.span!.end)).toBe(condition);
  });
});

/** Kernels whose barriers every item reaches: each passes values between items through them. */
const accepted: readonly [string, string][] = [
  ['under a value argument', 'if (n > 2) { item.barrier(); }'],
  ['under a read-only accessor', 'if (src[0]! > 2) { item.barrier(); }'],
  [
    'under a specialization constant',
    'if (kh.getSpecializationConstant(limit) > 2) { item.barrier(); }',
  ],
  ['under the group id', 'if (item.getGroup(0) < 100) { item.barrier(); }'],
  [
    'after a loop left by a break that varies',
    'for (let j = u32(0); j < 9; j++) { if (l > j) { break; } }\n    item.barrier();',
  ],
  [
    'after an if that varies but does not leave',
    'let y = u32(0);\n    if (l === 0) { y = 2; }\n    item.barrier();\n    shared[l] = shared[l]! + y * 0;',
  ],
  [
    'under a local that varied and was then set again',
    'let x = l;\n    x = n;\n    if (x > 2) { item.barrier(); }',
  ],
  ['in a loop bounded by a value argument', 'for (let j = u32(0); j < n; j++) { item.barrier(); }'],
  ['in a raw WGSL function reached where control flow is uniform', 'sync();'],
  ['in a function whose deciding argument is uniform', 'syncIf(n);'],
];

describe('a barrier every item of the work-group reaches builds and runs', () => {
  const sources = accepted.map(([, body], k) =>
    kernelWith(
      `    shared[l] = i * 3 + ${k};\n${body}\n    shared[l] = shared[(l + 1) % 4]!;`,
    ).replace('export const k = kernel(', `export const k${k} = kernel(`),
  );
  test.each(accepted.map(([what], k) => [what, k] as const))('%s', async (_what, k) => {
    const module = `src/ok${k}.sycl.ts`;
    const program = buildProgram({ [module]: sources[k]! });
    const out = new Uint32Array(8).fill(0xdeadbeef);
    const r = await runKernel(program, {
      kernel: `${module}#k${k}`,
      range: [8],
      local: [4],
      args: { out, src: new Uint32Array([7, 1]), n: 5, hits: new Uint32Array(1) },
    });
    // Each item reads its neighbour's value, written before the barrier, plus one.
    const expected = Array.from({ length: 8 }, (_, i) => {
      const g = i - (i % 4);
      return (g + ((i + 1) % 4)) * 3 + k + 1;
    });
    expect(Array.from(new Uint32Array(r.accessors.out!))).toEqual(expected);
  });
});

test('deeply nested loops are analysed in time linear in their depth', () => {
  const depth = 40;
  const open = Array.from(
    { length: depth },
    (_, d) => `for (let j${d} = u32(0); j${d} < n; j${d}++) {`,
  ).join(' ');
  const source = kernelWith(`${open} item.barrier(); ${'}'.repeat(depth)}`);
  const started = performance.now();
  const { program, diagnostics } = build([{ module: 'src/deep.sycl.ts', source }]);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(program).not.toBeNull();
  expect(performance.now() - started).toBeLessThan(5000);
});
