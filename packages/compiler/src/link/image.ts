/**
 * Builds one device image from its kernels: numeric IDs (dense from 0, in order of first use),
 * the emulation layout, WGSL names, binding numbers and the runtime's kernel descriptions.
 */
import {
  type BindingInfo,
  type DataType,
  DEFAULT_KERNEL_LIMITS,
  type JointMatrixInfo,
  type JsonValue,
  type KernelInfo,
  LAUNCH_UNIFORM,
  type LaunchField,
  memberLayout,
  roundUp,
  type SizeExpr,
  type SpecConstantInfo,
  type SpecConstantLeaf,
  type SpecConstantMode,
  type SymbolicId,
  sizeOf,
  strideOf,
  usesLaunchSlots,
  type WorkgroupMemory,
  type WorkgroupSizeDim,
} from '@syclts/dsl';
import { scalarOf } from '../builtins/evaluate.js';
import type { Message } from '../diagnostics/codes.js';
import { type Diagnostic, errorAt } from '../diagnostics/diagnostic.js';
import * as msg from '../diagnostics/link-messages.js';
import { findExprs, findUpdates, someExpr } from '../ir/children.js';
import type { Block, Expr, JointMatrixStmt } from '../ir/device-code.js';
import type { DeviceGlobalDecl, SpecConstantDecl } from '../ir/device-object.js';
import { matrixMemoryParts } from '../ir/matrix-memory.js';
import { WGSL_LIMITS } from '../ir/wgsl-limits.js';
import { compare } from './compare.js';
import {
  checkGlobalSizes,
  type GlobalLayout,
  globalInfo,
  layoutGlobals,
} from './global-storage.js';
import { containsScalar, leavesOf, MAX_WORD_LEAVES, uniformViolation } from './layout.js';
import { checkKernelLimits } from './limits.js';
import type {
  LinkedDeviceGlobal,
  LinkedFunction,
  LinkedGlobalStorage,
  LinkedImage,
  LinkedKernel,
  LinkedSpecConstant,
  LinkedWorkgroupArray,
  SizeValue,
} from './linked-image.js';
import { linkLog, prints } from './log.js';
import type { Reach } from './reach.js';
import type { ResolvedKernel } from './resolve.js';
import { literalSize, sizeLeaves, sizeValue } from './sizes.js';
import { LAUNCH_FIELDS, Namer } from './wgsl-names.js';

const MAX_UNIFORM_BYTES = 65536;
/** Records of per-launch values one binding spans at most (launches that share a bind call). */
const MAX_LAUNCH_RECORDS = 64;
const RECORDS_WINDOW_BYTES = 65536;
/** `@id(n)` takes 0..65535. */
const MAX_OVERRIDE_IDS = 65536;
/** A basic kernel's work-group: 64 items in each of its shapes. */
export const BASIC_WORKGROUP: Record<1 | 2 | 3, readonly [number, number, number]> = {
  1: [64, 1, 1],
  2: [8, 8, 1],
  3: [4, 4, 4],
};

export interface ImageInput {
  readonly id: string;
  readonly kernels: readonly { readonly kernel: ResolvedKernel; readonly reach: Reach }[];
  readonly specConstantDecl: (id: SymbolicId) => SpecConstantDecl;
  readonly deviceGlobalDecl: (id: SymbolicId) => DeviceGlobalDecl;
  /** The text of a module. */
  readonly sourceOf: (module: string) => string;
  /** The layout of the buffer every image shares: the same for all images of the program. */
  readonly programGlobals: GlobalLayout;
  readonly mode: SpecConstantMode | 'both';
}

