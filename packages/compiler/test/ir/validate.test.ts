/**
 * The IR validator: silent on what the front end produces, and loud on each broken invariant.
 * The broken objects are the front end's own output with one part replaced, the way a faulty
 * lowering or transform would break it.
 */
import { expect, test } from 'vitest';
import { compileModule } from '../../src/frontend/index.js';
import type { Block, Expr, Stmt } from '../../src/ir/device-code.js';
import type { DeviceObject, KernelDecl } from '../../src/ir/device-object.js';
import { validateDeviceObject } from '../../src/ir/validate.js';

const SOURCE = `
import { accessor, f32, kernel, struct, u32, vec4f } from '@syclts/dsl';
const P = struct({ x: f32, y: f32 });
export const k = kernel({ range: 1, args: { ps: accessor(P, 'read'), out: accessor(f32, 'write'), n: u32 } },
  (item, _kh, { ps, out, n }) => {
    let s = f32(0);
    const v = vec4f(1, 2, 3, 4);
    for (let i = u32(0); i < n; i++) {
      if (s > 10) { break; }
      s += ps[i].x + v.z;
    }
    out[item.getId(0)] = s;
  });
`;

function compiled(): DeviceObject {
  const { object, diagnostics } = compileModule(SOURCE, { module: 'ir/validate.sycl.ts' });
  expect(diagnostics).toEqual([]);
  if (!object) throw new Error('no object');
  return object;
}

/** The object with kernel k's body replaced. */
function withBody(object: DeviceObject, body: (old: Block) => Block): DeviceObject {
  const [k] = object.kernels as [KernelDecl];
  return { ...object, kernels: [{ ...k, body: body(k.body) }] };
}

/** The first expression of the block (depth first) that `pred` accepts. */
function findExpr(block: Block, pred: (e: Expr) => boolean): Expr {
  let found: Expr | undefined;
  const visit = (v: unknown): void => {
    if (found || v === null || typeof v !== 'object') return;
    if ('op' in v && pred(v as Expr)) {
      found = v as Expr;
      return;
    }
    for (const child of Object.values(v)) visit(child);
  };
  visit(block);
  if (!found) throw new Error('no such expression');
  return found;
}

/** A copy of the block with `target` (by identity) replaced. */
function replaceExpr(block: Block, target: Expr, next: Expr): Block {
  const map = (v: unknown): unknown =>
    v === target
      ? next
      : Array.isArray(v)
        ? v.map(map)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([key, c]) => [key, map(c)]))
          : v;
  return map(block) as Block;
}

const messages = (object: DeviceObject) => validateDeviceObject(object).map((p) => p.message);

test('the front end output of a module with every construct kind validates clean', () => {
  expect(validateDeviceObject(compiled())).toEqual([]);
});

test('a local used where no declaration is in scope', () => {
  const o = compiled();
  // Drop `let s`: every later use of s now names nothing.
  const broken = withBody(o, (b) => b.filter((s) => !(s.kind === 'let' && s.name === 's')));
  expect(messages(broken)).toContain(
    "kernel 'k': 's' is used outside the scope of its declaration",
  );
});

test('break outside a loop', () => {
  const o = compiled();
  const brk = { kind: 'break', span: o.kernels[0]!.span } as Stmt;
  expect(messages(withBody(o, (b) => [...b, brk]))).toEqual(["kernel 'k': 'break' outside a loop"]);
});

test('a condition that is not bool', () => {
  const o = compiled();
  const cmp = findExpr(o.kernels[0]!.body, (e) => e.op === 'binary' && e.operator === '>');
  const notBool = { ...cmp, type: { kind: 'scalar', scalar: 'f32' } } as Expr;
  const got = messages(withBody(o, (b) => replaceExpr(b, cmp, notBool)));
  expect(got).toContain("kernel 'k': the condition of 'if' is f32, expected bool");
  expect(got).toContain("kernel 'k': the result of '>' is f32, expected bool");
});

test('a literal that does not fit its type', () => {
  const o = compiled();
  const zero = findExpr(
    o.kernels[0]!.body,
    (e) => e.op === 'literal' && e.type.kind === 'scalar' && e.type.scalar === 'u32',
  );
  const negative = { ...zero, value: -1 } as Expr;
  expect(messages(withBody(o, (b) => replaceExpr(b, zero, negative)))).toEqual([
    "kernel 'k': literal -1 is not a u32",
  ]);
});

