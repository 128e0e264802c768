/**
 * Every message of the link step (SYCL2xxx), one function per kind of message, in the shape of
 * Rollup's `logs.ts`: each takes the facts of the problem (symbolic IDs, types, sizes) and
 * returns the code and the words. Grouped by code, in code order; the notes a diagnostic points
 * at other places with are made beside their message.
 */
import { type DataType, type KernelLimit, typeName } from '@syclts/dsl';
import type { GroupFunction, JointMatrixStmt } from '../ir/device-code.js';
import type { DeclarationKind } from '../link/symbols.js';
import { type Message, message } from './codes.js';

const quoted = (items: readonly string[]) => items.map((i) => `'${i}'`).join(', ');

// SYCL2001: a `deviceImageScope` global used by several images

export function deviceImageScopeShared(
  global: string,
  images: readonly string[],
  kernels: readonly string[],
): Message {
  return message(
    'SYCL2001',
    `device_global '${global}' with property deviceImageScope is used in more than one device image (${quoted(images)}) by kernels ${quoted(kernels)}`,
    'use it from kernels of one module only, link with split "whole", or drop deviceImageScope',
  );
}

/** The note at each kernel that uses the global. */
export function deviceImageScopeUse(kernel: string, image: string): string {
  return `kernel '${kernel}' uses it in device image '${image}'`;
}

// SYCL2002 and SYCL2003: an emulated constant sizes a workgroup or a workgroup array

const EMULATED_FIX =
  "which needs a pipeline constant; emulated specialization constants live in a buffer: build with specConstants 'both' (this kernel then ships native only) or 'native'";

/** `dimension`: the SYCL dimension the constant sizes. */
export function emulatedWorkgroupSize(constant: string, dimension: number, kernel: string) {
  return message(
    'SYCL2002',
    `specialization constant '${constant}' sizes the workgroup size (dimension ${dimension}) of kernel '${kernel}', ${EMULATED_FIX}`,
  );
}

export function emulatedWorkgroupArray(constant: string, array: string, kernel: string) {
  return message(
    'SYCL2003',
    `specialization constant '${constant}' sizes the length of workgroup array '${array}' of kernel '${kernel}', ${EMULATED_FIX}`,
  );
}

// SYCL2004: a reference the link step cannot resolve

export function namespaceImport(name: string): Message {
  return message('SYCL2004', `'${name}' is a namespace import, not a declaration`);
}

export function undeclared(name: string, module: string): Message {
  return message('SYCL2004', `'${name}' is not declared in ${module}`);
}

export function unknownModule(specifier: string, importer: string): Message {
  return message(
    'SYCL2004',
    `'${specifier}' (imported by ${importer}) is not a known .sycl.ts module`,
  );
}

export function exportCycle(name: string, module: string): Message {
  return message('SYCL2004', `'${name}' is re-exported in a cycle through ${module}`);
}

export function ambiguousExport(name: string, module: string): Message {
  return message(
    'SYCL2004',
    `'${name}' is exported by ${module} through several 'export *' with different meanings`,
  );
}

export function notExported(module: string, name: string): Message {
  return message('SYCL2004', `${module} does not export '${name}'`);
}

// SYCL2005: a declaration of the wrong kind

const KIND_WORDS: Record<DeclarationKind, string> = {
  specConstant: 'a specialization constant',
  deviceGlobal: 'a device global',
  function: 'a device function',
  kernel: 'a kernel',
};

export function wrongKind(id: string, kind: DeclarationKind, wanted: DeclarationKind): Message {
  return message('SYCL2005', `'${id}' is ${KIND_WORDS[kind]}, not ${KIND_WORDS[wanted]}`);
}

// SYCL2006: a type that cannot live where it is used

/** `argument`: the argument, or its member, that breaks the rules. */
export function uniformLayout(argument: string, kernel: string): Message {
  return message(
    'SYCL2006',
    `value argument '${argument}' of kernel '${kernel}' breaks the uniform layout rules (arrays and structs need 16-byte alignment and stride); pass it through an accessor`,
  );
}

export function boolAccessor(accessor: string, kernel: string): Message {
  return message(
    'SYCL2006',
    `accessor '${accessor}' of kernel '${kernel}': bool is not host-shareable; use u32`,
  );
}

// SYCL2007: a size that is not a constant

/** A size of a kernel: a workgroup size (by SYCL dimension) or a workgroup array's length. */
export type KernelSize =
  | { readonly kind: 'workgroupSize'; readonly dimension: number }
  | { readonly kind: 'workgroupArray'; readonly name: string };

