import { expect, test } from 'vitest';
import { compileModule, DEVICE_OBJECT_VERSION, type DeviceObject } from '../../src/index.js';

const skeleton = `import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';
export const factor = specializationId(u32, 7);
export const scale = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
  const i = item.getId(0);
  out[i] = kh.getSpecializationConstant(factor) * i;
});
`;

/** The IR without spans, for whole-object comparison. */
function withoutSpans(object: DeviceObject | null): unknown {
  return JSON.parse(JSON.stringify(object, (k, v) => (k === 'span' ? undefined : v)));
}

const u32 = { kind: 'scalar', scalar: 'u32' };

test('the skeleton module compiles to its device object', () => {
  const { object, diagnostics } = compileModule(skeleton, { module: 'src/scale.sycl.ts' });
  expect(diagnostics).toEqual([]);
  expect(withoutSpans(object)).toEqual({
    version: DEVICE_OBJECT_VERSION,
    module: 'src/scale.sycl.ts',
    source: skeleton,
    imports: [
      {
        specifier: '@syclts/dsl',
        bindings: ['accessor', 'kernel', 'specializationId', 'u32'].map((n) => ({
          local: n,
          imported: n,
        })),
      },
    ],
    exports: [
      { kind: 'local', exported: 'factor', local: 'factor' },
      { kind: 'local', exported: 'scale', local: 'scale' },
    ],
    specConstants: [{ name: 'factor', type: u32, defaultValue: 7 }],
    deviceGlobals: [],
    kernels: [
      {
        name: 'scale',
        range: { kind: 'basic', dimensions: 1 },
        params: [{ kind: 'accessor', name: 'out', element: u32, access: 'write' }],
        workgroupArrays: [],
        body: [
          {
            kind: 'let',
            name: 'i',
            mutable: false,
            type: u32,
            init: { op: 'item', query: 'globalId', dimension: 0, type: u32 },
          },
          {
            kind: 'assign',
            operator: '=',
            target: {
              op: 'index',
              base: {
                op: 'param',
                name: 'out',
                type: { kind: 'array', element: u32, length: 0 },
              },
              index: { op: 'local', name: 'i', type: u32 },
              type: u32,
            },
            value: {
              op: 'binary',
              operator: '*',
              left: { op: 'specConstant', ref: { kind: 'local', name: 'factor' }, type: u32 },
              right: { op: 'local', name: 'i', type: u32 },
              type: u32,
            },
          },
        ],
      },
    ],
    functions: [],
  });
});

test('spans are 1-based lines and columns in JavaScript string offsets', () => {
  const source = `import { kernel, u32, accessor } from '@syclts/dsl';
// é😀 non-ASCII before the error shifts UTF-8 offsets but not UTF-16 ones
export const k = kernel({ range: 1, args: { out: accessor(u32, 'write') } }, (item, kh, { out }) => {
  out[item.getId(0)] = 1.5;
});
`;
  const { object, diagnostics } = compileModule(source, { module: 'a.sycl.ts' });
  expect(object).toBeNull();
  expect(diagnostics).toHaveLength(1);
  const d = diagnostics[0]!;
  expect(d.code).toBe('SYCL1013');
  expect(d.span).toMatchObject({ line: 4, column: 24 });
  expect(source.slice(d.span!.start, d.span!.end)).toBe('1.5');
});
