/**
 * A reference interpreter of linked device code with WGSL's semantics: the CPU twin of a GPU
 * launch. It reads only the link step's `LinkedImage`, runs every work-item of a launch (the
 * items of a workgroup in turn, switching at each barrier) and gives back the accessors and
 * device globals as a GPU run would leave them, in their host-shareable layout.
 */
import type { DataType, JsonValue, ShareableValue, SymbolicId } from '@syclts/dsl';
import type { LinkedImage, LinkedKernel, SizeValue } from '../link/linked-image.js';
import { groupResults } from './groups.js';
import {
  BARRIER,
  type GroupArrival,
  type LogLine,
  Machine,
  type Stop,
  type Storage,
} from './machine.js';
import type { Cell, Place } from './places.js';
import { fromShareable, InterpretError, type Value, zeroOf } from './values.js';

export { INTERPRETED_BUILTINS } from './builtins.js';
export type { LogLine } from './machine.js';
export { InterpretError } from './values.js';

export interface InterpretLaunch {
  /** Symbolic ID of the kernel. */
  readonly kernel: string;
  /** Global range in SYCL dimension order. */
  readonly range: readonly number[];
  /** nd-range local range in SYCL order (default: the kernel's workgroup size). */
  readonly local?: readonly number[];
  /** Accessors as typed arrays (copied, never changed); value arguments as host values. */
  readonly args?: Readonly<Record<string, ArrayBufferView | JsonValue>>;
  /** Specialization-constant values by symbolic ID (default: each constant's default). */
  readonly specConstants?: Readonly<Record<string, JsonValue>>;
  /** Initial device-global contents in their host-shareable layout (default zero). */
  readonly deviceGlobals?: Readonly<Record<string, ArrayBufferView>>;
}

export interface InterpretOptions {
  /** Loop iterations the whole launch may take before it is stopped (default 10^8). */
  readonly maxIterations?: number;
}

export interface InterpretResult {
  /** Each accessor's contents after the launch. */
  readonly accessors: Readonly<Record<string, ArrayBuffer>>;
  /** Each device global of the image after the launch. */
  readonly deviceGlobals: Readonly<Record<string, ArrayBuffer>>;
  /**
   * The lines `console.log` printed, in the order the runtime prints them: by the item's global
   * linear id, then in the order each item printed.
   */
  readonly log: readonly LogLine[];
}

/**
 * Runs one launch of a kernel of the images on the CPU. Throws `InterpretError` (with the
 * `.sycl.ts` position) where the code does what WGSL leaves undefined and the interpreter
 * notices it: an index out of bounds, a barrier some items of a workgroup do not reach.
 */
export function interpretKernel(
  images: readonly LinkedImage[],
  launch: InterpretLaunch,
  options: InterpretOptions = {},
): InterpretResult {
  const image = images.find((i) => i.kernels.some((k) => k.symbolicId === launch.kernel));
  if (!image) throw new Error(`no image holds the kernel ${launch.kernel}`);
  const kernel = image.kernels.find((k) => k.symbolicId === launch.kernel)!;
  const module = kernel.info.source.module;
  const specValues = new Map<SymbolicId, JsonValue>(
    image.specConstants.map((c) => [
      c.symbolicId,
      launch.specConstants?.[c.symbolicId] ?? c.info.defaultValue,
    ]),
  );
  const specConstants = new Map<SymbolicId, Place>();
  for (const c of image.specConstants) {
    const value = specValues.get(c.symbolicId);
    if (value === null || value === undefined) continue;
    specConstants.set(c.symbolicId, constant(c.info.type, value));
  }

  const accessors: Record<string, ArrayBuffer> = {};
  const params = new Map<string, Place>();
  for (const p of kernel.decl.params) {
    const given = launch.args?.[p.name];
    if (p.kind === 'accessor') {
      if (!ArrayBuffer.isView(given)) throw new Error(`accessor ${p.name} needs a typed array`);
      const bytes = copyBytes(given, given.byteLength);
      accessors[p.name] = bytes;
      const type: DataType = { kind: 'array', element: p.element, length: 0 };
      params.set(p.name, { kind: 'memory', view: new DataView(bytes), offset: 0, type });
    } else if (p.kind === 'reduction') {
      throw new Error(`the reduction ${p.name} is lowered by the link step before a kernel runs`);
    } else if (p.kind === 'texture') {
      throw new Error(`the reference interpreter does not run texture arguments (${p.name})`);
    } else {
      if (given === undefined || ArrayBuffer.isView(given)) {
        throw new Error(`the value argument ${p.name} needs a host value`);
      }
      params.set(p.name, constant(p.type, given));
    }
  }

  const deviceGlobals: Record<string, ArrayBuffer> = {};
  const globalPlaces = new Map<SymbolicId, Place>();
  for (const g of image.deviceGlobals) {
    const given = launch.deviceGlobals?.[g.symbolicId];
    const bytes = given ? copyBytes(given, g.info.size) : new ArrayBuffer(g.info.size);
    deviceGlobals[g.symbolicId] = bytes;
    globalPlaces.set(g.symbolicId, {
      kind: 'memory',
      view: new DataView(bytes),
      offset: 0,
      type: g.info.type,
    });
  }

  const size = (s: SizeValue): number => sizeValue(s, image, specValues);
  const dims = kernel.info.dimensions;
  // The kernel's workgroup size is in WGSL order (x = the last SYCL dimension).
  const local = Array.from(
    { length: dims },
    (_, d) => launch.local?.[d] ?? size(kernel.workgroupSize[dims - 1 - d]!),
  );
  const range = Array.from({ length: dims }, (_, d) => launch.range[d] ?? 1);
  const nd = kernel.info.ndRange;
  if (nd && range.some((r, d) => r % local[d]! !== 0)) {
    throw new Error(`the global range ${range} is not a multiple of the local range ${local}`);
  }
  const groups = range.map((r, d) => Math.ceil(r / local[d]!));
  const functions = new Map(image.functions.map((f) => [f.symbolicId, f]));
  const budget = { left: options.maxIterations ?? 1e8 };
  const lines: LogLine[] = [];

  for (const group of indices(groups)) {
    const workgroupArrays = new Map<string, Place>(
      kernel.workgroupArrays.map((w) => {
        const type: DataType = { kind: 'array', element: w.element, length: size(w.length) };
        const cell: Cell = { value: zeroOf(type) };
        return [w.name, { kind: 'cell', cell, path: [], type }];
      }),
    );
    const storage: Storage = {
      functions,
      params,
      workgroupArrays,
      specConstants,
      deviceGlobals: globalPlaces,
      budget,
      log: image.log,
      lines,
    };
    const items = [];
    const subGroupSize = subGroupSizeOf(kernel, local);
    for (const localId of indices(local)) {
      const globalId = localId.map((l, d) => group[d]! * local[d]! + l);
      // A basic range's items past the range return at once, as the GPU's guard makes them
      // (a kernel with reductions skips its body instead: they still combine nothing).
      if (!kernel.rangeGuardInBody && globalId.some((g, d) => g >= range[d]!)) continue;
      const machine = new Machine(storage, {
        globalId,
        globalRange: range,
        localId,
        localRange: local,
        groupId: group,
        groupRange: groups,
        globalLinearId: linear(globalId, range),
        localLinearId: linear(localId, local),
        subGroupSize,
      });
      items.push(machine.kernel(kernel.decl.body, module));
    }
    runWorkgroup(items, subGroupSize, kernel, module);
  }
  const log = lines
    .map((line, order) => ({ line, order, id: linear(line.item, range) }))
    .sort((a, b) => a.id - b.id || a.order - b.order)
    .map((l) => l.line);
  return { accessors, deviceGlobals, log };
}

