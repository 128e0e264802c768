/**
 * The device image format: what the link step produces and the runtime consumes. Plain JSON,
 * documented in docs/device-images.md. Bump PROGRAM_FORMAT_VERSION on any incompatible change.
 */

import type { GroupOperatorName } from '../builtins/group.js';
import type { MatrixElementName, MatrixUse } from '../builtins/matrix.js';
import type { HostAccess, InitMode } from '../declarations/device-global.js';
import type { AccessMode } from '../declarations/kernel.js';
import type { TextureArgType } from '../declarations/texture.js';
import type { DataType, ScalarName } from '../types/data-type.js';
import type { RequiredLimits } from './limits.js';
import type { LogFormat } from './log.js';

export const PROGRAM_FORMAT_VERSION = 7;

/**
 * Identifies a declaration across the whole program: `<root-relative module path>#<name>`, the
 * name being the declaration's own (not an alias it was imported or re-exported under).
 */
export type SymbolicId = string;

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

export type SpecConstantMode = 'native' | 'emulated';

/** One scalar leaf of a (possibly composite) specialization constant. */
export interface SpecConstantLeaf {
  /** Numeric ID, dense from 0 per image: the `@id(n)` of the native override, the order of the emulation buffer. */
  readonly id: number;
  /** Byte offset of the leaf inside the constant's host-shareable layout. */
  readonly offset: number;
  /** Byte size of the leaf in that layout (4 for bool, stored as u32). */
  readonly size: number;
  readonly scalar: ScalarName;
  /** Where the leaf sits in the host value: field names and element/component indices. */
  readonly path: readonly (string | number)[];
}

export interface SpecConstantInfo {
  readonly type: DataType;
  readonly leaves: readonly SpecConstantLeaf[];
  /** The default folded at build time, or null when the runtime takes the host object's. */
  readonly defaultValue: JsonValue;
  /** Byte offset of the constant in the emulation buffer (emulated variant). */
  readonly emulationOffset: number;
}

export interface EmulationBuffer {
  readonly group: number;
  readonly binding: number;
  readonly addressSpace: 'uniform' | 'storage';
  /** Byte size of one record of values, a multiple of 16. */
  readonly size: number;
  /** Records the binding spans: the WGSL reads record `slot` (see `usesLaunchSlots`). */
  readonly records: number;
}

/**
 * The buffer a kernel takes its launch slot from: `{ next, table }`. When the launch uniform's
 * `slot_mode` is 0 the slot is 0 (the bindings' dynamic offsets point at the launch's own
 * record); otherwise the first invocation of each workgroup takes `table[atomicAdd(next, 1)]`,
 * so that consecutive small launches find their own values in one binding, with no bind call
 * between them.
 */
export interface LaunchSlotsBuffer {
  readonly group: number;
  readonly binding: number;
  /**
   * The name of the `bool` override (true by default) under which a kernel takes a slot at all.
   * A pipeline made with it false reads record 0 whatever `slot_mode` says, with no launch-slot
   * code left to run: the runtime makes one for the launches that bind their own record (a large
   * launch), beside the pipeline that takes slots. Absent in images built before it existed.
   */
  readonly override?: string;
}

/**
 * A device global. Its storage is a range of one buffer: the program's globals share one buffer
 * per device (one binding, whatever their number), a `deviceImageScope` global lives in its
 * image's buffer.
 */
export interface DeviceGlobalInfo {
  readonly type: DataType;
  /** Byte size of the global (host-shareable layout). */
  readonly size: number;
  /** Byte offset of the global in its buffer (a multiple of 16). */
  readonly offset: number;
  readonly deviceImageScope: boolean;
  readonly hostAccess: HostAccess;
  readonly initMode: InitMode | null;
  readonly implementInCsr: boolean;
  /**
   * The initial contents (folded at build time) as the source gives them, or null for zero: an
   * array lists its first elements and a struct some of its fields, the rest being zero, so
   * that a large global's value costs what its source does (`writeInitialValue` writes it).
   */
  readonly initialValue: JsonValue;
}

/** Which buffer a `deviceGlobals` binding holds. */
export type GlobalStorage = 'program' | 'image';

