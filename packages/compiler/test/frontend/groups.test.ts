/**
 * Group functions the build refuses, each at its place with its code: calls syclts cannot lower
 * (SYCL1030, SYCL1016) and calls not every item of the work-group makes together (SYCL2020, the
 * shapes Tint refuses for barriers and sub-group built-ins alike). The accepted shapes build and
 * Dawn accepts them in both lowerings.
 */
import { describe, expect, test } from 'vitest';
import { build } from '../../src/build.js';
import { gpu } from '../support/gpu.js';

const M = 'src/g.sycl.ts';

function kernelWith(body: string, spec = 'ndRange: 1, workgroupSize: [64]'): string {
  return `import {
  accessor, bitXor, f32, groupBarrier, groupBroadcast, i32, kernel, logicalAnd, maximum, plus,
  reduceOverGroup, selectFromGroup, shiftGroupLeft, u32, vec2f, vec4i, inclusiveScanOverGroup,
  anyOfGroup, exclusiveScanOverGroup,
} from '@syclts/dsl';
export const k = kernel(
  { ${spec}, args: { out: accessor(u32, 'read_write'), fs: accessor(f32, 'read_write') } },
  (item, kh, { out, fs }) => {
${body}
  });
`;
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

describe('calls syclts cannot lower are refused at their place', () => {
  const cases: readonly [string, string, string, string, string?][] = [
    // [what, body, code, message (a part), the text the span covers]
    [
      'in a basic kernel',
      'out[0] = reduceOverGroup(item.getGroup(), 1, plus);',
      'SYCL1030',
      'reduceOverGroup needs an nd-range kernel: basic kernels have no work-groups',
    ],
    [
      'a first argument that is no group',
      'out[0] = reduceOverGroup(out[0]!, out[1]!, plus);',
      'SYCL1030',
      'the first argument of reduceOverGroup must be a group, not `out[0]!`',
      'out[0]!',
    ],
    [
      'a float with a bit operator',
      'fs[0] = reduceOverGroup(item.getGroup(), fs[0]!, bitXor);',
      'SYCL1030',
      'reduceOverGroup with bitXor combines i32 and u32 scalars and vectors, not f32',
      'fs[0]!',
    ],
    [
      'a number with a logical operator',
      'out[0] = reduceOverGroup(item.getGroup(), out[0]!, logicalAnd);',
      'SYCL1030',
      'reduceOverGroup with logicalAnd combines bool, not u32',
      'out[0]!',
    ],
    [
      'an operator that is no function object',
      'out[0] = reduceOverGroup(item.getGroup(), out[0]!, Math.max);',
      'SYCL1030',
      "reduceOverGroup needs one of SYCL's function objects, not `Math.max`",
      'Math.max',
    ],
    [
      'a sub-group function given the work-group',
      'out[0] = shiftGroupLeft(item.getGroup(), out[0]!, 1);',
      'SYCL1030',
      'shiftGroupLeft works over a sub-group, not a work-group',
      'item.getGroup()',
    ],
    [
      'groupBarrier given a sub-group',
      'groupBarrier(item.getSubGroup());',
      'SYCL1030',
      'groupBarrier takes the work-group: WGSL has no sub-group barrier',
      'item.getSubGroup()',
    ],
    [
      'a group used as a value',
      'const g = item.getGroup();\n    const h = g;\n    out[0] = reduceOverGroup(h, 1, plus);',
      'SYCL1030',
      '`g` is a group, not a value',
      'g',
    ],
    [
      'the wrong number of arguments',
      'out[0] = reduceOverGroup(item.getGroup(), out[0]!);',
      'SYCL1030',
      'reduceOverGroup takes 3 or 4 arguments, not 2',
    ],
    [
      'an init of another type',
      'out[0] = reduceOverGroup(item.getGroup(), out[0]!, fs[0]!, plus);',
      'SYCL1012',
      'argument 3 of reduceOverGroup must be u32, not f32',
      'fs[0]!',
    ],
    [
      'a sub-group method that does not exist',
      'out[0] = item.getSubGroup().getLocalLinearIdx();',
      'SYCL1016',
      'a sub-group has no method `getLocalLinearIdx`',
      'item.getSubGroup().getLocalLinearIdx',
    ],
    [
      'f16 values',
      'out[0] = u32(reduceOverGroup(item.getGroup(), vec2f(1, 2), plus).x) + u32(reduceOverGroup(item.getGroup(), true, plus));',
      'SYCL1030',
      'reduceOverGroup with plus combines i32, u32 and f32 scalars and vectors, not bool',
      'true',
    ],
  ];
  test.each(cases)('%s', (_what, body, code, message, text) => {
    const spec = _what === 'in a basic kernel' ? 'range: 1' : undefined;
    const [first] = diagnosticsOf(`    ${body}`, spec);
    expect(first?.code).toBe(code);
    expect(first?.message).toContain(message);
    if (text !== undefined) expect(first?.text).toBe(text);
  });
});

describe('a group function not every item of the work-group reaches is refused (SYCL2020)', () => {
  const refused: readonly [string, string, string][] = [
    [
      'under a condition on the item id',
      'if (item.getLocalId(0) < 2) { out[0] = reduceOverGroup(item.getGroup(), out[0]!, plus); }',
      'reduceOverGroup(item.getGroup(), out[0]!, plus)',
    ],
    [
      'a sub-group function after an early return that depends on the item',
      'if (out[item.getGlobalId(0)]! > 3) { return; }\n    out[0] = shiftGroupLeft(item.getSubGroup(), out[0]!, 1);',
      'shiftGroupLeft(item.getSubGroup(), out[0]!, 1)',
    ],
    [
      'in a branch of ?: that depends on storage',
      'out[0] = out[1]! > 0 ? groupBroadcast(item.getGroup(), out[2]!) : 0;',
      'groupBroadcast(item.getGroup(), out[2]!)',
    ],
    [
      "under a condition on another group function's result",
      'if (reduceOverGroup(item.getGroup(), out[0]!, maximum) > 5) { out[1] = reduceOverGroup(item.getGroup(), 1, plus); }',
      'reduceOverGroup(item.getGroup(), 1, plus)',
    ],
  ];
  test.each(refused)('%s', (_what, body, text) => {
    const found = diagnosticsOf(`    ${body}`);
    expect(found.map((d) => d.code)).toEqual(['SYCL2020']);
    expect(found[0]!.text).toBe(text);
    expect(found[0]!.message).toMatch(/must be reached by every item of the work-group together/);
  });
});

test('the accepted shapes build, and Dawn accepts both lowerings', async () => {
  const body = `
    const g = item.getGroup();
    const sg = item.getSubGroup();
    const i = item.getGlobalId(0);
    if (g.getGroupLinearId() > 1) { return; }
    for (let j = u32(0); j < 3; j++) {
      out[i] = reduceOverGroup(g, out[i]! + j, plus) + inclusiveScanOverGroup(sg, out[i]!, maximum);
    }
    const v = reduceOverGroup(g, vec4i(i32(i), 1, 2, 3), maximum);
    fs[i] = exclusiveScanOverGroup(sg, fs[i]!, f32(1), plus) + f32(v.y) + f32(selectFromGroup(sg, anyOfGroup(g, fs[i]! > 0), i % 5) ? 1 : 0);
    groupBarrier(g);`;
  const source = kernelWith(body);
  const { program, diagnostics } = build([{ module: M, source }], { specConstants: 'both' });
  expect(diagnostics).toEqual([]);
  const image = program!.images[0]!;
  const { device } = await gpu();
  for (const code of [image.wgsl.native!, image.workgroupLowering!.wgsl.native!]) {
    const module = device.createShaderModule({ code });
    const { messages } = await module.getCompilationInfo();
    expect(messages.filter((m) => m.type === 'error')).toEqual([]);
  }
});

describe('reduction variables used wrongly are refused at their place', () => {
  const source = (args: string, body: string) => `import {
  accessor, bitXor, f32, kernel, logicalOr, maximum, plus, reduction, u32,
} from '@syclts/dsl';
export const k = kernel({ range: 1, args: { xs: accessor(f32, 'read'), ${args} } }, (item, kh, { xs, sum }) => {
  ${body}
});
`;
  const cases: readonly [string, string, string, string, string, string][] = [
    // [what, args, body, code, message (a part), the text the span covers]
    [
      'a float with a bit operator',
      'sum: reduction(f32, bitXor)',
      'sum.combine(xs[0]!);',
      'SYCL1030',
      'a reduction with bitXor of f32',
      'f32',
    ],
    [
      'bool with a logical operator',
      'sum: reduction(u32, logicalOr)',
      'sum.combine(1);',
      'SYCL1030',
      'the logical operators take bool, which a buffer cannot hold',
      'u32',
    ],
    [
      'an operator that is no function object',
      'sum: reduction(f32, Math.max)',
      'sum.combine(xs[0]!);',
      'SYCL1030',
      "reduction needs one of SYCL's function objects, not `Math.max`",
      'Math.max',
    ],
    [
      'combine used as a value',
      'sum: reduction(f32, plus)',
      'const v = sum.combine(xs[0]!);',
      'SYCL1030',
      'combine(x) is a statement: it gives no value',
      'sum.combine(xs[0]!)',
    ],
    [
      'another method',
      'sum: reduction(f32, maximum)',
      'sum.add(xs[0]!);',
      'SYCL1016',
      'a reduction variable has no method `add`',
      'sum.add',
    ],
    [
      'the variable read as a value',
      'sum: reduction(f32, plus)',
      'const v = sum;',
      'SYCL1030',
      '`sum` is a reduction variable, not a value',
      'sum',
    ],
    [
      'a value of another type',
      'sum: reduction(u32, plus)',
      'sum.combine(xs[0]!);',
      'SYCL1012',
      'argument 1 of sum.combine must be u32, not f32',
      'xs[0]!',
    ],
  ];
  test.each(cases)('%s', (_what, args, body, code, message, text) => {
    const text0 = source(args, body);
    const { diagnostics } = build([{ module: M, source: text0 }]);
    const first = diagnostics[0]!;
    expect(first.code).toBe(code);
    expect(first.message).toContain(message);
    expect(first.span && text0.slice(first.span.start, first.span.end)).toBe(text);
  });
});