/**
 * The items a sub-group holds, as the workgroup lowering makes them: the kernel's required size,
 * else min(32, the work-group's size).
 */
function subGroupSizeOf(kernel: LinkedKernel, local: readonly number[]): number {
  return (
    kernel.decl.subGroupSize ??
    Math.min(
      32,
      local.reduce((a, b) => a * b, 1),
    )
  );
}

/**
 * Steps every item to its next barrier or group function in turn; all must reach the same one,
 * or all finish. At a group function each item is resumed with its result.
 */
function runWorkgroup(
  items: Generator<Stop, void, Value | undefined>[],
  subGroup: number,
  kernel: LinkedKernel,
  module: string,
): void {
  let running = items;
  let inputs: (Value | undefined)[] = running.map(() => undefined);
  while (running.length > 0) {
    const stops: Stop[] = [];
    const waiting = running.filter((item, i) => {
      const step = item.next(inputs[i]);
      if (step.done) return false;
      stops.push(step.value);
      return true;
    });
    const first = stops[0];
    const same = (s: Stop) =>
      s === BARRIER ? first === BARRIER : first !== BARRIER && s.call === first?.call;
    const together = waiting.length === running.length && stops.every(same);
    if (waiting.length !== 0 && !together) {
      const { line, column } = kernel.decl.span;
      throw new InterpretError(
        `a barrier or group function reached by ${waiting.length} of the workgroup's ${running.length} items, or not the same one: WGSL requires uniform control flow there`,
        module,
        line,
        column,
      );
    }
    inputs =
      first === undefined || first === BARRIER
        ? waiting.map(() => undefined)
        : groupResults(
            first.call,
            stops.map((s) => (s as GroupArrival).args),
            subGroup,
          );
    running = waiting;
  }
}

function constant(type: DataType, value: JsonValue): Place {
  return { kind: 'constant', value: fromShareable(type, value as ShareableValue), type };
}

function copyBytes(view: ArrayBufferView, size: number): ArrayBuffer {
  const bytes = new ArrayBuffer(size);
  new Uint8Array(bytes).set(
    new Uint8Array(view.buffer, view.byteOffset, Math.min(view.byteLength, size)),
  );
  return bytes;
}

/** SYCL's linear id: the last dimension varies fastest. */
function linear(id: readonly number[], range: readonly number[]): number {
  return id.reduce((acc, x, d) => acc * range[d]! + x, 0);
}

/** Every index of an n-dimensional range, the last dimension fastest. */
function* indices(range: readonly number[]): Generator<number[]> {
  const total = range.reduce((a, b) => a * b, 1);
  for (let k = 0; k < total; k++) {
    const id = new Array<number>(range.length);
    let rest = k;
    for (let d = range.length - 1; d >= 0; d--) {
      id[d] = rest % range[d]!;
      rest = Math.floor(rest / range[d]!);
    }
    yield id;
  }
}

function sizeValue(
  s: SizeValue,
  image: LinkedImage,
  values: ReadonlyMap<SymbolicId, JsonValue>,
): number {
  switch (s.kind) {
    case 'literal':
      return s.value;
    case 'specConstant': {
      const c = image.specConstants.find((x) => x.symbolicId === s.symbolicId)!;
      const leaf = c.info.leaves.find((l) => l.id === s.leafId)!;
      let v = values.get(s.symbolicId) ?? null;
      for (const p of leaf.path) v = (v as Record<string | number, JsonValue>)[p] ?? null;
      return Number(v);
    }
    case 'binary': {
      const a = sizeValue(s.left, image, values);
      const b = sizeValue(s.right, image, values);
      const ops = { '+': a + b, '-': a - b, '*': a * b, '/': Math.trunc(a / b), '%': a % b };
      return ops[s.operator] >>> 0;
    }
  }
}