test('a member the struct does not have, and a swizzle past the vector', () => {
  const o = compiled();
  const broken = withBody(o, (b) => {
    const z = findExpr(b, (e) => e.op === 'swizzle');
    const swizzled = replaceExpr(b, z, { ...z, components: 'xyzwx' } as Expr);
    const x = findExpr(swizzled, (e) => e.op === 'member');
    return replaceExpr(swizzled, x, { ...x, member: 'w' } as Expr);
  });
  expect(messages(broken).sort()).toEqual([
    "kernel 'k': struct { x: f32, y: f32 } has no member 'w'",
    "kernel 'k': swizzle '.xyzwx' of vec4<f32>",
  ]);
});

test('an assignment whose value type differs from its target', () => {
  const o = compiled();
  const store = o.kernels[0]!.body.at(-1)!;
  if (store.kind !== 'assign') throw new Error('expected the final store');
  const wrong = {
    ...store,
    value: { ...store.value, type: { kind: 'scalar', scalar: 'u32' } },
  } as Stmt;
  expect(messages(withBody(o, (b) => [...b.slice(0, -1), wrong]))).toEqual([
    "kernel 'k': the assigned value is u32, expected f32",
  ]);
});

test('a store into a computed value, and host conversions of what is not host storage', () => {
  const o = compiled();
  const store = o.kernels[0]!.body.at(-1)!;
  if (store.kind !== 'assign') throw new Error('expected the final store');
  const converted = {
    op: 'fromHost',
    place: store.target,
    type: store.target.type,
    span: store.span,
  };
  const intoValue = { ...store, target: converted } as Stmt;
  expect(messages(withBody(o, (b) => [...b.slice(0, -1), intoValue]))).toEqual([
    "kernel 'k': the target of an assignment is a fromHost, not a variable",
  ]);
  const local = { op: 'local', name: 'nowhere', type: store.target.type, span: store.span };
  const fromLocal = { ...store, value: { ...converted, place: local } } as Stmt;
  expect(messages(withBody(o, (b) => [...b.slice(0, -1), fromLocal]))).toEqual([
    "kernel 'k': 'nowhere' is used outside the scope of its declaration",
    "kernel 'k': fromHost of a local, which is not host-shareable storage",
  ]);
});

test('an expression that stands for no value', () => {
  const o = compiled();
  const store = o.kernels[0]!.body.at(-1)!;
  if (store.kind !== 'assign') throw new Error('expected the final store');
  const nothing = { ...store.value, type: { kind: 'struct', fields: [] } } as Expr;
  const used = { kind: 'expr', expr: nothing, span: store.span } as Stmt;
  expect(messages(withBody(o, (b) => [...b.slice(0, -1), used]))).toEqual([
    `kernel 'k': ${nothing.op} has no value`,
  ]);
});

const JOINT = `
import { accessor, f32, i32, jointAnyOf, jointInclusiveScan, jointReduce, kernel, plus, reduceOverGroup, u32, workgroupArray } from '@syclts/dsl';
export const k = kernel(
  { ndRange: 1, workgroupSize: [8], args: { out: accessor(f32, 'write'), n: u32 },
    local: { xs: workgroupArray(f32, 20), ys: workgroupArray(f32, 20), ns: workgroupArray(i32, 20) } },
  (item, _kh, { out, n }, local) => {
    const g = item.getGroup();
    jointInclusiveScan(g, local.xs, local.ys, plus, f32(1));
    out[0] = jointReduce(g, local.ys, plus) + reduceOverGroup(g, f32(n), plus);
    out[1] = f32(jointAnyOf(g, local.ns, '<', i32(n)));
  });
`;

function joint(): DeviceObject {
  const { object, diagnostics } = compileModule(JOINT, { module: 'ir/joint.sycl.ts' });
  expect(diagnostics).toEqual([]);
  return object!;
}

