/**
 * What the link step hands the emitter: one device image's kernels and device functions with
 * every reference resolved to a symbolic ID, WGSL names chosen, and every specialization
 * constant, device global and binding numbered and laid out. The emitter only prints.
 */
import type {
  BindingInfo,
  DataType,
  DeviceGlobalInfo,
  EmulationBuffer,
  GlobalStorage,
  KernelInfo,
  LaunchSlotsBuffer,
  LogFormat,
  ScalarName,
  SpecConstantInfo,
  SpecConstantMode,
  SymbolicId,
} from '@syclts/dsl';
import type { BinaryOperator, Block } from '../ir/device-code.js';
import type { FunctionDecl, KernelDecl } from '../ir/device-object.js';

export interface LinkedSpecConstant {
  readonly symbolicId: SymbolicId;
  /**
   * WGSL name of the whole value: the override itself for a scalar; for a composite, the
   * `var<private>` rebuilt from the leaves (native) and the emulation struct's field (emulated).
   */
  readonly wgslName: string;
  /** WGSL names of the native `@id(leaf.id) override`s, one per `info.leaves` entry. */
  readonly leafNames: readonly string[];
  readonly info: SpecConstantInfo;
}

export interface LinkedDeviceGlobal {
  readonly symbolicId: SymbolicId;
  /** The global's member in its storage struct. */
  readonly wgslName: string;
  /** The WGSL expression naming the global: `<storage variable>.<member>`. */
  readonly place: string;
  readonly storage: GlobalStorage;
  readonly info: DeviceGlobalInfo;
}

/** A buffer of device globals as the image declares it: one storage binding of a struct. */
export interface LinkedGlobalStorage {
  readonly storage: GlobalStorage;
  readonly binding: number;
  readonly wgslName: string;
  readonly structName: string;
}

export interface LinkedFunction {
  readonly symbolicId: SymbolicId;
  /** The module that declares it. */
  readonly module: string;
  readonly wgslName: string;
  readonly decl: FunctionDecl<SymbolicId>;
  /**
   * Whether it reads a specialization constant, itself or through its calls: in the emulated
   * variant it then takes the launch slot as a last parameter (a module-scope copy would not be
   * uniform, and a loop bound by a constant may hold a barrier).
   */
  readonly readsSpecConstants: boolean;
}

/**
 * A workgroup size or workgroup array length as an override-expression: literals and integer
 * specialization-constant leaves combined with arithmetic.
 */
export type SizeValue =
  | { readonly kind: 'literal'; readonly value: number }
  | {
      readonly kind: 'specConstant';
      readonly symbolicId: SymbolicId;
      readonly leafId: number;
      readonly scalar: Extract<ScalarName, 'i32' | 'u32'>;
    }
  | {
      readonly kind: 'binary';
      readonly operator: Extract<BinaryOperator, '+' | '-' | '*' | '/' | '%'>;
      readonly left: SizeValue;
      readonly right: SizeValue;
    };

export interface LinkedWorkgroupArray {
  readonly name: string;
  readonly wgslName: string;
  readonly element: DataType;
  readonly length: SizeValue;
  /** The derived `override` that holds a length computed from specialization constants (WGSL wants an identifier there). */
  readonly lengthOverride: string | null;
}

export interface LinkedKernel {
  readonly symbolicId: SymbolicId;
  readonly decl: KernelDecl<SymbolicId>;
  /** Everything the runtime needs; `info.entryPoint` is the WGSL entry point name. */
  readonly info: KernelInfo;
  /** In WGSL component order x, y, z. */
  readonly workgroupSize: readonly [SizeValue, SizeValue, SizeValue];
  /** WGSL names of the kernel's accessor and texture variables, by argument name. */
  readonly bindingNames: ReadonlyMap<string, string>;
  readonly workgroupArrays: readonly LinkedWorkgroupArray[];
  /**
   * The element types of the workgroup arrays its group functions work in, one per type, each of
   * as many elements as the work-group has items (bool as u32).
   */
  readonly groupScratch: readonly DataType[];
  /**
   * Whether the body itself skips the items of a basic range past its end (a kernel with
   * reductions, whose every item must reach their combining), instead of the entry point.
   */
  readonly rangeGuardInBody: boolean;
  /** WGSL names of the kernel's `launch` uniform variable and its struct type. */
  readonly launchName: string;
  readonly launchStructName: string;
  /**
   * The body of the folded entry point (`info.foldedArgs`), set by the native variant's
   * transforms: its folded arguments are fixed at pipeline creation, as constants are.
   */
  readonly foldedBody?: Block<SymbolicId>;
}

export interface LinkedImage {
  readonly id: string;
  /** The variants to emit. */
  readonly modes: readonly SpecConstantMode[];
  /** Sorted by symbolic ID. */
  readonly kernels: readonly LinkedKernel[];
  /** Every device function reachable from the kernels, callees before callers. */
  readonly functions: readonly LinkedFunction[];
  /** Ascending by leaf ID. */
  readonly specConstants: readonly LinkedSpecConstant[];
  readonly deviceGlobals: readonly LinkedDeviceGlobal[];
  /** The buffers the image's kernels bind for their device globals, when they use any. */
  readonly globalStorage: {
    readonly program: LinkedGlobalStorage | null;
    readonly image: LinkedGlobalStorage | null;
  };
  /** Byte size of the image's own buffer. */
  readonly imageGlobalsSize: number;
  /** The text of each module whose code is in the image, for quoting in errors. */
  readonly sources: ReadonlyMap<string, string>;
  /** Where the emulated variant reads its constants; null when the image has none. */
  readonly emulation:
    | (EmulationBuffer & {
        readonly wgslName: string;
        readonly structName: string;
        /**
         * Each record is declared as the 16-byte words it holds (`w: array<vec4<u32>, n>`) and
         * every constant rebuilt from its words where it is read: the layout (the design's
         * offsets) breaks WGSL's uniform-only rules, and the buffer stays uniform this way.
         */
        readonly inWords: boolean;
      })
    | null;
  /** Where kernels take their launch slot; null when no kernel uses one. */
  readonly launchSlots:
    | (LaunchSlotsBuffer & {
        readonly wgslName: string;
        readonly structName: string;
        /** The `var<workgroup>` the first invocation passes the slot through. */
        readonly workgroupName: string;
        readonly override: string;
      })
    | null;
  /** See `DeviceImage.groupOffsetOverride`. */
  readonly groupOffsetOverride: string;
  /** The buffer `console.log` writes into and the image's formats; null when no kernel prints. */
  readonly log: LinkedLog | null;
  /** Every module-scope WGSL name the linker chose: the emitter's names avoid them. */
  readonly wgslNames: readonly string[];
}

/** The log buffer of an image whose kernels print (see @syclts/dsl image/log.ts). */
export interface LinkedLog {
  readonly group: number;
  readonly binding: number;
  readonly wgslName: string;
  readonly structName: string;
  /** The `var<private>` holding the item's global id, set by each printing kernel's entry point. */
  readonly itemName: string;
  readonly formats: readonly LogFormat[];
  /** Each format's index by its statement's `logKey`. */
  readonly index: ReadonlyMap<string, number>;
}

export type { BindingInfo };