export function buildImage(input: ImageInput, diagnostics: Diagnostic[]): LinkedImage {
  const kernels = [...input.kernels].sort((a, b) => compare(a.kernel.id, b.kernel.id));
  const names = Namer.module();
  const emulationNames = {
    wgslName: names.call('sc_buffer'),
    structName: names.call('SpecConstants'),
  };

  // Specialization constants: IDs in order of first use over the sorted kernels.
  const specIds = unique(kernels.flatMap((k) => k.reach.specConstants));
  const specConstants: LinkedSpecConstant[] = [];
  let nextLeaf = 0;
  for (const id of specIds) {
    const decl = input.specConstantDecl(id);
    const leaves = leavesOf(decl.type, nextLeaf);
    nextLeaf += leaves.length;
    // A scalar's override is the constant itself; a composite adds one override per leaf.
    const scalar = decl.type.kind === 'scalar';
    const wgslName = names.call(`sc_${decl.name}`, (n) =>
      scalar ? [] : leaves.map((_, i) => `${n}_${i}`),
    );
    specConstants.push({
      symbolicId: id,
      wgslName,
      leafNames: scalar ? [wgslName] : leaves.map((_, i) => `${wgslName}_${i}`),
      info: { type: decl.type, leaves, defaultValue: decl.defaultValue, emulationOffset: 0 },
    });
  }
  if (input.mode !== 'emulated' && nextLeaf > MAX_OVERRIDE_IDS) {
    diagnostics.push(
      errorAt(
        msg.overrideIds(input.id, nextLeaf, MAX_OVERRIDE_IDS),
        kernels[0]!.kernel.module,
        null,
      ),
    );
  }
  const emulationMembers = specConstants.map((c) => ({ name: c.wgslName, type: c.info.type }));
  const emulationLayout = memberLayout(emulationMembers.map((m) => m.type));
  const laidOut = specConstants.map((c, i) => ({
    ...c,
    info: { ...c.info, emulationOffset: emulationLayout.offsets[i]! } satisfies SpecConstantInfo,
  }));
  const leafOf = (
    symbolicId: SymbolicId,
    path: readonly (string | number)[],
  ): SpecConstantLeaf | null =>
    laidOut
      .find((c) => c.symbolicId === symbolicId)
      ?.info.leaves.find(
        (l) => l.path.length === path.length && l.path.every((p, i) => p === path[i]),
      ) ?? null;

  // Device globals in order of first use.
  const globalUses = unique(kernels.flatMap((k) => k.reach.deviceGlobals));
  const imageScoped = (id: SymbolicId) => input.deviceGlobalDecl(id).deviceImageScope;
  const imageGlobals = layoutGlobals(
    globalUses.filter(imageScoped),
    (id) => input.deviceGlobalDecl(id).type,
  );
  checkGlobalSizes(
    imageGlobals,
    globalUses.filter(imageScoped).map((id) => ({
      id,
      module: id.slice(0, id.lastIndexOf('#')),
      decl: input.deviceGlobalDecl(id),
    })),
    input.id,
    diagnostics,
  );
  let nextBinding = 0;
  const storageOf = (storage: 'program' | 'image'): LinkedGlobalStorage | null =>
    globalUses.some((id) => imageScoped(id) === (storage === 'image'))
      ? {
          storage,
          binding: nextBinding++,
          wgslName: names.call(`${storage}_globals`),
          structName: names.call(storage === 'image' ? 'ImageGlobals' : 'ProgramGlobals'),
        }
      : null;
  const globalStorage = { program: storageOf('program'), image: storageOf('image') };
  const deviceGlobals: LinkedDeviceGlobal[] = globalUses.map((id) => {
    const decl = input.deviceGlobalDecl(id);
    const storage = decl.deviceImageScope ? 'image' : 'program';
    const layout = storage === 'image' ? imageGlobals : input.programGlobals;
    const info = globalInfo(decl, layout.offsets.get(id)!);
    const container = globalStorage[storage]!;
    const wgslName = names.call(`dg_${decl.name}`);
    return {
      symbolicId: id,
      wgslName,
      place: `${container.wgslName}.${wgslName}`,
      storage,
      info,
    };
  });

  const reached = unique(kernels.flatMap((k) => k.reach.functions));
  // Callees come first: a caller's answer reads its callees' answers.
  const readsConstants = new Map<SymbolicId, boolean>();
  for (const fn of reached) {
    readsConstants.set(
      fn.id,
      fn.uses.some(
        (u) =>
          u.kind === 'specConstant' || (u.kind === 'function' && readsConstants.get(u.id) === true),
      ),
    );
  }
  const functions: LinkedFunction[] = reached.map(({ id, module, decl }) => ({
    symbolicId: id,
    module,
    wgslName: names.call(`fn_${decl.name}`),
    decl,
    readsSpecConstants: readsConstants.get(id)!,
  }));

  const linkedKernels = kernels.map(({ kernel, reach }) => {
    const built = buildKernel(
      kernel,
      reach,
      input.mode,
      names,
      () => nextBinding++,
      leafOf,
      (id) => input.specConstantDecl(id).type,
      diagnostics,
    );
    return {
      ...built,
      info: {
        ...built.info,
        bindings: [
          ...built.info.bindings,
          ...(['program', 'image'] as const).flatMap((storage): BindingInfo[] => {
            const container = globalStorage[storage];
            const uses = reach.deviceGlobals.some(
              (id) => imageScoped(id) === (storage === 'image'),
            );
            return container && uses
              ? [{ kind: 'deviceGlobals', group: 0, binding: container.binding, storage }]
              : [];
          }),
        ],
      },
    };
  });

  // A variant no kernel can run in is not emitted.
  const modes = (['native', 'emulated'] as const).filter((m) =>
    linkedKernels.some((k) => k.info.variants.includes(m)),
  );
  // The emulated variant passes a launch slot to each function that reads constants.
  if (modes.includes('emulated')) {
    for (const f of functions) {
      if (!f.readsSpecConstants || f.decl.params.length < WGSL_LIMITS.functionParams) continue;
      diagnostics.push(
        errorAt(
          msg.slotParameter(f.symbolicId, f.decl.params.length, WGSL_LIMITS.functionParams),
          f.module,
          f.decl.span,
        ),
      );
    }
  }
  const emulationSize = roundUp(16, Math.max(emulationLayout.end, 4));
  // A layout the uniform rules do not take as it is stays uniform as words, where every constant
  // is small enough to rebuild from them: a value read from storage in every invocation costs a
  // memory-bound kernel several percent where a uniform costs under one.
  const uniformAsIs = uniformViolation(emulationMembers) === null;
  const inWords =
    !uniformAsIs && specConstants.every((c) => c.info.leaves.length <= MAX_WORD_LEAVES);
  const uniform = emulationSize <= MAX_UNIFORM_BYTES && (uniformAsIs || inWords);
  const emulation =
    specConstants.length === 0 || !modes.includes('emulated')
      ? null
      : {
          group: 0,
          binding: nextBinding++,
          addressSpace: uniform ? ('uniform' as const) : ('storage' as const),
          size: emulationSize,
          records: recordsOf(emulationSize),
          ...emulationNames,
          inWords: uniform && inWords,
        };
  const slotted = linkedKernels.some((k) =>
    k.info.variants.some((v) => usesLaunchSlots(k.info, v)),
  );
  const launchSlots = slotted
    ? {
        group: 0,
        binding: nextBinding++,
        wgslName: names.call('launch_slots'),
        structName: names.call('LaunchSlots'),
        workgroupName: names.call('launch_slot'),
        override: names.call('launch_slots_on'),
      }
    : null;
  const printing = kernels.filter((k) => prints(k.kernel, k.reach));
  const log = printing.length > 0 ? linkLog(kernels, nextBinding++, names) : null;
  const withLog = log
    ? linkedKernels.map((k, i) =>
        printing.includes(kernels[i]!)
          ? {
              ...k,
              info: {
                ...k.info,
                bindings: [
                  ...k.info.bindings,
                  { kind: 'log', group: log.group, binding: log.binding } satisfies BindingInfo,
                ],
              },
            }
          : k,
      )
    : linkedKernels;
  checkKernelLimits({ kernels: withLog, emulation }, leafDefault(laidOut), diagnostics);
  return {
    id: input.id,
    modes,
    kernels: withLog,
    functions,
    specConstants: laidOut,
    deviceGlobals,
    globalStorage,
    imageGlobalsSize: imageGlobals.size,
    sources: new Map(
      [...kernels.map((k) => k.kernel.module), ...functions.map((f) => f.module)].map((m) => [
        m,
        input.sourceOf(m),
      ]),
    ),
    // The emulation buffer exists only where an emulated variant is emitted.
    emulation,
    launchSlots,
    groupOffsetOverride: names.call('group_offsets_on'),
    log,
    wgslNames: [...names.taken],
  };
}

