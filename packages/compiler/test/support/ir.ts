/**
 * Small builders for device objects and device-code IR, for tests that exercise the link step
 * and the emitter without the front end.
 */
import { type DataType, f32, i32, type JsonValue, u32 } from '@syclts/dsl';
import type {
  AssignOperator,
  BinaryOperator,
  Block,
  DeviceGlobalDecl,
  DeviceObject,
  Expr,
  FunctionDecl,
  ItemQuery,
  KernelDecl,
  KernelParam,
  KernelRange,
  LetStmt,
  SpecConstantDecl,
  Stmt,
  SymbolRef,
  UpdateStmt,
  WorkgroupArrayDecl,
} from '../../src/ir/index.js';
import { DEVICE_OBJECT_VERSION } from '../../src/ir/index.js';
import type { Span } from '../../src/ir/span.js';

export const span: Span = { start: 0, end: 0, line: 1, column: 1 };

type E = Expr<SymbolRef>;
type S = Stmt<SymbolRef>;

export const ref = (name: string, specifier?: string): SymbolRef =>
  specifier === undefined ? { kind: 'local', name } : { kind: 'import', specifier, name };

export const lit = (
  value: number | boolean,
  type: DataType = typeof value === 'boolean' ? { kind: 'scalar', scalar: 'bool' } : u32,
): E => ({
  op: 'literal',
  value,
  type,
  span,
});
export const local = (name: string, type: DataType): E => ({ op: 'local', name, type, span });
export const param = (name: string, type: DataType): E => ({ op: 'param', name, type, span });
export const wgArray = (name: string, type: DataType): E => ({
  op: 'workgroupArray',
  name,
  type,
  span,
});
export const spec = (r: SymbolRef | string, type: DataType): E => ({
  op: 'specConstant',
  ref: typeof r === 'string' ? ref(r) : r,
  type,
  span,
});
export const global = (r: SymbolRef | string, type: DataType): E => ({
  op: 'deviceGlobal',
  ref: typeof r === 'string' ? ref(r) : r,
  type,
  span,
});
export const bin = (
  operator: BinaryOperator,
  left: E,
  right: E,
  type: DataType = left.type,
): E => ({
  op: 'binary',
  operator,
  left,
  right,
  type,
  span,
});
export const item = (query: ItemQuery, dimension = 0, type: DataType = u32): E => ({
  op: 'item',
  query,
  dimension,
  type,
  span,
});
export const index = (base: E, i: E | number, type: DataType): E => ({
  op: 'index',
  base,
  index: typeof i === 'number' ? lit(i, i32) : i,
  type,
  span,
});
export const member = (base: E, name: string, type: DataType): E => ({
  op: 'member',
  base,
  member: name,
  type,
  span,
});
export const swizzle = (base: E, components: string, type: DataType): E => ({
  op: 'swizzle',
  base,
  components,
  type,
  span,
});
export const call = (callee: SymbolRef | string, args: E[], type: DataType): E => ({
  op: 'call',
  callee: typeof callee === 'string' ? ref(callee) : callee,
  args,
  type,
  span,
});
export const builtin = (name: string, args: E[], type: DataType): E => ({
  op: 'builtin',
  name,
  args,
  type,
  span,
});
export const construct = (type: DataType, args: E[]): E => ({ op: 'construct', args, type, span });
export const convert = (type: DataType, value: E): E => construct(type, [value]);
export const select = (condition: E, whenTrue: E, whenFalse: E): E => ({
  op: 'select',
  condition,
  whenTrue,
  whenFalse,
  type: whenTrue.type,
  span,
});
export const atomicAdd = (pointer: E, value: E): E => ({
  op: 'atomic',
  fn: 'atomicAdd',
  pointer,
  args: [value],
  type: value.type,
  span,
});

export const atomicLoad = (pointer: E): E => ({
  op: 'atomic',
  fn: 'atomicLoad',
  pointer,
  args: [],
  type:
    pointer.type.kind === 'atomic' ? { kind: 'scalar', scalar: pointer.type.scalar } : pointer.type,
  span,
});