/** A value in the per-launch uniform buffer (`launch`). */
export interface LaunchField {
  readonly role: 'globalRange' | 'slotMode' | 'groupOffset' | 'arg';
  /** The kernel argument's name for role 'arg'. */
  readonly name: string;
  readonly type: DataType;
  readonly offset: number;
}

export type BindingInfo = { readonly group: number; readonly binding: number } & (
  | {
      readonly kind: 'accessor';
      readonly arg: string;
      readonly access: AccessMode;
      readonly element: DataType;
      /**
       * Bytes of the largest joint matrix loaded or stored through it (absent when none is): a
       * subgroup-matrix built-in needs a binding of at least one whole matrix, so the runtime's
       * layout asks for that much.
       */
      readonly matrixBytes?: number;
    }
  | {
      readonly kind: 'launch';
      /** Byte size of one record, a multiple of 16. */
      readonly size: number;
      readonly fields: readonly LaunchField[];
      /**
       * null: one record (no value arguments, or no launch slot); otherwise the binding spans
       * this many records and the WGSL reads record `slot`.
       */
      readonly records: number | null;
    }
  /**
   * A texture argument bound as itself. `filtered`: a sampled f32 texture that a sampler reads
   * (WebGPU's 'float' sample type; otherwise 'unfilterable-float', which takes any f32 format).
   */
  | {
      readonly kind: 'texture';
      readonly arg: string;
      readonly texture: TextureArgType;
      readonly filtered: boolean;
    }
  /** The buffer holding the device globals the kernel uses, of the program or of the image. */
  | { readonly kind: 'deviceGlobals'; readonly storage: GlobalStorage }
  /**
   * The log buffer `console.log` writes its lines into (see image/log.ts): present when the
   * kernel or a function it calls prints, and a new buffer per launch.
   */
  | { readonly kind: 'log' }
);

/** Whether the kernel, in `variant`, takes a launch slot (see `KernelInfo.launchSlots`). */
export function usesLaunchSlots(info: KernelInfo, variant: SpecConstantMode): boolean {
  return info.launchSlots.includes(variant);
}

/** A workgroup size dimension: a literal, or the value of an integer specialization constant. */
export type WorkgroupSizeDim =
  | { readonly kind: 'literal'; readonly value: number }
  | { readonly kind: 'specConstant'; readonly symbolicId: SymbolicId; readonly leafId: number };

/** An integer of literals and integer specialization-constant leaves, known at pipeline creation. */
export type SizeExpr =
  | { readonly kind: 'literal'; readonly value: number }
  | { readonly kind: 'specConstant'; readonly symbolicId: SymbolicId; readonly leafId: number }
  | {
      readonly kind: 'binary';
      readonly operator: '+' | '-' | '*' | '/' | '%';
      readonly left: SizeExpr;
      readonly right: SizeExpr;
    };

/**
 * A size's value, each specialization-constant leaf valued by `leaf`, computed exactly: a value
 * outside u32 (which WGSL refuses when it creates the pipeline) stays out of range, so that the
 * checks against the device see it. A division by zero gives 0 (pipeline creation fails there).
 */
export function evaluateSize(
  size: SizeExpr,
  leaf: (symbolicId: SymbolicId, leafId: number) => number,
): number {
  switch (size.kind) {
    case 'literal':
      return size.value;
    case 'specConstant':
      return leaf(size.symbolicId, size.leafId);
    case 'binary': {
      const l = evaluateSize(size.left, leaf);
      const r = evaluateSize(size.right, leaf);
      switch (size.operator) {
        case '+':
          return l + r;
        case '-':
          return l - r;
        case '*':
          return l * r;
        case '/':
          return r === 0 ? 0 : Math.trunc(l / r);
        case '%':
          return r === 0 ? 0 : l % r;
      }
    }
  }
}

/**
 * A kernel's `var<workgroup>` memory: its bytes, or, where specialization constants size an array
 * of it (or the work-group its group functions take scratch memory for), each array's stride and
 * length, for the runtime to add up and check against the device when it creates the pipeline.
 */
export type WorkgroupMemory =
  | { readonly kind: 'literal'; readonly bytes: number }
  | {
      readonly kind: 'specConstant';
      readonly arrays: readonly {
        /** The `local` array's name, or `group functions` for their scratch memory. */
        readonly name: string;
        readonly stride: number;
        readonly length: SizeExpr;
      }[];
    };