function buildKernel(
  kernel: ResolvedKernel,
  reach: Reach,
  mode: SpecConstantMode | 'both',
  names: Namer,
  takeBinding: () => number,
  leafOf: (symbolicId: SymbolicId, path: readonly (string | number)[]) => SpecConstantLeaf | null,
  typeOf: (symbolicId: SymbolicId) => DataType,
  diagnostics: Diagnostic[],
): LinkedKernel {
  const { decl, module } = kernel;
  const base = decl.name;
  const entryPoint = names.call(`k_${base}`);
  const launchName = names.call(`launch_${base}`);
  const launchStructName = names.call(`Launch_${base}`);
  const error = (message: Message, span = decl.span) =>
    diagnostics.push(errorAt(message, module, span));

  const size = (expr: Expr<SymbolicId>, what: msg.KernelSize): SizeValue => {
    const value = sizeValue(expr, leafOf);
    if (value) return value;
    error(msg.sizeNotConstant(what, kernel.id), expr.span);
    return { kind: 'literal', value: 1 };
  };

  // Workgroup size in WGSL component order: x is the last SYCL dimension.
  const dims = decl.range.dimensions;
  const sized =
    decl.range.kind === 'basic'
      ? BASIC_WORKGROUP[dims].map((value): SizeValue => ({ kind: 'literal', value }))
      : decl.range.workgroupSize
          .map((e, d) => size(e, { kind: 'workgroupSize', dimension: d }))
          .reverse();
  const one: SizeValue = { kind: 'literal', value: 1 };
  const workgroupSize = [sized[0] ?? one, sized[1] ?? one, sized[2] ?? one] as const;
  const sizeSpan = (c: number) =>
    decl.range.kind === 'nd'
      ? (decl.range.workgroupSize[dims - 1 - c]?.span ?? decl.span)
      : decl.span;
  const sizeDim = (value: SizeValue, c: number): WorkgroupSizeDim => {
    const literal = literalSize(value);
    if (literal !== null) return { kind: 'literal', value: literal };
    if (value.kind === 'specConstant') {
      return { kind: 'specConstant', symbolicId: value.symbolicId, leafId: value.leafId };
    }
    error(msg.workgroupSizeNotSingle(dims - 1 - c, kernel.id), sizeSpan(c));
    return { kind: 'literal', value: 1 };
  };
  const sizeDims = [
    sizeDim(workgroupSize[0], 0),
    sizeDim(workgroupSize[1], 1),
    sizeDim(workgroupSize[2], 2),
  ] as const;

  const workgroupArrays: LinkedWorkgroupArray[] = decl.workgroupArrays.map((w) => {
    const length = size(w.length, { kind: 'workgroupArray', name: w.name });
    const wgslName = names.call(`wg_${base}_${w.name}`);
    const literal = literalSize(length);
    return {
      name: w.name,
      wgslName,
      element: w.element,
      length,
      lengthOverride: literal === null ? names.call(`${wgslName}_length`) : null,
    };
  });

  // Uses that need a pipeline constant keep the kernel on the native path.
  const pipelineConstantUses = [
    ...workgroupSize.flatMap((v, c) =>
      sizeLeaves(v).map((leaf) => ({
        message: msg.emulatedWorkgroupSize(leaf.symbolicId, dims - 1 - c, kernel.id),
        span: sizeSpan(c),
      })),
    ),
    ...workgroupArrays.flatMap((w, i) =>
      sizeLeaves(w.length).map((leaf) => ({
        message: msg.emulatedWorkgroupArray(leaf.symbolicId, w.name, kernel.id),
        span: decl.workgroupArrays[i]!.length.span,
      })),
    ),
  ];
  if (mode === 'emulated') {
    for (const use of pipelineConstantUses) error(use.message, use.span);
  }
  // Native composites live in `var<private>`s, which WGSL caps per shader.
  const privateBytes = reach.specConstants
    .map(typeOf)
    .filter((t) => t.kind !== 'scalar')
    .reduce((sum, t) => sum + sizeOf(t), 0);
  // ... and rebuilds from their leaves with value constructors, which WGSL caps in length.
  const longest = Math.max(0, ...reach.specConstants.map((id) => longestArray(typeOf(id))));
  const nativeFits =
    privateBytes <= WGSL_LIMITS.privateMemory && longest <= WGSL_LIMITS.arrayConstructorElements;
  if (!nativeFits && (mode === 'native' || (mode === 'both' && pipelineConstantUses.length > 0))) {
    const native = mode === 'native';
    error(
      privateBytes > WGSL_LIMITS.privateMemory
        ? msg.privateMemory(kernel.id, privateBytes, WGSL_LIMITS.privateMemory, native)
        : msg.constantArrayLength(kernel.id, longest, WGSL_LIMITS.arrayConstructorElements, native),
    );
  }
  const bothWays: SpecConstantMode[] =
    pipelineConstantUses.length > 0
      ? ['native']
      : nativeFits
        ? ['native', 'emulated']
        : ['emulated'];
  const variants: SpecConstantMode[] = mode === 'both' ? bothWays : [mode];

  // Bindings: the launch uniform, then the accessors in argument order.
  const valueParams = decl.params.flatMap((p) => (p.kind === 'value' ? [p] : []));
  const argLayout = memberLayout(
    valueParams.map((p) => p.type),
    'storage',
    LAUNCH_UNIFORM.args,
  );
  const violation = uniformViolation(valueParams, LAUNCH_UNIFORM.args);
  if (violation !== null) {
    error(
      msg.uniformLayout(violation, kernel.id),
      valueParams.find((p) => violation.startsWith(p.name))?.span,
    );
  }
  // A launch slot takes a u32 of workgroup memory (16 bytes as counted) and a storage binding:
  // a kernel at WebGPU's default limits without them keeps one record per launch. Taking one
  // makes a pipeline slower to create (about 3 ms more per pipeline on one driver): worth it where
  // a kernel has one pipeline per variant, not for a native kernel that reads specialization
  // constants (a pipeline per value set).
  const accessorCount = decl.params.filter((p) => p.kind === 'accessor').length;
  const groupScratch = groupScratchTypes(decl.body);
  const arrays = workgroupMemory(workgroupArrays);
  const scratch = groupScratchBytes(groupScratch, workgroupSize);
  const memory = arrays === null || scratch === null ? null : arrays + scratch;
  const workgroupParts: WorkgroupMemory =
    memory !== null
      ? { kind: 'literal', bytes: memory }
      : {
          kind: 'specConstant',
          arrays: [
            ...workgroupArrays.map((w) => ({
              name: w.name,
              stride: strideOf(w.element),
              length: sizeExpr(w.length),
            })),
            ...groupScratch.map((t) => ({
              name: 'group functions',
              stride: strideOf(t),
              length: sizeExpr(product(workgroupSize)),
            })),
          ],
        };
  const slotFits =
    memory !== null &&
    roundUp(16, memory) + 16 <= DEFAULT_KERNEL_LIMITS.maxComputeWorkgroupStorageSize &&
    accessorCount + (reach.deviceGlobals.length > 0 ? 2 : 0) + 2 <=
      DEFAULT_KERNEL_LIMITS.maxStorageBuffersPerShaderStage;
  const constants = reach.specConstants.length > 0;
  const launchSlots = variants.filter((v) =>
    v === 'emulated'
      ? slotFits && (valueParams.length > 0 || constants)
      : slotFits && valueParams.length > 0 && !constants,
  );
  const launchSize = roundUp(16, argLayout.end);
  const vec3u: DataType = { kind: 'vector', component: 'u32', size: 3 };
  const fields: LaunchField[] = [
    {
      role: 'globalRange',
      name: LAUNCH_FIELDS.globalRange,
      type: vec3u,
      offset: LAUNCH_UNIFORM.globalRange,
    },
    ...(launchSlots.length > 0
      ? [
          {
            role: 'slotMode',
            name: LAUNCH_FIELDS.slotMode,
            type: { kind: 'scalar', scalar: 'u32' },
            offset: LAUNCH_UNIFORM.slotMode,
          } satisfies LaunchField,
        ]
      : []),
    {
      role: 'groupOffset',
      name: LAUNCH_FIELDS.groupOffset,
      type: vec3u,
      offset: LAUNCH_UNIFORM.groupOffset,
    },
    ...valueParams.map(
      (p, i): LaunchField => ({
        role: 'arg',
        name: p.name,
        type: p.type,
        offset: argLayout.offsets[i]!,
      }),
    ),
  ];
  const bindings: BindingInfo[] = [
    {
      kind: 'launch',
      group: 0,
      binding: takeBinding(),
      size: launchSize,
      fields,
      // Value arguments change from launch to launch: an array, one record per launch.
      records: valueParams.length > 0 && launchSlots.length > 0 ? recordsOf(launchSize) : null,
    },
  ];
  const bindingNames = new Map<string, string>();
  const matrixBytes = jointMatrixBytes(decl.body);
  for (const p of decl.params) {
    if (p.kind !== 'accessor') continue;
    if (containsScalar(p.element, 'bool')) {
      error(msg.boolAccessor(p.name, kernel.id), p.span);
    }
    bindingNames.set(p.name, names.call(`a_${base}_${p.name}`));
    bindings.push({
      kind: 'accessor',
      group: 0,
      binding: takeBinding(),
      arg: p.name,
      access: p.access,
      element: p.element,
      ...(matrixBytes.has(p.name) && { matrixBytes: matrixBytes.get(p.name)! }),
    });
  }

  const sampling = samplingPairs(decl.body);
  // Video frames are float textures.
  const sampleTypes = new Map(
    decl.params.flatMap((p) =>
      p.kind !== 'texture'
        ? []
        : p.texture.kind === 'texture'
          ? [[p.name, p.texture.sampleType] as const]
          : p.texture.kind === 'externalTexture'
            ? [[p.name, 'f32'] as const]
            : [],
    ),
  );
  for (const p of decl.params) {
    if (p.kind !== 'texture') continue;
    bindingNames.set(p.name, names.call(`t_${base}_${p.name}`));
    // A texture a sampler reads is filterable where its texels are f32; a sampler filters
    // unless it reads an integer texture (textureGather), which a filtering one may not.
    const pairs = sampling.filter(([t, s]) => t === p.name || s === p.name);
    bindings.push({
      kind: 'texture',
      group: 0,
      binding: takeBinding(),
      arg: p.name,
      texture: p.texture,
      filtered: pairs.length > 0 && pairs.every(([t]) => sampleTypes.get(t) === 'f32'),
    });
  }

  // Integer and bool arguments the body reads may be folded into a native pipeline as
  // overrides; f32 ones never are: a float literal lets the GPU's compiler rewrite arithmetic
  // with it (a division into a multiplication by the reciprocal), which could change results.
  const foldable = variants.includes('native')
    ? valueParams.filter(
        (p) =>
          p.type.kind === 'scalar' &&
          p.type.scalar !== 'f32' &&
          p.type.scalar !== 'f16' &&
          someExpr(decl.body, (e) => e.op === 'param' && e.name === p.name),
      )
    : [];
  const info: KernelInfo = {
    ...(decl.requiredLimits ? { requiredLimits: decl.requiredLimits } : {}),
    entryPoint,
    dimensions: dims,
    ndRange: decl.range.kind === 'nd',
    workgroupSize: sizeDims,
    bindings,
    workgroupMemory: workgroupParts,
    specConstants: reach.specConstants,
    deviceGlobals: reach.deviceGlobals,
    variants,
    launchSlots,
    source: { module, line: decl.span.line, column: decl.span.column },
    ...(kernel.reductions ? { reductions: kernel.reductions } : {}),
    ...(decl.subGroupSize ? { subGroupSize: decl.subGroupSize } : {}),
    ...(foldable.length > 0 && {
      foldedArgs: {
        entryPoint: names.call(`k_${base}_folded`),
        args: foldable.map((p) => ({
          name: p.name,
          override: names.call(`arg_${base}_${p.name}`),
        })),
      },
    }),
    ...jointMatrixInfo(decl.body),
  };
  return {
    symbolicId: kernel.id,
    decl,
    info,
    workgroupSize,
    bindingNames,
    workgroupArrays,
    groupScratch,
    rangeGuardInBody: kernel.reductions !== undefined,
    launchName,
    launchStructName,
  };
}