export function sizeNotConstant(size: KernelSize, kernel: string): Message {
  const what =
    size.kind === 'workgroupSize'
      ? `workgroup size dimension ${size.dimension}`
      : `the length of workgroup array '${size.name}'`;
  return message(
    'SYCL2007',
    `${what} of kernel '${kernel}' must be an integer literal or built from integer specialization constants`,
  );
}

export function workgroupSizeNotSingle(dimension: number, kernel: string): Message {
  return message(
    'SYCL2007',
    `workgroup size dimension ${dimension} of kernel '${kernel}' must be a literal or a single integer specialization constant`,
  );
}

// SYCL2008: recursion across modules

export function recursion(cycle: readonly string[]): Message {
  return message(
    'SYCL2008',
    `device functions call each other recursively (${cycle.join(' -> ')}); WGSL has no recursion`,
  );
}

// SYCL2009: native composite constants too large

const NATIVE_FIX = "; build with specConstants 'emulated' or 'both'";

/** `native`: the build asked for the native variant only (so the fix is to ask for another). */
export function privateMemory(kernel: string, bytes: number, limit: number, native: boolean) {
  return message(
    'SYCL2009',
    `the composite specialization constants of kernel '${kernel}' take ${bytes} bytes of private memory in the native variant, WGSL allows ${limit}${native ? NATIVE_FIX : ''}`,
  );
}

export function constantArrayLength(
  kernel: string,
  length: number,
  limit: number,
  native: boolean,
) {
  return message(
    'SYCL2009',
    `the composite specialization constants of kernel '${kernel}' hold an array of ${length} elements, which the native variant builds with a WGSL array value constructor of at most ${limit}${native ? NATIVE_FIX : ''}`,
  );
}

// SYCL2010: more constant leaves than `@id` values

export function overrideIds(image: string, leaves: number, ids: number): Message {
  return message(
    'SYCL2010',
    `device image '${image}' has ${leaves} specialization constant leaves; native overrides take @id 0..${ids - 1}: split the program further or build with specConstants 'emulated'`,
  );
}

// SYCL2020: a barrier not every item of the work-group reaches (link/uniformity.ts)

const UNIFORM_HINT =
  'compute the condition from values every item shares (the group id, ranges, specialization constants, value arguments, read-only accessors), or move the barrier out of the branch';

const mustBeReached = (what: string) =>
  `${what} must be reached by every item of the work-group together, but which items get here depends on a value that varies between them`;

export function nonUniformBarrier(): Message {
  return message('SYCL2020', mustBeReached('`barrier()`'), UNIFORM_HINT);
}

const GROUP_FUNCTION_NAMES: Readonly<Record<GroupFunction, string>> = {
  reduce: 'reduceOverGroup',
  exclusiveScan: 'exclusiveScanOverGroup',
  inclusiveScan: 'inclusiveScanOverGroup',
  broadcast: 'groupBroadcast',
  any: 'anyOfGroup',
  all: 'allOfGroup',
  none: 'noneOfGroup',
  shiftLeft: 'shiftGroupLeft',
  shiftRight: 'shiftGroupRight',
  permuteXor: 'permuteGroupByXor',
  select: 'selectFromGroup',
  jointReduce: 'jointReduce',
  jointAny: 'jointAnyOf',
  jointAll: 'jointAllOf',
  jointNone: 'jointNoneOf',
};

/** `fn`: a group function of the IR, or a joint scan's DSL name. */
export function nonUniformGroupFunction(
  fn: GroupFunction | 'jointExclusiveScan' | 'jointInclusiveScan',
): Message {
  const name =
    fn === 'jointExclusiveScan' || fn === 'jointInclusiveScan' ? fn : GROUP_FUNCTION_NAMES[fn];
  return message(
    'SYCL2020',
    mustBeReached(`\`${name}(...)\``),
    'every item of the group must call it together: move it out of the branch or loop, or make the condition the same for every item',
  );
}

/** The DSL's name of each joint-matrix operation. */
const MATRIX_FUNCTION_NAMES: Readonly<Record<Exclude<JointMatrixStmt['fn'], 'declare'>, string>> = {
  fill: 'jointMatrixFill',
  load: 'jointMatrixLoad',
  store: 'jointMatrixStore',
  mad: 'jointMatrixMad',
  apply: 'jointMatrixApply',
};