export interface KernelInfo {
  readonly entryPoint: string;
  readonly dimensions: 1 | 2 | 3;
  readonly ndRange: boolean;
  /** Always three dimensions in WGSL component order x, y, z (x = the last SYCL dimension), padded with 1. */
  readonly workgroupSize: readonly [WorkgroupSizeDim, WorkgroupSizeDim, WorkgroupSizeDim];
  /** Bindings of the native variant; the emulated variant adds the image's emulation buffer. */
  readonly bindings: readonly BindingInfo[];
  readonly workgroupMemory: WorkgroupMemory;
  readonly specConstants: readonly SymbolicId[];
  readonly deviceGlobals: readonly SymbolicId[];
  /** The variants this kernel can run in (emulated is absent when a constant sizes the workgroup or its memory). */
  readonly variants: readonly SpecConstantMode[];
  /**
   * The variants in which the kernel takes a launch slot from the image's `launchSlots` buffer
   * and reads its values at that record: the emulated variant when the kernel has value
   * arguments or reads a specialization constant, the native one when it has value arguments
   * and reads no constant (a slot makes a pipeline slower to create, and such a kernel has one
   * native pipeline per value set); either only when the slot's workgroup variable and storage
   * binding fit WebGPU's default limits beside the kernel's own. Elsewhere it reads record 0 at
   * the bindings' offsets.
   */
  readonly launchSlots: readonly SpecConstantMode[];
  /**
   * The native variant's second entry point of the kernel (absent when the kernel has no native
   * variant or reads no i32, u32 or bool value argument): the same code with each such argument
   * it reads taken from a pipeline-overridable constant (`args`: each argument and its override), set to
   * the value's host form (bool as 0 or 1), instead of from the launch uniform. A pipeline of it
   * runs the arguments as literals; the runtime's adaptive specialization creates one for
   * arguments that stay the same across launches.
   */
  readonly foldedArgs?: FoldedArgs;
  /**
   * The WebGPU limits the kernel declared it needs above the defaults (absent when it declares
   * none): the runtime refuses to create its pipeline on a device whose limits are lower.
   */
  readonly requiredLimits?: RequiredLimits;
  /** Where the kernel is declared, for errors the GPU reports about it. */
  readonly source: SourceLocation;
  /**
   * The kernel's reduction variables, in argument order (absent without any): each argument's
   * accessor binding takes a buffer of one partial result per work-group of the launch, and the
   * `finisher` kernel of the same image (arguments `partials`, `target`, `count`, `keep`; one
   * work-group of 256 items) folds `count` partials into `target[0]`, combined with its value
   * when `keep` is 1.
   */
  readonly reductions?: readonly ReductionInfo[];
  /**
   * The items a sub-group must hold, when the kernel requires a size: the image's `subgroups`
   * lowering asks the device for it (`@subgroup_size`), and a device that cannot give it runs the
   * `workgroup` lowering, whose sub-groups are then of this size.
   */
  readonly subGroupSize?: number;
  /**
   * The joint matrices the kernel declares and the products it computes (absent without any):
   * the image's `subgroups` lowering runs only on a device that offers each as a subgroup-matrix
   * configuration.
   */
  readonly jointMatrices?: JointMatrixInfo;
}

/** A kernel's joint matrices, as the runtime matches them with a device's configurations. */
export interface JointMatrixInfo {
  /** Each distinct matrix type declared. */
  readonly matrices: readonly {
    readonly use: MatrixUse;
    readonly element: MatrixElementName;
    readonly rows: number;
    readonly columns: number;
  }[];
  /** Each distinct product `jointMatrixMad` computes: M × K by K × N, a and b of `element`, into `result`. */
  readonly products: readonly {
    readonly element: MatrixElementName;
    readonly result: MatrixElementName;
    readonly m: number;
    readonly n: number;
    readonly k: number;
  }[];
}

/** See `KernelInfo.foldedArgs`. */
export interface FoldedArgs {
  readonly entryPoint: string;
  readonly args: readonly { readonly name: string; readonly override: string }[];
}

export interface ReductionInfo {
  readonly arg: string;
  /** What the operator combines: the variable's type, or a span's element. */
  readonly element: DataType;
  /** A span reduction's number of values (the partials hold that many per work-group); null: one value. */
  readonly extent: number | null;
  /** One of SYCL's function objects, or the device function that combines (by symbolic ID). */
  readonly operator: GroupOperatorName | { readonly fn: SymbolicId };
  readonly finisher: SymbolicId;
}