/** Bytes of the group functions' workgroup arrays; null when a constant sizes the work-group. */
function groupScratchBytes(types: readonly DataType[], size: readonly SizeValue[]): number | null {
  if (types.length === 0) return 0;
  let items = 1;
  for (const v of size) {
    const n = literalSize(v);
    if (n === null) return null;
    items *= n;
  }
  return types.reduce((sum, t) => sum + items * strideOf(t), 0);
}

const BOOL_TYPE: DataType = { kind: 'scalar', scalar: 'bool' };

/** The element types a kernel's group functions need workgroup memory of (see `LinkedKernel`). */
function groupScratchTypes(body: Block<SymbolicId>): DataType[] {
  const types = new Map<string, DataType>();
  const add = (t: DataType) => {
    const type: DataType = scalarOf(t) === 'bool' ? { kind: 'scalar', scalar: 'u32' } : t;
    types.set(JSON.stringify(type), type);
  };
  // jointReduce and the joint scans combine their array's elements; the joint predicates, like
  // anyOfGroup and its kin, combine bools.
  const element = (e: Expr<SymbolicId>) => (e.type.kind === 'array' ? e.type.element : e.type);
  for (const e of findExprs(body, (e) => e.op === 'group')) {
    add(
      e.fn === 'jointReduce'
        ? element(e.args[0]!)
        : e.fn.startsWith('joint')
          ? BOOL_TYPE
          : e.args[0]!.type,
    );
  }
  for (const s of findUpdates(body, (s) => s.kind === 'jointScan')) add(element(s.input));
  return [...types.values()];
}

