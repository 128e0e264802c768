import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bindingOf, PROGRAM_FORMAT_VERSION, type Program, u32 } from '@syclts/dsl';
import { afterAll, expect, test } from 'vitest';
import { DEVICE_OBJECT_VERSION, type DeviceObject, integrationFooter } from '../../src/index.js';

const span = { start: 0, end: 0, line: 1, column: 1 };

function deviceObject(module: string): DeviceObject {
  return {
    version: DEVICE_OBJECT_VERSION,
    module,
    source: '',
    imports: [],
    exports: [],
    specConstants: [
      { name: 'factor', type: u32, defaultValue: 7, span },
      { name: 'unused', type: u32, defaultValue: 0, span },
    ],
    deviceGlobals: [
      {
        name: 'counter',
        type: u32,
        deviceImageScope: false,
        hostAccess: 'read_write',
        initMode: null,
        implementInCsr: false,
        initialValue: null,
        span,
      },
    ],
    kernels: [
      {
        name: 'scale',
        range: { kind: 'basic', dimensions: 1 },
        params: [],
        workgroupArrays: [],
        body: [],
        span,
      },
    ],
    functions: [],
  };
}

// Written inside the package so that the footer's `@syclts/dsl` import resolves as in a real build.
const dir = mkdtempSync(join(import.meta.dirname, '.tmp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the footer attaches every declaration, used on device or not, to its symbolic ID and the program', async () => {
  const program: Program = {
    version: PROGRAM_FORMAT_VERSION,
    images: [],
    programGlobals: { size: 0, globals: {} },
  };
  writeFileSync(join(dir, 'program.ts'), `export default ${JSON.stringify(program)};\n`);
  const source = [
    `export const factor = { name: 'factor' };`,
    `export const unused = { name: 'unused' };`,
    `const counter = { name: 'counter' };`,
    `export const scale = { name: 'scale' };`,
    `export { counter };`,
  ].join('\n');
  const footer = integrationFooter(deviceObject('src/app/hello.sycl.ts'), {
    programModule: './program.ts',
    source,
  });
  const file = join(dir, 'hello.ts');
  writeFileSync(file, source + footer);
  const module = (await import(pathToFileURL(file).href)) as Record<string, object>;
  const ids = ['factor', 'unused', 'counter', 'scale'].map((name) => {
    const binding = bindingOf(module[name]!);
    expect(binding?.program).toEqual(program);
    return binding?.symbolicId;
  });
  expect(ids).toEqual([
    'src/app/hello.sycl.ts#factor',
    'src/app/hello.sycl.ts#unused',
    'src/app/hello.sycl.ts#counter',
    'src/app/hello.sycl.ts#scale',
  ]);
});

test('the footer only appends, starting on a new line', () => {
  const footer = integrationFooter(deviceObject('a.sycl.ts'), { programModule: 'p', source: 'x' });
  expect(footer.startsWith('\n')).toBe(true);
});

test("the footer's own names never shadow the user's", () => {
  const source = 'const __syclts_attach = 1; const __syclts_program = 2, __syclts_program1 = 3;';
  const footer = integrationFooter(deviceObject('a.sycl.ts'), { programModule: 'p', source });
  expect(footer).toContain('import { attach as __syclts_attach1 }');
  expect(footer).toContain('import __syclts_program2 from "p"');
  expect(footer).toContain('__syclts_attach1(__syclts_program2, [');
});

test('a module using group functions or reductions loads their run-time code; others do not', () => {
  const base = deviceObject('a.sycl.ts');
  const kernel = base.kernels[0]!;
  const sum = { op: 'literal', value: 1, type: u32, span } as const;
  const withGroup: DeviceObject = {
    ...base,
    kernels: [
      {
        ...kernel,
        body: [
          {
            kind: 'expr',
            expr: {
              op: 'group',
              scope: 'workgroup',
              fn: 'reduce',
              operator: 'plus',
              comparison: null,
              args: [sum],
              type: u32,
              span,
            },
            span,
          },
        ],
      },
    ],
  };
  const withReduction: DeviceObject = {
    ...base,
    kernels: [
      {
        ...kernel,
        params: [
          {
            kind: 'reduction',
            name: 'total',
            element: u32,
            extent: null,
            operator: { kind: 'known', name: 'plus', identity: null },
            span,
          },
        ],
      },
    ],
  };
  const load = "import '@syclts/runtime/groups';";
  const footer = (object: DeviceObject) =>
    integrationFooter(object, { programModule: 'p', source: '' });
  expect(footer(base)).not.toContain(load);
  expect(footer(withGroup)).toContain(load);
  expect(footer(withReduction)).toContain(load);
});

test('a module that prints, in a kernel or a device function, loads the log run-time code; others do not', () => {
  const base = deviceObject('a.sycl.ts');
  const value = { op: 'literal', value: 1, type: u32, span } as const;
  const log = { kind: 'log', parts: ['n ', ''], args: [value], span } as const;
  const inKernel: DeviceObject = { ...base, kernels: [{ ...base.kernels[0]!, body: [log] }] };
  const inFunction: DeviceObject = {
    ...base,
    functions: [
      {
        name: 'show',
        params: [],
        returnType: null,
        body: {
          kind: 'ir',
          block: [
            {
              kind: 'if',
              condition: {
                ...value,
                op: 'literal',
                value: true,
                type: { kind: 'scalar', scalar: 'bool' },
              },
              // biome-ignore lint/suspicious/noThenProperty: the IR's if statement names its branch 'then'
              then: [log],
              else: null,
              span,
            },
          ],
        },
        span,
      },
    ],
  };
  const load = "import '@syclts/runtime/log';";
  const footer = (object: DeviceObject) =>
    integrationFooter(object, { programModule: 'p', source: '' });
  expect(footer(base)).not.toContain(load);
  expect(footer(inKernel)).toContain(load);
  expect(footer(inFunction)).toContain(load);
});
