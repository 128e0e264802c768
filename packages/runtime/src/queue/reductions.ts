/**
 * Part of `@syclts/runtime/groups` (see group-hook.ts). A launch of a kernel with reduction variables (`KernelInfo.reductions`):
 * the kernel writes one partial result per work-group into a buffer of the queue's, bound in the
 * place of each variable, and one finishing launch per variable folds them into the host's
 * buffer. The partials' buffers are kept per kernel and argument, and grow with the launches.
 */
import {
  type AccessorType,
  accessor,
  type DataType,
  type DeviceGlobal,
  type KernelInfo,
  type ReductionInfo,
  type ReductionType,
  type SpanType,
  sameType,
  strideOf,
  typeName,
  u32,
} from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { DeviceBuffer } from '../memory/buffer.js';
import { copyOnDevice, isDeviceGlobal, locateGlobal } from '../memory/device-global-copy.js';
import type { ResolvedKernel } from '../program/resolve.js';
import { canonicalize } from '../values/host-value.js';
import { show } from '../values/scalars.js';
import type { QueueCore } from './core.js';
import type { KernelAction, TargetCopies } from './kernel-action.js';
import {
  type ArgSchema,
  type CheckedArgs,
  type CheckedReduction,
  checkBuffer,
  failure,
  type GivenArgs,
  type GlobalTarget,
} from './kernel-args.js';

/** Items of a finishing kernel's one work-group. */
const FINISHER_ITEMS = 256;

/** The launch's arguments with each reduction's partials in its place, and the finishing launches. */
export function reductionLaunches(
  core: QueueCore,
  api: string,
  resolved: ResolvedKernel,
  schema: ArgSchema,
  given: GivenArgs,
  global: readonly number[],
  local: readonly number[] | null,
): { readonly args: CheckedArgs; readonly finishers: readonly KernelAction[] } {
  const reductions = resolved.info.reductions!;
  const groups = workGroups(resolved.info, global, local);
  const args = [...given];
  const finishers = reductions.map((r) => {
    const index = schema.index.get(r.arg)!;
    const target = given[index] as CheckedReduction;
    const buffer = partialsFor(core, resolved, r, groups);
    args[index] = buffer;
    return finisher(core, api, resolved, r, buffer, target, groups);
  });
  return { args: args as CheckedArgs, finishers };
}

/**
 * A global's result goes through a buffer of the queue's: the finisher binds that (a bind group
 * cannot take a global at its offset in the shared buffer), with the global's value copied in
 * first where it is combined in, and the result copied to the global after.
 */
function targetOf(
  core: QueueCore,
  kernel: ResolvedKernel,
  r: ReductionInfo,
  target: CheckedReduction,
): { readonly buffer: DeviceBuffer; readonly around: TargetCopies | null } {
  if (target.target instanceof DeviceBuffer) return { buffer: target.target, around: null };
  const { storage, bytes } = target.target;
  const buffer = keptBuffer(
    core,
    kernel,
    `${r.arg} target`,
    r.element,
    r.extent ?? 1,
    `${kernel.symbolicId} reduction '${r.arg}' into ${storage.name}`,
  );
  // Replaced, its earlier contents do not matter: a failure that wrote them last must not reach
  // this launch (the finisher reads its target).
  if (!target.keep) buffer.writer = null;
  const name = `${kernel.symbolicId} reduction '${r.arg}'`;
  const context = core.context;
  return {
    buffer,
    around: {
      before: target.keep
        ? copyOnDevice(
            context,
            `${name}: reading ${storage.name}`,
            storage,
            buffer,
            bytes,
            'fromGlobal',
          )
        : null,
      after: copyOnDevice(
        context,
        `${name}: writing ${storage.name}`,
        storage,
        buffer,
        bytes,
        'toGlobal',
      ),
    },
  };
}

/** The launch's work-groups: a basic range's last ones in each dimension may be partial. */
function workGroups(
  info: KernelInfo,
  global: readonly number[],
  local: readonly number[] | null,
): number {
  const dims = global.length;
  return global.reduce((n, size, d) => {
    const wg = info.workgroupSize[dims - 1 - d]!;
    const l = local?.[d] ?? (wg.kind === 'literal' ? wg.value : 1);
    return n * Math.ceil(size / l);
  }, 1);
}

/** Per queue (its scheduler) and kernel: the reductions' buffers, by argument and use. */
const kept = new WeakMap<object, WeakMap<KernelInfo, Map<string, DeviceBuffer>>>();

/** A buffer of at least `elements` of `element`, kept for the kernel under `key`, grown as needed. */
function keptBuffer(
  core: QueueCore,
  resolved: ResolvedKernel,
  key: string,
  element: DataType,
  elements: number,
  label: string,
): DeviceBuffer {
  let byKernel = kept.get(core.scheduler);
  if (!byKernel) {
    byKernel = new WeakMap();
    kept.set(core.scheduler, byKernel);
  }
  let byKey = byKernel.get(resolved.info);
  if (!byKey) {
    byKey = new Map();
    byKernel.set(resolved.info, byKey);
  }
  const known = byKey.get(key);
  if (known && known.length >= elements) return known;
  const buffer = new DeviceBuffer(core.scheduler, element, elements, { label });
  byKey.set(key, buffer);
  return buffer;
}

function partialsFor(
  core: QueueCore,
  resolved: ResolvedKernel,
  r: ReductionInfo,
  groups: number,
): DeviceBuffer {
  // One partial per work-group, a span's one per value.
  const elements = Math.max(1, groups) * (r.extent ?? 1);
  const label = `${resolved.symbolicId} reduction '${r.arg}' partial results`;
  return keptBuffer(core, resolved, r.arg, r.element, elements, label);
}