/** The length of the longest array in `type`, 0 without one. */
function longestArray(type: DataType): number {
  switch (type.kind) {
    case 'array':
      return Math.max(type.length, longestArray(type.element));
    case 'struct':
      return Math.max(0, ...type.fields.map((f) => longestArray(f.type)));
    default:
      return 0;
  }
}

/** A size as the property sets hold it. */
function sizeExpr(value: SizeValue): SizeExpr {
  switch (value.kind) {
    case 'literal':
      return value;
    case 'specConstant':
      return { kind: 'specConstant', symbolicId: value.symbolicId, leafId: value.leafId };
    case 'binary':
      return {
        kind: 'binary',
        operator: value.operator,
        left: sizeExpr(value.left),
        right: sizeExpr(value.right),
      };
  }
}

/** The items of a work-group of these sizes. */
function product(sizes: readonly SizeValue[]): SizeValue {
  return sizes.reduce((left, right) => ({ kind: 'binary', operator: '*', left, right }));
}

/** Bytes of the kernel's workgroup arrays, or null when a specialization constant sizes one. */
function workgroupMemory(arrays: readonly LinkedWorkgroupArray[]): number | null {
  let bytes = 0;
  for (const w of arrays) {
    const n = literalSize(w.length);
    if (n === null) return null;
    bytes += n * strideOf(w.element);
  }
  return bytes;
}