export function nonUniformMatrixFunction(fn: Exclude<JointMatrixStmt['fn'], 'declare'>): Message {
  return message(
    'SYCL2020',
    mustBeReached(`\`${MATRIX_FUNCTION_NAMES[fn]}(...)\``),
    'every item of the sub-group must call it together: move it out of the branch or loop, or make the condition the same for every item',
  );
}

export function nonUniformBroadcastId(): Message {
  return message(
    'SYCL2020',
    'the id of `groupBroadcast` over a work-group must be the same for every item of the work-group, but it depends on a value that varies between them',
    'compute the id from values every item shares (the group id, ranges, specialization constants, value arguments, read-only accessors)',
  );
}

/** `callee`: the device function's own name. */
export function nonUniformCall(callee: string): Message {
  return message(
    'SYCL2020',
    mustBeReached(`\`${callee}\`, which reaches a barrier,`),
    UNIFORM_HINT,
  );
}

export function combinerBarrier(callee: string, reduction: string): Message {
  return message(
    'SYCL2020',
    `the combiner \`${callee}\` of reduction \`${reduction}\` reaches a barrier: a combiner runs wherever an item combines, under any control flow`,
    'combine values in the function without barriers or group functions',
  );
}

/** `position`: the argument's, from 1. */
export function nonUniformArgument(position: number, callee: string): Message {
  return message(
    'SYCL2020',
    `argument ${position} of \`${callee}\` decides whether it reaches a barrier, so it must be the same for every item of the work-group`,
    UNIFORM_HINT,
  );
}

/** Where a value that varies between items comes from. */
export type VaryingSource =
  | {
      readonly kind:
        | 'pastRange'
        | 'workgroupMemory'
        | 'deviceGlobal'
        | 'itemId'
        | 'atomic'
        | 'groupResult';
    }
  /** An accessor the kernel may write. */
  | { readonly kind: 'writable'; readonly accessor: string };

function varyingSource(source: VaryingSource): string {
  switch (source.kind) {
    case 'pastRange':
      return 'in a basic kernel the items past the range return first';
    case 'workgroupMemory':
      return 'it reads workgroup memory';
    case 'deviceGlobal':
      return 'it reads a device global';
    case 'itemId':
      return "it depends on the item's id";
    case 'atomic':
      return 'it is the result of an atomic operation';
    case 'groupResult':
      return 'it is the result of a scan or of a sub-group function, which differ between items';
    case 'writable':
      return `it reads \`${source.accessor}\`, which the kernel may write`;
  }
}

/** The note at the condition that decides which items reach the barrier. */
export function varyingCondition(source: VaryingSource): string {
  return `this condition varies between items: ${varyingSource(source)}`;
}

/** The note at the value the condition depends on. */
export function varyingValue(source: VaryingSource): string {
  return `this varies between items: ${varyingSource(source)}`;
}

/** The note at the barrier a call reaches. */
export function barrierReached(): string {
  return 'the barrier it reaches';
}

// SYCL2021: a kernel over a WebGPU limit (link/limits.ts)

/** What of a kernel needs a limit. */
export type LimitUse =
  /** `dimension`: the SYCL dimension, which is WGSL's `component`. */
  | { readonly kind: 'workgroupSize'; readonly dimension: number; readonly component: string }
  | { readonly kind: 'invocations'; readonly size: readonly number[] }
  | { readonly kind: 'workgroupMemory'; readonly launchSlot: boolean }
  | { readonly kind: 'storageBuffers' }
  | { readonly kind: 'textures' };

function limitUse(use: LimitUse): string {
  switch (use.kind) {
    case 'workgroupSize':
      return `its workgroup size in SYCL dimension ${use.dimension}, WGSL's ${use.component}`;
    case 'invocations':
      return `a workgroup of ${use.size.join(' x ')} items`;
    case 'workgroupMemory':
      return `bytes of workgroup memory, each array rounded up to 16 bytes${use.launchSlot ? ', 16 for its launch slot' : ''}`;
    case 'storageBuffers':
      return 'storage buffers: its accessors, device-global buffers and the buffers syclts adds for specialization constants and launch slots';
    case 'textures':
      return 'texture arguments of that kind (an external texture counts as 4 sampled textures and a sampler)';
  }
}

/**
 * `allowed`: the limit the kernel is held to, `declared` when its requiredLimits set it;
 * `fromDefaults`: a specialization constant's default value went into `value`.
 */
export function emptyWorkgroup(kernel: string, dimension: number): Message {
  return message(
    'SYCL2021',
    `kernel '${kernel}' has a work-group size of 0 in dimension ${dimension} (with the specialization constants at their default values): WebGPU needs at least 1`,
    'give the specialization constant that sizes it a default of 1 or more',
  );
}

