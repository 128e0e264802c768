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
  anyOfGroup, allOfGroup, exclusiveScanOverGroup,
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

/** Builds `source` and has Dawn compile both lowerings' WGSL. */
async function expectDawnAccepts(source: string): Promise<void> {
  const { program, diagnostics } = build([{ module: M, source }], { specConstants: 'both' });
  expect(diagnostics).toEqual([]);
  const image = program!.images[0]!;
  const { device } = await gpu();
  for (const code of [image.wgsl.native!, image.workgroupLowering!.wgsl.native!]) {
    const module = device.createShaderModule({ code });
    const { messages } = await module.getCompilationInfo();
    expect(messages.filter((m) => m.type === 'error')).toEqual([]);
  }
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
      "under a condition on a sub-group's reduction",
      'if (reduceOverGroup(item.getSubGroup(), out[0]!, maximum) > 5) { out[1] = reduceOverGroup(item.getGroup(), 1, plus); }',
      'reduceOverGroup(item.getGroup(), 1, plus)',
    ],
    [
      "under a condition on a work-group's scan",
      'if (exclusiveScanOverGroup(item.getGroup(), out[0]!, plus) > 5) { item.barrier(); }',
      'item.barrier()',
    ],
  ];
  test.each(refused)('%s', (_what, body, text) => {
    const found = diagnosticsOf(`    ${body}`);
    expect(found.map((d) => d.code)).toEqual(['SYCL2020']);
    expect(found[0]!.text).toBe(text);
    expect(found[0]!.message).toMatch(/must be reached by every item of the work-group together/);
  });
});

test("a work-group broadcast's id must be the same for every item (SYCL2020)", () => {
  const found = diagnosticsOf(
    '    out[0] = groupBroadcast(item.getGroup(), out[1]!, item.getLocalId(0) % 4);',
  );
  expect(found.map((d) => d.code)).toEqual(['SYCL2020']);
  expect(found[0]!.text).toBe('item.getLocalId(0) % 4');
  expect(found[0]!.message).toMatch(
    /the id of `groupBroadcast` over a work-group must be the same/,
  );
});

test('a work-group reduction, broadcast or predicate may decide the control flow around barriers', async () => {
  // The shape of a look-back loop: the leader decides, every item follows.
  const body = `
    const g = item.getGroup();
    const i = item.getGlobalId(0);
    let left = groupBroadcast(g, out[0]!, 0);
    while (left > 0) {
      const step = reduceOverGroup(g, u32(1), plus);
      if (allOfGroup(g, out[i]! >= 0)) { item.barrier(); }
      if (g.leader()) { out[0] = left; }
      left = left > step ? left - step : 0;
      if (anyOfGroup(g, left == 3)) { break; }
    }`;
  expect(diagnosticsOf(body)).toEqual([]);
  await expectDawnAccepts(kernelWith(body));
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
  await expectDawnAccepts(kernelWith(body));
});