test('the joint algorithms validate clean, and each broken part is reported', () => {
  const o = joint();
  expect(validateDeviceObject(o)).toEqual([]);
  const body = (o.kernels[0] as KernelDecl).body;
  const scan = body.find((s): s is Stmt & { kind: 'jointScan' } => s.kind === 'jointScan')!;
  const ns = findExpr(body, (e) => e.op === 'workgroupArray' && e.name === 'ns');
  const n = findExpr(body, (e) => e.op === 'param' && e.name === 'n');
  const reduce = findExpr(body, (e) => e.op === 'group' && e.fn === 'jointReduce');
  const any = findExpr(body, (e) => e.op === 'group' && e.fn === 'jointAny');
  const over = findExpr(body, (e) => e.op === 'group' && e.fn === 'reduce');
  const broken = (from: Stmt | Expr, to: Stmt | Expr) =>
    messages(withBody(o, (b) => replaceExpr(b, from as Expr, to as Expr)));
  // A scan into an array of another element type.
  expect(broken(scan, { ...scan, output: ns })).toContain(
    "kernel 'k': the output of a joint scan is array<i32, 20>, expected array<f32, 20>",
  );
  // A reduce over something that is no workgroup array.
  expect(broken(reduce, { ...reduce, args: [n] } as Expr)).toContain(
    "kernel 'k': the array of jointReduce is not a workgroup array",
  );
  // A predicate without its comparison, over i32 elements.
  expect(broken(any, { ...any, comparison: null, args: [ns] } as Expr)).toContain(
    "kernel 'k': the elements of group function jointAny is i32, expected bool",
  );
  // A comparison on a group function that takes none, and a joint algorithm over a sub-group.
  expect(broken(over, { ...over, comparison: '<' } as Expr)).toContain(
    "kernel 'k': group function reduce with a comparison",
  );
  expect(broken(any, { ...any, scope: 'subgroup' } as Expr)).toContain(
    "kernel 'k': jointAny over a sub-group",
  );
});

const MATRICES = `
import { accessor, f32, i32, jointMatrix, jointMatrixApply, jointMatrixFill, jointMatrixLoad, kernel } from '@syclts/dsl';
export const k = kernel({ ndRange: 1, workgroupSize: [32], args: { xs: accessor(f32, 'read'), is: accessor(i32, 'read') } },
  (item, _kh, { xs, is }) => {
    const sg = item.getSubGroup();
    const m = jointMatrix(sg, 'accumulator', f32, 8, 8);
    jointMatrixFill(sg, m, 1);
    jointMatrixLoad(sg, m, xs, 0, 8, 'rowMajor');
    jointMatrixApply(sg, m, '*', is[0]! > 0 ? 2 : 3);
  });
`;

test('joint-matrix statements validate clean, and each broken part is reported', () => {
  const { object, diagnostics } = compileModule(MATRICES, { module: 'ir/matrices.sycl.ts' });
  expect(diagnostics).toEqual([]);
  expect(validateDeviceObject(object!)).toEqual([]);
  const body = (object!.kernels[0] as KernelDecl).body;
  type MatrixStmt = Stmt & { kind: 'jointMatrix' };
  const of = (fn: string) =>
    body.find((s): s is MatrixStmt => s.kind === 'jointMatrix' && s.fn === fn)!;
  const fill = of('fill') as MatrixStmt & { fn: 'fill' };
  const load = of('load') as MatrixStmt & { fn: 'load' };
  const is = findExpr(body, (e) => e.op === 'param' && e.name === 'is');
  const broken = (from: Stmt, to: Stmt) =>
    messages(
      withBody(object!, (b) => replaceExpr(b, from as unknown as Expr, to as unknown as Expr)),
    );
  // A fill value of another type than the elements.
  expect(
    broken(fill, { ...fill, value: { ...fill.value, type: { kind: 'scalar', scalar: 'i32' } } }),
  ).toContain("kernel 'k': the value of a joint matrix fill is i32, expected f32");
  // A load from memory of another element type, and with an f32 stride.
  expect(broken(load, { ...load, memory: is })).toContain(
    "kernel 'k': the memory of a joint matrix load is i32, expected f32",
  );
  expect(
    broken(load, { ...load, stride: { ...load.stride, type: { kind: 'scalar', scalar: 'f32' } } }),
  ).toContain("kernel 'k': the stride of a joint matrix load is f32, expected u32");
});