/**
 * Records of `size` bytes one binding spans: at most 64, in at most 64 KiB (a uniform binding's
 * limit; a batch keeps a chunk of them per kernel, so large records come fewer to a chunk).
 */
function recordsOf(size: number): number {
  return Math.max(1, Math.min(MAX_LAUNCH_RECORDS, Math.floor(RECORDS_WINDOW_BYTES / size)));
}

/** The default value of an integer leaf (0 where the constant has no default). */
function leafDefault(constants: readonly LinkedSpecConstant[]) {
  return (symbolicId: SymbolicId, leafId: number): number => {
    const constant = constants.find((c) => c.symbolicId === symbolicId);
    const leaf = constant?.info.leaves.find((l) => l.id === leafId);
    let value: JsonValue = constant?.info.defaultValue ?? null;
    for (const step of leaf?.path ?? []) {
      value =
        value !== null && typeof value === 'object'
          ? ((value as Record<string | number, JsonValue>)[step] ?? null)
          : null;
    }
    return typeof value === 'number' ? value : 0;
  };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** The (texture, sampler) pairs of the sampling built-ins in `body`. */
function samplingPairs(body: Block<SymbolicId>): (readonly [string, string])[] {
  const calls = findExprs(
    body,
    (e): e is Expr<SymbolicId> & { op: 'texture'; sampler: string } =>
      e.op === 'texture' && e.sampler !== null,
  );
  return calls.map((e) => [e.texture, e.sampler] as const);
}

/** By accessor: the bytes of the largest joint matrix the body loads or stores through it. */
function jointMatrixBytes(body: Block<SymbolicId>): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const s of findUpdates(
    body,
    (s): s is JointMatrixStmt<SymbolicId> => s.kind === 'jointMatrix',
  )) {
    if (s.fn !== 'load' && s.fn !== 'store') continue;
    const root = matrixMemoryParts(s.memory)?.root;
    if (root?.op !== 'param') continue;
    const { element, rows, columns } = s.matrix.type;
    const size = rows * columns * (element === 'f16' ? 2 : 4);
    bytes.set(root.name, Math.max(size, bytes.get(root.name) ?? 0));
  }
  return bytes;
}

/** The joint matrices a kernel body declares and the products it computes, each once. */
function jointMatrixInfo(body: Block<SymbolicId>): { jointMatrices?: JointMatrixInfo } {
  const statements = findUpdates(
    body,
    (s): s is JointMatrixStmt<SymbolicId> => s.kind === 'jointMatrix',
  );
  if (statements.length === 0) return {};
  const matrices = new Map<string, JointMatrixInfo['matrices'][number]>();
  const products = new Map<string, JointMatrixInfo['products'][number]>();
  for (const s of statements) {
    if (s.fn === 'declare') {
      const { use, element, rows, columns } = s.matrix.type;
      matrices.set(`${use}|${element}|${rows}|${columns}`, { use, element, rows, columns });
    } else if (s.fn === 'mad') {
      const product = {
        element: s.a.type.element,
        result: s.c.type.element,
        m: s.a.type.rows,
        n: s.b.type.columns,
        k: s.a.type.columns,
      };
      products.set(JSON.stringify(product), product);
    }
  }
  return { jointMatrices: { matrices: [...matrices.values()], products: [...products.values()] } };
}