describe('reduction variables used wrongly are refused at their place', () => {
  const source = (args: string, body: string) => `import {
  accessor, bitXor, bool, deviceFunction, f32, kernel, logicalOr, max, maximum, plus, reduction, span, u32, vec4f, wgsl,
} from '@syclts/dsl';
import { far } from './far.sycl.ts';
const at = deviceFunction({ args: [u32], returns: u32 }, (i) => i);
const pick = deviceFunction({ args: [f32, f32], returns: f32 }, (a, b) => max(a, b));
const mixed = deviceFunction({ args: [f32, u32], returns: f32 }, (a, b) => a);
const both = deviceFunction({ args: [bool, bool], returns: bool }, (a, b) => a && b);
const fenced = deviceFunction({ args: [f32, f32], returns: f32 }, (a, b) => wgsl\`workgroupBarrier(); return \${a} + \${b};\`);
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
      "a reduction combines with one of SYCL's function objects or a device function, not `Math.max`",
      'Math.max',
    ],
    [
      'a combiner the build cannot read',
      'sum: reduction(f32, 0, far)',
      'sum.combine(xs[0]!);',
      'SYCL1008',
      "a reduction combines with one of SYCL's function objects or a device function, not `far`: `./far.sycl.ts` cannot be read at build time (not a .sycl.ts module the build knows)",
      'far',
    ],
    [
      'a device function without an identity',
      'sum: reduction(f32, pick)',
      'sum.combine(xs[0]!);',
      'SYCL1030',
      'a reduction that combines with the device function `pick` needs an identity',
      'pick',
    ],
    [
      'a device function of other types',
      'sum: reduction(f32, 0, mixed)',
      'sum.combine(xs[0]!);',
      'SYCL1030',
      'the combiner `mixed` takes (f32, u32) and returns f32: a reduction of f32 combines with a function of (f32, f32) returning f32',
      'mixed',
    ],
    [
      'a device function of bool',
      'sum: reduction(bool, true, both)',
      'sum.combine(xs[0]! > 0);',
      'SYCL1030',
      'a reduction with a combiner of bool: its partial results live in buffers',
      'bool',
    ],
    [
      'an identity that is no constant',
      'sum: reduction(f32, Math.random(), pick)',
      'sum.combine(xs[0]!);',
      'SYCL1004',
      'the identity of reduction `sum` must be a constant expression',
      'Math.random()',
    ],
    [
      'an infinite identity for an integer type',
      'sum: reduction(u32, Infinity, plus)',
      'sum.combine(1);',
      'SYCL1004',
      'the identity of reduction `sum`',
      'Infinity',
    ],
    [
      'an identity that does not fit',
      'sum: reduction(u32, -1, plus)',
      'sum.combine(1);',
      'SYCL1004',
      'the identity of reduction `sum`',
      '-1',
    ],
    [
      'four arguments',
      'sum: reduction(f32, 0, pick, pick)',
      'sum.combine(xs[0]!);',
      'SYCL1030',
      'reduction takes the element type and an operator, or the element type, an identity and a combiner',
      'reduction(f32, 0, pick, pick)',
    ],
    [
      'a span of too many values',
      'sum: reduction(span(f32, 300), plus)',
      'sum[0]!.combine(xs[0]!);',
      'SYCL1030',
      "a span reduction's number of values must be an integer constant from 1 to 256",
      '300',
    ],
    [
      'a span combined whole',
      'sum: reduction(span(f32, 4), plus)',
      'sum.combine(xs[0]!);',
      'SYCL1030',
      '`sum` is a span reduction: combine into one of its values',
      'sum.combine',
    ],
    [
      'one value indexed',
      'sum: reduction(f32, plus)',
      'sum[0]!.combine(xs[0]!);',
      'SYCL1030',
      '`sum` is a reduction of one value, not a span',
      'sum[0]!.combine',
    ],
    [
      'an index past the span',
      'sum: reduction(span(f32, 4), plus)',
      'sum[4]!.combine(xs[0]!);',
      'SYCL1017',
      'index 4 is out of bounds',
      '4',
    ],
    [
      "an index with side effects in a loop's update",
      'sum: reduction(span(f32, 4), plus)',
      'for (let j = u32(0); j < 4; sum[at(j)]!.combine(xs[0]!)) { j += 1; }',
      'SYCL1030',
      "the index into span reduction `sum` has side effects, in a loop's update",
      'sum[at(j)]!.combine(xs[0]!)',
    ],
    [
      'spans past function memory',
      'sum: reduction(span(vec4f, 256), plus), more: reduction(span(vec4f, 256), plus), last: reduction(f32, plus)',
      'sum[0]!.combine(vec4f(1));',
      'SYCL1050',
      'the reductions of kernel `k` keep 8196 bytes of accumulators in each item',
      'last: reduction(f32, plus)',
    ],
    [
      'a combiner that reaches a barrier',
      'sum: reduction(f32, 0, fenced)',
      'sum.combine(xs[0]!);',
      'SYCL2020',
      'the combiner `fenced` of reduction `sum` reaches a barrier',
      'sum: reduction(f32, 0, fenced)',
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

describe('joint algorithms the build refuses, at their place', () => {
  function jointKernelWith(body: string, spec = 'ndRange: 1, workgroupSize: [64]'): string {
    const local = spec.startsWith('ndRange')
      ? `, local: { xs: workgroupArray(f32, 64), ys: workgroupArray(f32, 64),
      zs: workgroupArray(f32, 32), ns: workgroupArray(i32, 64), fl: workgroupArray(bool, 16),
      at: workgroupArray(atomic(u32), 4), sized: workgroupArray(f32, count) }`
      : '';
    return `import {
  accessor, atomic, bitXor, bool, f32, i32, jointAllOf, jointAnyOf, jointExclusiveScan,
  jointInclusiveScan, jointNoneOf, jointReduce, kernel, maximum, plus, specializationId, u32,
  workgroupArray,
} from '@syclts/dsl';
export const count = specializationId(u32, 64);
export const k = kernel(
  { ${spec}, args: { out: accessor(u32, 'read_write'), fs: accessor(f32, 'read_write') }${local} },
  (item, kh, { out, fs }${local && ', local'}) => {
${local && '    const g = item.getGroup();\n'}${body}
  });
`;
  }
  function jointDiagnostics(body: string, spec?: string) {
    const source = jointKernelWith(body, spec);
    const { diagnostics } = build([{ module: M, source }]);
    return diagnostics.map((d) => ({
      code: d.code,
      message: d.message,
      text: d.span ? source.slice(d.span.start, d.span.end) : null,
    }));
  }

  const cases: readonly [string, string, string, string, string?][] = [
    // [what, body, code, message (a part), the text the span covers]
    [
      'in a basic kernel',
      'fs[0] = jointReduce(item.getGroup(), fs, plus);',
      'SYCL1030',
      'jointReduce needs an nd-range kernel: basic kernels have no work-groups',
      'jointReduce(item.getGroup(), fs, plus)',
    ],
    [
      'an accessor for the array',
      'fs[0] = jointReduce(g, fs, plus);',
      'SYCL1030',
      "jointReduce works over one of the kernel's workgroup arrays, not `fs`",
      'fs',
    ],
    [
      'an element for the array',
      'fs[0] = jointReduce(g, local.xs[0]!, plus);',
      'SYCL1030',
      "jointReduce works over one of the kernel's workgroup arrays, not `local.xs[0]!`",
      'local.xs[0]!',
    ],
    [
      'a sub-group',
      'fs[0] = jointReduce(item.getSubGroup(), local.xs, plus);',
      'SYCL1030',
      'jointReduce works over the work-group, not a sub-group',
      'item.getSubGroup()',
    ],
    [
      'an output of another element type',
      'jointInclusiveScan(g, local.xs, local.ns, plus);',
      'SYCL1030',
      'the output of jointInclusiveScan must have the element type and length of its input: `local.xs` (64 × f32) and `local.ns` (64 × i32)',
      'local.ns',
    ],
    [
      'an output of another length',
      'jointExclusiveScan(g, local.xs, local.zs, plus);',
      'SYCL1030',
      '`local.xs` (64 × f32) and `local.zs` (32 × f32)',
      'local.zs',
    ],
    [
      'an output of a literal length for an input sized by a constant',
      'jointExclusiveScan(g, local.sized, local.xs, f32(0), plus);',
      'SYCL1030',
      '`local.sized` (a specialization-constant length × f32) and `local.xs` (64 × f32)',
      'local.xs',
    ],
    [
      'a scan used as a value',
      'fs[0] = jointInclusiveScan(g, local.xs, local.ys, plus);',
      'SYCL1030',
      'jointInclusiveScan writes its output array and gives no value',
      'jointInclusiveScan(g, local.xs, local.ys, plus)',
    ],
    [
      'a comparison that is not one',
      "out[0] = u32(jointAnyOf(g, local.xs, '=>', 1));",
      'SYCL1030',
      "jointAnyOf compares each element with a value by one of '==', '!=', '<', '<=', '>', '>='",
      "'=>'",
    ],
    [
      'no comparison over f32 elements',
      'out[0] = u32(jointAllOf(g, local.xs));',
      'SYCL1030',
      'jointAllOf with no comparison takes an array of bool, not f32',
      'local.xs',
    ],
    [
      'a comparison over bool elements',
      "out[0] = u32(jointNoneOf(g, local.fl, '==', true));",
      'SYCL1030',
      'jointNoneOf compares i32, u32 or f32 elements, not bool',
      'local.fl',
    ],
    [
      'an array of atomics',
      'out[0] = jointReduce(g, local.at, plus);',
      'SYCL1030',
      'jointReduce takes an array of i32, u32 or f32 scalars or vectors, or of bool, not atomic<u32>',
      'local.at',
    ],
    [
      'the wrong number of arguments',
      'fs[0] = jointReduce(g, local.xs);',
      'SYCL1030',
      'jointReduce takes 3 or 4 arguments, not 2',
    ],
    [
      'a float array with a bit operator',
      'fs[0] = jointReduce(g, local.xs, bitXor);',
      'SYCL1030',
      'jointReduce with bitXor combines i32 and u32 scalars and vectors, not f32',
      'local.xs',
    ],
    [
      'an init of another type',
      'jointInclusiveScan(g, local.xs, local.ys, plus, out[0]!);',
      'SYCL1012',
      'argument 5 of jointInclusiveScan must be f32, not u32',
      'out[0]!',
    ],
    [
      'a compared value of another type',
      "out[0] = u32(jointAnyOf(g, local.ns, '<', fs[0]!));",
      'SYCL1012',
      'argument 4 of jointAnyOf must be i32, not f32',
      'fs[0]!',
    ],
  ];
  test.each(cases)('%s', (what, body, code, message, text) => {
    const spec = what === 'in a basic kernel' ? 'range: 1' : undefined;
    const [first] = jointDiagnostics(`    ${body}`, spec);
    expect(first?.code).toBe(code);
    expect(first?.message).toContain(message);
    if (text !== undefined) expect(first?.text).toBe(text);
  });

  const refused: readonly [string, string, string][] = [
    [
      'a reduce under a condition on the item id',
      'if (item.getLocalId(0) < 2) { fs[0] = jointReduce(g, local.xs, maximum); }',
      'jointReduce(g, local.xs, maximum)',
    ],
    [
      'a scan after an early return that depends on storage',
      'if (out[item.getGlobalId(0)]! > 3) { return; }\n    jointExclusiveScan(g, local.xs, local.xs, plus);',
      'jointExclusiveScan(g, local.xs, local.xs, plus)',
    ],
    [
      'a predicate in a loop whose bound varies',
      "for (let j = u32(0); j < item.getLocalId(0); j++) { out[j] = u32(jointAnyOf(g, local.ns, '>', 0)); }",
      "jointAnyOf(g, local.ns, '>', 0)",
    ],
  ];
  test.each(refused)('not every item reaches %s (SYCL2020)', (_what, body, text) => {
    const found = jointDiagnostics(`    ${body}`);
    expect(found.map((d) => d.code)).toEqual(['SYCL2020']);
    expect(found[0]!.text).toBe(text);
    expect(found[0]!.message).toMatch(/must be reached by every item of the work-group together/);
  });

  test('the accepted shapes build, and Dawn accepts both lowerings', async () => {
    const body = `
    const i = item.getLocalLinearId();
    local.xs[i] = fs[i]!;
    local.sized[i] = fs[i]!;
    local.ns[i] = i32(out[i]!);
    if (i < 16) { local.fl[i] = out[i]! > 3; }
    if (g.getGroupLinearId() > 1) { return; }
    for (let j = u32(0); j < 2; j++) {
      jointInclusiveScan(g, local.sized, local.sized, plus, f32(j));
    }
    jointExclusiveScan(g, local.xs, local.ys, maximum);
    fs[i] = jointReduce(g, local.ys, f32(1), plus) + jointReduce(g, local.sized, maximum);
    out[i] = u32(jointAnyOf(g, local.ns, '>=', i32(out[0]!))) + u32(jointAllOf(g, local.fl)) + u32(jointNoneOf(g, local.xs, '!=', fs[0]!));`;
    await expectDawnAccepts(jointKernelWith(body));
  });
});

describe('a required sub-group size', () => {
  const source = (
    spec: string,
  ) => `import { accessor, kernel, shiftGroupLeft, u32 } from '@syclts/dsl';
export const k = kernel({ ${spec}, args: { out: accessor(u32, 'read_write') } }, (item, kh, { out }) => {
  out[0] = shiftGroupLeft(item.getSubGroup(), out[0]!, 1);
});
`;
  test.each([
    [
      'ndRange: 1, workgroupSize: [64], subGroupSize: 3',
      'subGroupSize must be a power of two from 1 to 128',
      '3',
    ],
    [
      'ndRange: 1, workgroupSize: [64], subGroupSize: 256',
      'subGroupSize must be a power of two from 1 to 128',
      '256',
    ],
    [
      'ndRange: 2, workgroupSize: [8, 24], subGroupSize: 16',
      "subGroupSize 16 does not divide the work-group's size in its last dimension (24)",
      '16',
    ],
  ])('%s is refused', (spec, message, text) => {
    const s = source(spec);
    const [first] = build([{ module: M, source: s }]).diagnostics;
    expect(first?.code).toBe('SYCL1030');
    expect(first?.message).toContain(message);
    expect(first?.span && s.slice(first.span.start, first.span.end)).toBe(text);
  });

  test('is asked of the device with sub-groups, and is the size of the sub-groups kept in workgroup memory', () => {
    const { program, diagnostics } = build([
      { module: M, source: source('ndRange: 1, workgroupSize: [64], subGroupSize: 16') },
    ]);
    expect(diagnostics).toEqual([]);
    const image = program!.images[0]!;
    expect(Object.values(image.kernels)[0]!.subGroupSize).toBe(16);
    expect(image.wgsl.native).toContain('enable subgroup_size_control;');
    expect(image.wgsl.native).toContain('@workgroup_size(64u, 1u, 1u) @subgroup_size(16)');
    const fallback = image.workgroupLowering!.wgsl.native!;
    expect(fallback).not.toMatch(/subgroup_size/);
    expect(fallback).toContain('let base = li / 16u * 16u;');
  });
});
