/**
 * A program of three modules, five kernels and twelve specialization constants of every shape,
 * with cross-module imports of constants and of a device function. Each kernel writes the
 * leaves of the constants it reads (as f32, plus 100 x its work-item id) to `out`.
 */
import {
  array,
  bool,
  type DataType,
  f32,
  i32,
  type JsonValue,
  mat,
  struct,
  u32,
  vec,
} from '@syclts/dsl';
import type { DeviceObject } from '../../src/ir/index.js';
import {
  accessorParam,
  assign,
  bin,
  call,
  convert,
  deviceObject,
  exportAll,
  forS,
  functionDecl,
  increment,
  index,
  item,
  kernelDecl,
  leafReads,
  letS,
  lit,
  local,
  param,
  ref,
  ret,
  span,
  spec,
  specDecl,
} from './ir.js';
import { leafValues } from './values.js';

export interface SampleConstant {
  readonly module: string;
  readonly name: string;
  readonly type: DataType;
  /** The default folded at build time, or null (then `hostDefault` is the host object's). */
  readonly folded: JsonValue;
  readonly hostDefault: JsonValue;
  readonly setValue: JsonValue;
}

const A = 'src/a.sycl.ts';
const B = 'src/b.sycl.ts';
const C = 'src/c.sycl.ts';

const Rec = struct({ x: i32, n: struct({ a: f32, b: f32 }) });
const Flagged = struct({ flag: bool, v: vec(f32, 2), inner: struct({ k: i32, w: vec(f32, 3) }) });
const Pair = struct({ p: u32, q: f32 });

const c = (
  module: string,
  name: string,
  type: DataType,
  folded: JsonValue,
  setValue: JsonValue,
  hostDefault: JsonValue = folded,
): SampleConstant => ({
  module,
  name,
  type,
  folded,
  hostDefault,
  setValue,
});

export const constants = {
  ia: c(A, 'ia', i32, -5, 12),
  flag: c(A, 'flag', bool, true, false),
  dir: c(A, 'dir', vec(f32, 3), [1.5, -2, 3.25], [-0.5, 8, 0.125]),
  m: c(A, 'm', mat(3, 3), [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5], [9, -8, 7, -6, 5, -4, 3, -2, 1.1]),
  bu: c(B, 'bu', u32, 9, 4000000000),
  arr: c(B, 'arr', array(f32, 4), [0.25, 0.5, 0.75, 1.25], [10, 20, 30, 40.5]),
  rec: c(B, 'rec', Rec, { x: 3, n: { a: 1.5, b: -4 } }, { x: -30, n: { a: 0.1, b: 77 } }),
  v2i: c(B, 'v2i', vec(i32, 2), [-7, 11], [123456, -654321]),
  bv: c(B, 'bv', vec(bool, 2), [true, false], [false, true]),
  sb: c(
    C,
    'sb',
    Flagged,
    { flag: true, v: [0.5, -1.5], inner: { k: -9, w: [1, 2, 3] } },
    { flag: false, v: [6.5, 7.5], inner: { k: 44, w: [-1, -2, -3.5] } },
  ),
  pairs: c(
    C,
    'pairs',
    array(Pair, 2),
    [
      { p: 1, q: 2.5 },
      { p: 3, q: -4.5 },
    ],
    [
      { p: 70, q: 0.75 },
      { p: 80, q: 1e6 },
    ],
  ),
  late: c(C, 'late', f32, null, -2.25, 0.75),
} satisfies Record<string, SampleConstant>;

type Name = keyof typeof constants;

export interface SampleKernel {
  readonly module: string;
  readonly name: string;
  /** The values the kernel writes per work-item, before adding 100 x the id. */
  readonly expected: (value: (name: Name) => JsonValue) => number[];
}

const i = local('i', u32);
const idOffset = bin('*', lit(100, f32), convert(f32, i));

/** Stores each of `reads` to out[i * width + first + j] with 100 * i added. */
function stores(reads: ReturnType<typeof leafReads>, width = reads.length, first = 0) {
  return reads.map((r, j) =>
    assign(
      index(param('out', f32), bin('+', bin('*', i, lit(width)), lit(first + j)), f32),
      bin('+', r, idOffset),
    ),
  );
}
const gid = letS('i', item('globalId'));