export function kernelLimit(
  kernel: string,
  need: {
    readonly limit: KernelLimit;
    readonly value: number;
    readonly use: LimitUse;
    readonly fromDefaults: boolean;
  },
  allowed: number,
  declared: boolean,
): Message {
  const defaults = need.fromDefaults
    ? ' (with the specialization constants at their default values)'
    : '';
  const fix = declared
    ? `, the value its requiredLimits declares; raise it to ${need.value}`
    : `, WebGPU's default limit; a kernel that needs more declares requiredLimits: { ${need.limit}: ${need.value} } in its spec and runs only on devices that offer it`;
  return message(
    'SYCL2021',
    `kernel '${kernel}' needs ${need.limit} ${need.value} (${limitUse(need.use)})${defaults}, over ${allowed}${fix}`,
  );
}

// SYCL2022: a device global too large to bind (link/global-storage.ts)

const GLOBAL_FIX =
  'use a smaller global, or keep large data in a buffer passed through an accessor';

/** WebGPU's defaults the global is over. */
export interface BindingLimits {
  readonly binding: number;
  readonly buffer: number;
}

const bindingLimits = (limits: BindingLimits) =>
  `WebGPU's default maxStorageBufferBindingSize is ${limits.binding} bytes (and maxBufferSize ${limits.buffer})`;

export function globalTooLarge(global: string, size: number, limits: BindingLimits): Message {
  return message(
    'SYCL2022',
    `device global '${global}' takes ${size} bytes; ${bindingLimits(limits)}`,
    GLOBAL_FIX,
  );
}

/** `image`: the device image whose `deviceImageScope` buffer it is in; null: the program's. */
export function globalPastBinding(
  global: string,
  end: number,
  image: string | null,
  limits: BindingLimits,
): Message {
  const buffer =
    image === null
      ? "the program's buffer of device globals"
      : `the buffer of device image '${image}'`;
  return message(
    'SYCL2022',
    `device global '${global}' ends at byte ${end} of ${buffer}, which kernels bind whole; ${bindingLimits(limits)}`,
    GLOBAL_FIX,
  );
}

// SYCL2023: a function at the parameter limit that takes a launch slot

export function slotParameter(fn: string, parameters: number, limit: number): Message {
  return message(
    'SYCL2023',
    `device function '${fn}' takes ${parameters} parameters and reads specialization constants, so its emulated variant takes the launch slot as one more, past WGSL's ${limit}`,
    "pass related values together as a struct, or build with specConstants 'native'",
  );
}

// SYCL2026: a call that does not match its callee (link/resolve.ts)

/** How a call differs from its callee's declaration as linked. */
export type CallMismatch =
  | { readonly kind: 'arity'; readonly passed: number; readonly takes: number }
  /** `position`: the argument's, from 1. */
  | {
      readonly kind: 'argument';
      readonly position: number;
      readonly given: DataType;
      readonly parameter: string;
      readonly expected: DataType;
    }
  /** A call made as a statement, of a function that now returns a value. */
  | { readonly kind: 'discards'; readonly returns: DataType }
  | { readonly kind: 'usesNothing'; readonly result: DataType }
  | { readonly kind: 'result'; readonly expected: DataType; readonly returns: DataType };

function callMismatchText(mismatch: CallMismatch): string {
  switch (mismatch.kind) {
    case 'arity':
      return `it passes ${mismatch.passed} argument${mismatch.passed === 1 ? '' : 's'}, the function takes ${mismatch.takes}`;
    case 'argument':
      return `argument ${mismatch.position} is ${typeName(mismatch.given)}, the parameter \`${mismatch.parameter}\` is ${typeName(mismatch.expected)}`;
    case 'discards':
      return `it discards nothing, but the function now returns ${typeName(mismatch.returns)}`;
    case 'usesNothing':
      return `it uses a ${typeName(mismatch.result)} result, but the function returns nothing`;
    case 'result':
      return `it expects ${typeName(mismatch.expected)}, the function returns ${typeName(mismatch.returns)}`;
  }
}

export function callMismatch(callee: string, mismatch: CallMismatch): Message {
  return message(
    'SYCL2026',
    `the call of \`${callee}\` does not match its declaration: ${callMismatchText(mismatch)}`,
    'rebuild the calling module against the current declaration (its device object is older than the callee)',
  );
}

/** The note at the callee's declaration. */
export function declaredHere(callee: string): string {
  return `\`${callee}\` is declared here`;
}