export const letS = (name: string, init: E, mutable = false): LetStmt<SymbolRef> => ({
  kind: 'let',
  name,
  mutable,
  type: init.type,
  init,
  span,
});
export const assign = (
  target: E,
  value: E,
  operator: AssignOperator = '=',
): UpdateStmt<SymbolRef> => ({
  kind: 'assign',
  target,
  operator,
  value,
  span,
});
export const exprS = (expr: E): UpdateStmt<SymbolRef> => ({ kind: 'expr', expr, span });
export const ret = (value: E | null = null): S => ({ kind: 'return', value, span });
export const ifS = (condition: E, then: Block, otherwise: Block | null = null): S => ({
  kind: 'if',
  condition,
  then,
  else: otherwise,
  span,
});
export const forS = (
  init: LetStmt<SymbolRef> | UpdateStmt<SymbolRef>,
  condition: E,
  update: UpdateStmt<SymbolRef>,
  body: Block,
): S => ({
  kind: 'for',
  init,
  condition,
  update,
  body,
  span,
});
export const increment = (target: E): UpdateStmt<SymbolRef> => ({
  kind: 'increment',
  target,
  operator: '++',
  span,
});
export const barrier = (): UpdateStmt<SymbolRef> => ({ kind: 'barrier', scope: 'workgroup', span });

export const accessorParam = (
  name: string,
  element: DataType,
  access: 'read' | 'write' | 'read_write',
): KernelParam => ({ kind: 'accessor', name, element, access, span });
export const valueParam = (name: string, type: DataType): KernelParam => ({
  kind: 'value',
  name,
  type,
  span,
});

export function kernelDecl(
  name: string,
  params: KernelParam[],
  body: Block,
  options: { range?: KernelRange; workgroupArrays?: WorkgroupArrayDecl[] } = {},
): KernelDecl {
  return {
    name,
    range: options.range ?? { kind: 'basic', dimensions: 1 },
    params,
    workgroupArrays: options.workgroupArrays ?? [],
    body,
    span,
  };
}

export const specDecl = (
  name: string,
  type: DataType,
  defaultValue: JsonValue,
): SpecConstantDecl => ({
  name,
  type,
  defaultValue,
  span,
});

export const globalDecl = (
  name: string,
  type: DataType,
  deviceImageScope = false,
): DeviceGlobalDecl => ({
  name,
  type,
  deviceImageScope,
  initialValue: null,
  hostAccess: 'read_write',
  initMode: null,
  implementInCsr: false,
  span,
});

export const functionDecl = (
  name: string,
  params: { name: string; type: DataType }[],
  returnType: DataType | null,
  block: Block,
): FunctionDecl => ({
  name,
  params: params.map((p) => ({ ...p, span })),
  returnType,
  body: { kind: 'ir', block },
  span,
});

export function deviceObject(
  module: string,
  parts: Partial<Omit<DeviceObject, 'version' | 'module'>>,
): DeviceObject {
  return {
    version: DEVICE_OBJECT_VERSION,
    module,
    source: '',
    imports: [],
    exports: [],
    specConstants: [],
    deviceGlobals: [],
    kernels: [],
    functions: [],
    ...parts,
  };
}

/** Every declaration of the object exported under its own name. */
export function exportAll(object: DeviceObject): DeviceObject {
  const names = [
    ...object.specConstants,
    ...object.deviceGlobals,
    ...object.kernels,
    ...object.functions,
  ].map((d) => d.name);
  return {
    ...object,
    exports: [
      ...object.exports,
      ...names.map((n) => ({ kind: 'local' as const, exported: n, local: n })),
    ],
  };
}

/** Relative specifiers resolved against the importing module's directory, as a bundler would. */
export function resolveRelative(fromModule: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const parts = fromModule.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

export function modules(...objects: DeviceObject[]): Map<string, DeviceObject> {
  return new Map(objects.map((o) => [o.module, o]));
}

export { f32, i32, u32 };

const F32: DataType = { kind: 'scalar', scalar: 'f32' };

/** The value of a scalar expression as f32 (bool as 1/0). */
export function asF32(e: E): E {
  if (e.type.kind !== 'scalar' || e.type.scalar === 'f32') return e;
  if (e.type.scalar === 'bool') return select(e, lit(1, F32), lit(0, F32));
  return convert(F32, e);
}

/** Reads of every scalar leaf of `base`, depth-first like the leaf IDs, each as f32. */
export function leafReads(base: E, type: DataType = base.type): E[] {
  switch (type.kind) {
    case 'scalar':
    case 'atomic':
      return [asF32(base)];
    case 'vector': {
      const component: DataType = { kind: 'scalar', scalar: type.component };
      return Array.from({ length: type.size }, (_, i) =>
        asF32(swizzle(base, 'xyzw'[i]!, component)),
      );
    }
    case 'matrix': {
      const column: DataType = { kind: 'vector', component: 'f32', size: type.rows };
      return Array.from({ length: type.columns * type.rows }, (_, n) =>
        index(index(base, Math.floor(n / type.rows), column), n % type.rows, F32),
      );
    }
    case 'array':
      return Array.from({ length: type.length }, (_, i) =>
        leafReads(index(base, i, type.element)),
      ).flat();
    case 'struct':
      return type.fields.flatMap((f) => leafReads(member(base, f.name, f.type)));
  }
}