const schemas = new WeakMap<DataType, ArgSchema>();

/** The finishing kernel's arguments: partials, target, count, keep. */
function finisherSchema(element: DataType): ArgSchema {
  let schema = schemas.get(element);
  if (!schema) {
    const names = ['partials', 'target', 'count', 'keep'];
    schema = {
      names,
      types: [accessor(element, 'read'), accessor(element, 'read_write'), u32, u32],
      index: new Map(names.map((n, i) => [n, i])),
      reads: [0, 1],
      writes: [1],
    };
    schemas.set(element, schema);
  }
  return schema;
}

function finisher(
  core: QueueCore,
  api: string,
  kernel: ResolvedKernel,
  r: ReductionInfo,
  partials: DeviceBuffer,
  target: CheckedReduction,
  groups: number,
): KernelAction {
  const info = kernel.image.kernels[r.finisher]!;
  const resolved: ResolvedKernel = { ...kernel, symbolicId: r.finisher, info };
  const { buffer, around } = targetOf(core, kernel, r, target);
  return {
    api,
    name: r.finisher,
    resolved,
    policy: core.policyFor(resolved),
    plans: core.plansFor(info),
    global: [FINISHER_ITEMS],
    local: [FINISHER_ITEMS],
    schema: finisherSchema(r.element),
    args: [
      partials,
      buffer,
      canonicalize(u32, groups, 'count'),
      canonicalize(u32, target.keep ? 1 : 0, 'keep'),
    ],
    finishers: [],
    log: null,
    around,
  };
}

export function checkReduction(
  api: string,
  kernelName: string,
  name: string,
  type: ReductionType,
  value: unknown,
  device: GPUDevice,
): CheckedReduction {
  const fail = (why: string) => failure(api, kernelName, errc.kernelArgument, name, why);
  const wrapped =
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof DeviceBuffer) &&
    !isDeviceGlobal(value);
  const toGlobal = wrapped ? 'deviceGlobal' in value : isDeviceGlobal(value);
  if (wrapped && toGlobal && 'buffer' in value) {
    throw fail('give `buffer` or `deviceGlobal`, not both');
  }
  const given = wrapped
    ? toGlobal
      ? (value as { deviceGlobal: unknown }).deviceGlobal
      : (value as { buffer?: unknown }).buffer
    : value;
  if (toGlobal && !isDeviceGlobal(given)) {
    throw fail(`deviceGlobal must be a device global, got ${show(given)}`);
  }
  const init = wrapped ? (value as { initializeToIdentity?: unknown }).initializeToIdentity : false;
  if (init !== undefined && typeof init !== 'boolean') {
    throw fail(`initializeToIdentity must be true or false, got ${show(init)}`);
  }
  const span = type.element.kind === 'span' ? type.element : null;
  const element = span ? span.element : (type.element as DataType);
  const keep = init !== true;
  if (toGlobal) {
    const global = given as DeviceGlobal;
    return { kind: 'reduction', target: globalTarget(api, fail, global, element, span), keep };
  }
  const accessor: AccessorType = { kind: 'accessor', element, access: 'read_write' };
  const target = checkBuffer(api, kernelName, name, accessor, given, device);
  if (target.length === 0) {
    throw fail("the reduction's buffer is empty: its first element receives the result");
  }
  if (span && target.length < span.extent) {
    throw fail(
      `the buffer has ${target.length} elements and the span reduction ${span.extent}: its first ${span.extent} receive the results`,
    );
  }
  return { kind: 'reduction', target, keep };
}

/**
 * A device global as a reduction's target: of the reduction's type (a span's: an array of at
 * least its values), held on the device, its result whole 4-byte words (what WebGPU copies).
 */
function globalTarget(
  api: string,
  fail: (why: string) => SyclError,
  global: DeviceGlobal,
  element: DataType,
  span: SpanType | null,
): GlobalTarget {
  let storage: ReturnType<typeof locateGlobal>;
  try {
    storage = locateGlobal(api, global);
  } catch (error) {
    // Named after the argument, as every other refusal of it.
    if (!(error instanceof SyclError)) throw error;
    throw fail(error.message.slice(api.length + 2));
  }
  const type = global.type;
  const fits = span
    ? type.kind === 'array' && sameType(type.element, element) && type.length >= span.extent
    : sameType(type, element);
  if (!fits) {
    const wanted = span
      ? `an array of at least ${span.extent} ${typeName(element)}`
      : typeName(element);
    throw fail(
      `device global ${storage.name} holds ${typeName(type)}; the reduction writes ${wanted}`,
    );
  }
  if (storage.storage === 'host') {
    throw fail(
      `device global ${storage.name} has device_image_scope and no device image holds it, so its value stays on the host; reduce into a buffer and copy`,
    );
  }
  // WebGPU copies whole 4-byte words: a lone f16 takes the padding after it (globals start at
  // multiples of 16 bytes), a span of f16 must not reach into the array's next element.
  const written = span ? span.extent * strideOf(element, 'storage') : storage.info.size;
  const bytes = Math.ceil(written / 4) * 4;
  if (bytes > written && span && type.kind === 'array' && type.length > span.extent) {
    throw fail(
      `the reduction writes ${written} bytes of device global ${storage.name}, and WebGPU copies whole 4-byte words, which would reach its next element; reduce into a buffer`,
    );
  }
  return { storage: { ...storage, storage: storage.storage }, bytes };
}