/** A place in a `.sycl.ts` module: root-relative path, 1-based line and column. */
export interface SourceLocation {
  readonly module: string;
  readonly line: number;
  readonly column: number;
}

/**
 * A run of a WGSL line: from WGSL column [0] on, it comes from source [1] (an index into
 * `sources`), line [2], column [3]. With [4] = 1 the columns correspond one to one (raw WGSL
 * text); with 0 the whole run comes from that one place (a statement's start).
 */
export type LineSegment = readonly [
  column: number,
  source: number,
  line: number,
  sourceColumn: number,
  exact: 0 | 1,
];

/**
 * Where each line of a variant's WGSL comes from in the `.sycl.ts` sources, so that errors the
 * GPU's compiler reports can name the place the user wrote. Columns are 1-based.
 */
export interface LineMap {
  readonly version: 1;
  /** Root-relative module paths the segments name. */
  readonly sources: readonly string[];
  /** Per WGSL line (index 0 is line 1): null, or its runs in column order. */
  readonly lines: readonly (readonly LineSegment[] | null)[];
  /** The text of each source line named, keyed `${source}:${line}`. */
  readonly quotes: Readonly<Record<string, string>>;
}

/**
 * How group functions and sub-group queries are printed: with WGSL's sub-group built-ins (on a
 * device with the `subgroups` feature and the `subgroup_id` WGSL language feature), or in
 * workgroup memory with barriers.
 */
export type CollectiveLowering = 'subgroups' | 'workgroup';

export interface DeviceImage {
  /** Stable, readable: the module path (per-module split), kernel symbolic ID (per-kernel) or 'program' (whole). */
  readonly id: string;
  readonly wgsl: { readonly native?: string; readonly emulated?: string };
  /** Line maps of the WGSL variants; absent when the build left them out (`lineMaps: false`). */
  readonly lineMaps?: { readonly native?: LineMap; readonly emulated?: LineMap };
  readonly specConstants: Readonly<Record<SymbolicId, SpecConstantInfo>>;
  readonly emulation: EmulationBuffer | null;
  /** Present when a kernel of the image uses launch slots in some variant. */
  readonly launchSlots: LaunchSlotsBuffer | null;
  /**
   * The name of the `bool` override (true by default) under which every kernel of the image adds
   * its launch's group offset to the work-group id (the runtime splits a launch past
   * `maxComputeWorkgroupsPerDimension` into dispatches, each with its offset). A pipeline made
   * with it false reads no offset: the runtime makes one for the launches of one dispatch that
   * bind their own record. Absent in images built before it existed.
   */
  readonly groupOffsetOverride?: string;
  readonly deviceGlobals: Readonly<Record<SymbolicId, DeviceGlobalInfo>>;
  /** Byte size of the image's own buffer (its `deviceImageScope` globals), 0 without any. */
  readonly imageGlobalsSize: number;
  readonly kernels: Readonly<Record<SymbolicId, KernelInfo>>;
  /** The image's `console.log` calls, by the index their records start with; absent without any. */
  readonly logFormats?: readonly LogFormat[];
  /**
   * Present when a kernel uses group functions or sub-groups: `wgsl` (and `lineMaps`) then hold
   * the `subgroups` lowering, and these the `workgroup` one, for devices without sub-groups.
   */
  readonly workgroupLowering?: {
    readonly wgsl: { readonly native?: string; readonly emulated?: string };
    readonly lineMaps?: { readonly native?: LineMap; readonly emulated?: LineMap };
  };
}

/**
 * The buffer the program's device globals share (all of them but `deviceImageScope` ones, used
 * by a kernel or not: the host may copy to and from any).
 */
export interface ProgramGlobals {
  /** Byte size, a multiple of 16; 0 without globals. */
  readonly size: number;
  readonly globals: Readonly<Record<SymbolicId, DeviceGlobalInfo>>;
}

export interface Program {
  readonly version: typeof PROGRAM_FORMAT_VERSION;
  readonly images: readonly DeviceImage[];
  readonly programGlobals: ProgramGlobals;
}