const sc = (name: Name, r = ref(name)) => spec(r, constants[name].type);
const leaves = (name: Name, r?: ReturnType<typeof ref>) => leafReads(sc(name, r));

const out = accessorParam('out', f32, 'write');

function moduleA(): DeviceObject {
  const ka = [gid, ...stores([...leaves('ia'), ...leaves('flag'), ...leaves('dir')])];
  // kb: the matrix, and b's `weigh(2)` which reads `bu` in another module.
  const kb = [
    gid,
    ...stores([...leaves('m'), call(ref('weigh', './b.sycl.ts'), [lit(2, f32)], f32)]),
  ];
  return exportAll(
    deviceObject(A, {
      imports: [
        { specifier: './b.sycl.ts', bindings: [{ local: 'weigh', imported: 'weigh' }], span },
      ],
      specConstants: (['ia', 'flag', 'dir', 'm'] as const).map((n) =>
        specDecl(n, constants[n].type, constants[n].folded),
      ),
      kernels: [kernelDecl('ka', [out], ka), kernelDecl('kb', [out], kb)],
    }),
  );
}

function moduleB(): DeviceObject {
  // kc: the array through a loop with a run-time index, then the struct and the vector.
  const rest = [...leaves('rec'), ...leaves('v2i')];
  const j = local('j', i32);
  const width = rest.length + 4;
  const loop = forS(
    letS('j', lit(0, i32), true),
    bin('<', j, lit(4, i32), { kind: 'scalar', scalar: 'bool' }),
    increment(j),
    [
      assign(
        index(param('out', f32), bin('+', bin('*', i, lit(width)), convert(u32, j)), f32),
        bin('+', index(sc('arr'), j, f32), bin('*', lit(100, f32), convert(f32, i))),
      ),
    ],
  );
  const weigh = functionDecl('weigh', [{ name: 'x', type: f32 }], f32, [
    ret(bin('*', convert(f32, sc('bu')), local('x', f32))),
  ]);
  return exportAll(
    deviceObject(B, {
      specConstants: (['bu', 'arr', 'rec', 'v2i', 'bv'] as const).map((n) =>
        specDecl(n, constants[n].type, constants[n].folded),
      ),
      functions: [weigh],
      kernels: [kernelDecl('kc', [out], [gid, loop, ...stores(rest, width, 4)])],
    }),
  );
}

function moduleC(): DeviceObject {
  const kd = [
    gid,
    ...stores([...leaves('sb'), ...leaves('pairs'), ...leaves('dir', ref('dir', './a.sycl.ts'))]),
  ];
  const ke = [gid, ...stores([...leaves('late'), ...leaves('bv', ref('flags'))])];
  return exportAll(
    deviceObject(C, {
      imports: [{ specifier: './b.sycl.ts', bindings: [{ local: 'flags', imported: 'bv' }], span }],
      specConstants: (['sb', 'pairs', 'late'] as const).map((n) =>
        specDecl(n, constants[n].type, constants[n].folded),
      ),
      kernels: [kernelDecl('kd', [out], kd), kernelDecl('ke', [out], ke)],
    }),
  );
}

export const sampleModules = (): DeviceObject[] => [moduleA(), moduleB(), moduleC()];

const flat = (name: Name, value: (name: Name) => JsonValue) =>
  leafValues(constants[name].type, value(name));

export const sampleKernels: readonly SampleKernel[] = [
  {
    module: A,
    name: 'ka',
    expected: (v) => [...flat('ia', v), ...flat('flag', v), ...flat('dir', v)],
  },
  {
    module: A,
    name: 'kb',
    expected: (v) => [...flat('m', v), Math.fround(Math.fround(v('bu') as number) * 2)],
  },
  {
    module: B,
    name: 'kc',
    expected: (v) => [...flat('arr', v), ...flat('rec', v), ...flat('v2i', v)],
  },
  {
    module: C,
    name: 'kd',
    expected: (v) => [...flat('sb', v), ...flat('pairs', v), ...flat('dir', v)],
  },
  { module: C, name: 'ke', expected: (v) => [...flat('late', v), ...flat('bv', v)] },
];

export const symbolicIdOf = (name: Name): string => `${constants[name].module}#${name}`;
