/**
 * Joint matrices: every refusal at its place with its code (SYCL1040 to SYCL1044, SYCL1014 for a
 * count of arguments, SYCL2020 for a call not every item reaches), the native lowering's WGSL as
 * printed, and the plain lowering's WGSL accepted by Dawn.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { build } from '../../src/build.js';
import { interpretKernel } from '../../src/interpret/index.js';
import { gpu } from '../support/gpu.js';
import { linkSources } from './gpu.js';

const M = 'src/m.sycl.ts';

function kernelWith(body: string, spec = 'ndRange: 1, workgroupSize: [64]'): string {
  return `import {
  accessor, array, f16, f32, i32, jointMatrix, jointMatrixApply, jointMatrixFill, jointMatrixLoad,
  jointMatrixMad, jointMatrixStore, kernel, u32, vec2f, deviceFunction,
} from '@syclts/dsl';
export const k = kernel(
  { ${spec}, args: { a: accessor(f32, 'read'), out: accessor(f32, 'read_write'), ro: accessor(f32, 'read'), n: accessor(u32, 'read_write') }${spec.startsWith('range') ? '' : ', local: { tile: workgroupArray(f32, 256), ints: workgroupArray(i32, 64), regions: workgroupArray(array(f32, 256), 2) }'} },
  (item, kh, { a, out, ro, n }${spec.startsWith('range') ? '' : ', local'}) => {
    const sg = item.getSubGroup();
${body}
  });
`.replace('deviceFunction,', 'deviceFunction, workgroupArray,');
}

function diagnosticsOf(body: string, spec?: string) {
  const source = kernelWith(body, spec);
  const { diagnostics } = build([{ module: M, source }]);
  return diagnostics.map((d) => ({
    code: d.code,
    message: d.message,
    text: d.span ? source.slice(d.span.start, d.span.end) : null,
  }));
}

const A = "const ma = jointMatrix(sg, 'a', f32, 8, 8);";
const B = "const mb = jointMatrix(sg, 'b', f32, 8, 8);";
const C = "const mc = jointMatrix(sg, 'accumulator', f32, 8, 8);";

describe('joint matrices used wrongly are refused at their place', () => {
  // [what, body, code, message (a part), the text the span covers]
  const cases: readonly [string, string, string, string, string][] = [
    [
      'in a basic kernel',
      "const m = jointMatrix(item.getSubGroup(), 'a', f32, 8, 8);",
      'SYCL1040',
      "`jointMatrix` is used outside an nd-range kernel's body",
      "jointMatrix(item.getSubGroup(), 'a', f32, 8, 8)",
    ],
    [
      'over the work-group',
      "const m = jointMatrix(item.getGroup(), 'a', f32, 8, 8);",
      'SYCL1040',
      "`jointMatrix` takes the item's sub-group first, not `item.getGroup()`",
      'item.getGroup()',
    ],
    [
      'a use that is none',
      "const m = jointMatrix(sg, 'c', f32, 8, 8);",
      'SYCL1041',
      "a joint matrix's use is 'a', 'b' or 'accumulator', not `'c'`",
      "'c'",
    ],
    [
      'an element type it cannot hold',
      "const m = jointMatrix(sg, 'a', vec2f, 8, 8);",
      'SYCL1041',
      'a joint matrix holds f16, f32, i32 or u32, not `vec2f`',
      'vec2f',
    ],
    [
      'rows that are no constant',
      "const m = jointMatrix(sg, 'a', f32, n[0]!, 8);",
      'SYCL1041',
      "a joint matrix's rows must be an integer constant from 1 to 64, not `n[0]!`",
      'n[0]!',
    ],
    [
      'too many columns',
      "const m = jointMatrix(sg, 'b', f32, 8, 65);",
      'SYCL1041',
      "a joint matrix's columns must be an integer constant from 1 to 64, not `65`",
      '65',
    ],
    [
      'a layout that is none',
      "const m = jointMatrix(sg, 'b', f32, 8, 8, 'diagonal');",
      'SYCL1041',
      "a joint matrix layout is 'rowMajor' or 'colMajor', not `'diagonal'`",
      "'diagonal'",
    ],
    [
      'a layout on an accumulator',
      "const m = jointMatrix(sg, 'accumulator', f32, 8, 8, 'rowMajor');",
      'SYCL1041',
      'an accumulator has no layout of its own',
      "'rowMajor'",
    ],
    [
      'an element-wise operation WGSL has not',
      `${C}\n    jointMatrixApply(sg, mc, '/', 2);`,
      'SYCL1041',
      "jointMatrixApply applies '+', '-' or '*', not `'/'`",
      "'/'",
    ],
    [
      'a matrix read as a value',
      `${C}\n    const copy = mc;`,
      'SYCL1042',
      '`mc` is a joint matrix, not a value',
      'mc',
    ],
    [
      'a matrix chosen by ?:',
      `${A}\n    ${B}\n    const m = n[0]! > 0 ? ma : mb;`,
      'SYCL1042',
      '`ma` is a joint matrix, not a value',
      'ma',
    ],
    [
      'a matrix function used as a value',
      `${C}\n    out[0] = jointMatrixFill(sg, mc, 1);`,
      'SYCL1042',
      '`jointMatrixFill(...)` gives no value: call it as a statement',
      'jointMatrixFill(sg, mc, 1)',
    ],
    [
      'a declaration that is not the whole initializer',
      "const m = [jointMatrix(sg, 'a', f32, 8, 8)];",
      'SYCL1042',
      '`jointMatrix(...)` declares a matrix',
      "jointMatrix(sg, 'a', f32, 8, 8)",
    ],
    [
      'something else where a matrix belongs',
      'jointMatrixFill(sg, out, 1);',
      'SYCL1042',
      'argument 2 of `jointMatrixFill` is a joint matrix, not `out`',
      'out',
    ],
    [
      "a declaration in a loop's header",
      "for (let m = jointMatrix(sg, 'a', f32, 8, 8); ; ) { break; }",
      'SYCL1042',
      "a joint matrix is declared in a for loop's header",
      "let m = jointMatrix(sg, 'a', f32, 8, 8)",
    ],
    [
      'a product of mismatched shapes',
      `${C}\n    const ma = jointMatrix(sg, 'a', f32, 8, 4);\n    ${B}\n    jointMatrixMad(sg, mc, ma, mb, mc);`,
      'SYCL1043',
      "a is 8 × 4 and b 8 × 8: a's columns are b's rows",
      'jointMatrixMad(sg, mc, ma, mb, mc)',
    ],
    [
      'operands of the wrong use',
      `${A}\n    ${B}\n    ${C}\n    jointMatrixMad(sg, mc, mb, ma, mc);`,
      'SYCL1043',
      "`a` is a matrix of use 'b', not 'a'",
      'jointMatrixMad(sg, mc, mb, ma, mc)',
    ],
    [
      'an f32 product into i32',
      `${A}\n    ${B}\n    const mc = jointMatrix(sg, 'accumulator', i32, 8, 8);\n    jointMatrixMad(sg, mc, ma, mb, mc);`,
      'SYCL1043',
      'f32 matrices multiply into f32, not i32',
      'jointMatrixMad(sg, mc, ma, mb, mc)',
    ],
    [
      'a store of an a',
      `${A}\n    jointMatrixStore(sg, ma, out, 0, 8, 'rowMajor');`,
      'SYCL1043',
      "`ma` is a matrix of use 'a': jointMatrixStore stores accumulators",
      'ma',
    ],
    [
      "an accumulator's load without a layout",
      `${C}\n    jointMatrixLoad(sg, mc, a, 0, 8);`,
      'SYCL1043',
      '`mc` is an accumulator: `jointMatrixLoad` takes its layout last',
      'jointMatrixLoad(sg, mc, a, 0, 8)',
    ],
    [
      "an a's load with a layout",
      `${A}\n    jointMatrixLoad(sg, ma, a, 0, 8, 'colMajor');`,
      'SYCL1043',
      '`ma` has its layout in its type',
      "'colMajor'",
    ],
    [
      'memory that is a value',
      `${A}\n    jointMatrixLoad(sg, ma, a[0]!, 0, 8);`,
      'SYCL1044',
      "`jointMatrixLoad` takes a kernel's accessor or workgroup array, or an element of one that is an array, not `a[0]!`",
      'a[0]!',
    ],
    [
      'an element of a region',
      `${A}\n    jointMatrixLoad(sg, ma, local.regions[0]![1]!, 0, 8);`,
      'SYCL1044',
      'not `local.regions[0]![1]!`',
      'local.regions[0]![1]!',
    ],
    [
      'a region of another element type',
      `${C}\n    const mi = jointMatrix(sg, 'accumulator', i32, 8, 8);\n    jointMatrixStore(sg, mi, local.regions[1]!, 0, 8, 'rowMajor');`,
      'SYCL1044',
      "`local.regions[1]!` holds f32, and `jointMatrixStore`'s matrix i32",
      'local.regions[1]!',
    ],
    [
      'memory of another element type',
      `${A}\n    jointMatrixLoad(sg, ma, local.ints, 0, 8);`,
      'SYCL1044',
      "`local.ints` holds i32, and `jointMatrixLoad`'s matrix f32",
      'local.ints',
    ],
    [
      'a store into a read-only accessor',
      `${C}\n    jointMatrixStore(sg, mc, ro, 0, 8, 'rowMajor');`,
      'SYCL1044',
      '`ro` is a read-only accessor: jointMatrixStore writes it',
      'ro',
    ],
    [
      'a count of arguments',
      `${C}\n    jointMatrixFill(sg, mc);`,
      'SYCL1014',
      'jointMatrixFill takes 3 argument(s), not 2',
      'jointMatrixFill(sg, mc)',
    ],
  ];
  test.each(cases)('%s', (what, body, code, message, text) => {
    const spec = what === 'in a basic kernel' ? 'range: 1' : undefined;
    const found = diagnosticsOf(`    ${body}`, spec);
    // A basic kernel also refuses its \`item.getSubGroup()\` first (SYCL1030).
    const first = found.find((d) => d.code === code);
    expect(first?.code, JSON.stringify(found)).toBe(code);
    expect(first?.message).toContain(message);
    expect(first?.text).toBe(text);
  });

  test('in a device function (SYCL1040)', () => {
    const source = `import { deviceFunction, f32, jointMatrix, jointMatrixFill, kernel, type SubGroup } from '@syclts/dsl';
export const f = deviceFunction({ args: [f32], returns: f32 }, (x) => {
  jointMatrixFill(undefined as unknown as SubGroup, undefined as never, x);
  return x;
});`;
    const { diagnostics } = build([{ module: M, source }]);
    expect(diagnostics[0]?.code).toBe('SYCL1040');
    expect(diagnostics[0]?.message).toContain('`jointMatrixFill` is used outside');
  });
});

describe('a joint-matrix call not every item reaches is refused (SYCL2020)', () => {
  const refused: readonly [string, string, string][] = [
    [
      'under a condition on the item',
      `${C}\n    if (item.getGlobalId(0) < 10) { jointMatrixFill(sg, mc, 1); }`,
      'jointMatrixFill(sg, mc, 1)',
    ],
    [
      'in a loop bounded by storage',
      `${A}\n    for (let i = u32(0); i < n[0]!; i++) { jointMatrixLoad(sg, ma, a, i * 64, 8); }`,
      'jointMatrixLoad(sg, ma, a, i * 64, 8)',
    ],
  ];
  test.each(refused)('%s', (_what, body, text) => {
    const found = diagnosticsOf(`    ${body}`);
    expect(found.map((d) => d.code)).toEqual(['SYCL2020']);
    expect(found[0]!.text).toBe(text);
    expect(found[0]!.message).toMatch(/must be reached by every item of the work-group together/);
  });
});

const PRODUCT = `
    const s = item.getGroup().getGroupLinearId() * sg.getGroupRange() + sg.getGroupId();
    const ma = jointMatrix(sg, 'a', f16, 16, 16);
    const mb = jointMatrix(sg, 'b', f16, 16, 16, 'colMajor');
    const mc = jointMatrix(sg, 'accumulator', f32, 16, 16);
    jointMatrixFill(sg, mc, 0);
    for (let k = u32(0); k < 64; k += 16) {
      jointMatrixLoad(sg, ma, halves, s * 1024 + k, 64);
      jointMatrixLoad(sg, mb, halves, k, 64);
      jointMatrixMad(sg, mc, ma, mb, mc);
    }
    jointMatrixApply(sg, mc, '*', 0.5);
    jointMatrixStore(sg, mc, out, s * 256, 16, 'rowMajor');
    jointMatrixLoad(sg, mc, local.tile, 0, 16, 'colMajor');
    jointMatrixStore(sg, mc, local.regions[sg.getGroupId() % 2]!, 0, 16, 'rowMajor');`;

function productSource(): string {
  return kernelWith(PRODUCT)
    .replace("a: accessor(f32, 'read')", "halves: accessor(f16, 'read')")
    .replace('{ a, out, ro, n }', '{ halves, out }');
}

test('the native lowering: the subgroup-matrix built-ins, the extension enabled', () => {
  const { program, diagnostics } = build([{ module: M, source: productSource() }]);
  expect(diagnostics).toEqual([]);
  const native = program!.images[0]!.wgsl.native!;
  expect(native).toMatch(
    /^enable f16;\nenable subgroups;\nenable chromium_experimental_subgroup_matrix;$/m,
  );
  const body = native.slice(native.indexOf('  let s: u32'), native.lastIndexOf('}'));
  expect(body).toBe(
    [
      '  let s: u32 = (wid.x * sg_count) + sg_id;',
      '  var ma = subgroup_matrix_left<f16, 16, 16>();',
      '  var mb = subgroup_matrix_right<f16, 16, 16>();',
      '  var mc = subgroup_matrix_result<f32, 16, 16>();',
      '  mc = subgroup_matrix_result<f32, 16, 16>(0.0f);',
      '  for (var k: u32 = 0u; k < 64u; k += 16u) {',
      '    ma = subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&a_k_halves, (s * 1024u) + k, 64u);',
      '    mb = subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, col_major>(&a_k_halves, k, 64u);',
      '    mc = subgroupMatrixMultiplyAccumulate(ma, mb, mc);',
      '  }',
      '  mc = subgroupMatrixScalarMultiply(mc, 0.5f);',
      '  subgroupMatrixStore<row_major>(&a_k_out, s * 256u, mc, 16u);',
      '  mc = subgroupMatrixLoad<subgroup_matrix_result<f32, 16, 16>, col_major>(&wg_k_tile, 0u, 16u);',
      '  subgroupMatrixStore<row_major>(&wg_k_regions[sg_id % 2u], 0u, mc, 16u);',
      '',
    ].join('\n'),
  );
  expect(Object.values(program!.images[0]!.kernels)[0]!.jointMatrices).toEqual({
    matrices: [
      { use: 'a', element: 'f16', rows: 16, columns: 16 },
      { use: 'b', element: 'f16', rows: 16, columns: 16 },
      { use: 'accumulator', element: 'f32', rows: 16, columns: 16 },
    ],
    products: [{ element: 'f16', result: 'f32', m: 16, n: 16, k: 16 }],
  });
});

test('the plain lowering of every operation is WGSL Dawn accepts', async () => {
  const source = kernelWith(`
    const s = item.getGroup().getGroupLinearId() * sg.getGroupRange() + sg.getGroupId();
    const ma = jointMatrix(sg, 'a', f32, 8, 16, 'colMajor');
    const mb = jointMatrix(sg, 'b', f32, 16, 4);
    const mc = jointMatrix(sg, 'accumulator', f32, 8, 4);
    const mi = jointMatrix(sg, 'accumulator', i32, 8, 8);
    jointMatrixFill(sg, mc, 2);
    jointMatrixLoad(sg, ma, a, s * 128, 8);
    jointMatrixLoad(sg, mb, local.tile, 0, 4);
    jointMatrixMad(sg, mc, ma, mb, mc);
    jointMatrixApply(sg, mc, '-', 1);
    jointMatrixStore(sg, mc, out, s * 32, 8, 'colMajor');
    jointMatrixLoad(sg, mi, local.ints, 0, 8, 'rowMajor');
    jointMatrixApply(sg, mi, '+', 3);
    jointMatrixStore(sg, mi, local.ints, 0, 8, 'rowMajor');
    jointMatrixStore(sg, mc, local.regions[s % 2]!, 8, 4, 'colMajor');
    jointMatrixLoad(sg, mb, local.regions[1]!, 16, 4);
    jointMatrixLoad(sg, mb, local.regions[i32(s) % 2]!, 0, 4);`);
  const { program, diagnostics } = build([{ module: M, source }], { specConstants: 'both' });
  expect(diagnostics).toEqual([]);
  const image = program!.images[0]!;
  const { device } = await gpu();
  for (const code of [
    image.workgroupLowering!.wgsl.native!,
    image.workgroupLowering!.wgsl.emulated!,
  ]) {
    expect(code).not.toContain('subgroup_matrix');
    const module = device.createShaderModule({ code });
    const { messages } = await module.getCompilationInfo();
    expect(messages.filter((m) => m.type === 'error')).toEqual([]);
  }
});

test("docs/device-code.md's example builds: f16 products into f32 on the built-ins", () => {
  const docs = readFileSync(new URL('../../../../docs/device-code.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('## Matrices (joint_matrix) and f16'));
  const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const { program, diagnostics } = build([{ module: M, source: example }], { validateIr: true });
  expect(diagnostics).toEqual([]);
  const native = program!.images[0]!.wgsl.native!;
  expect(native).toContain('acc = subgroupMatrixMultiplyAccumulate(ma, mb, acc);');
  expect(Object.values(program!.images[0]!.kernels)[0]!.jointMatrices?.products).toEqual([
    { element: 'f16', result: 'f32', m: 16, n: 16, k: 16 },
  ]);
});

test('the reference interpreter runs joint matrices as the plain lowering does', () => {
  const source = kernelWith(`
    const s = item.getGroup().getGroupLinearId() * sg.getGroupRange() + sg.getGroupId();
    const l = i32(item.getLocalLinearId());
    // a(r, c) = r - c at c * 4 + r; b(r, c) = r * c at 32 + r * 4 + c.
    local.tile[l] = f32(l < 32 ? (l % 4) - l / 4 : ((l - 32) / 4) * ((l - 32) % 4));
    item.barrier();
    const ma = jointMatrix(sg, 'a', f32, 4, 8, 'colMajor');
    const mb = jointMatrix(sg, 'b', f32, 8, 4);
    const mc = jointMatrix(sg, 'accumulator', f32, 4, 4);
    jointMatrixLoad(sg, ma, local.tile, 0, 4);
    jointMatrixLoad(sg, mb, local.tile, 32, 4);
    jointMatrixFill(sg, mc, 7);
    jointMatrixMad(sg, mc, ma, mb, mc);
    jointMatrixApply(sg, mc, '*', -3);
    jointMatrixStore(sg, mc, out, s * 16, 4, 'rowMajor');`);
  const linked = linkSources({ [M]: source });
  const { accessors } = interpretKernel(linked.images, {
    kernel: `${M}#k`,
    range: [64],
    local: [64],
    args: {
      a: new Float32Array(1),
      out: new Float32Array(32).fill(Number.NaN),
      ro: new Float32Array(1),
      n: new Uint32Array(1),
    },
  });
  const want: number[] = [];
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      let x = 7;
      for (let k = 0; k < 8; k++) x += (i - k) * (k * j);
      want.push(-3 * x);
    }
  }
  // Two sub-groups of 32 (the plain lowering's), each storing its own copy.
  expect([...new Float32Array(accessors.out!)]).toEqual([...want, ...want]);
});
