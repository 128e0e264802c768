/**
 * What the link step hands the emitter: one device image's kernels and device functions with
 * every reference resolved to a symbolic ID, WGSL names chosen, and every specialization
 * constant, device global and binding numbered and laid out. The emitter only prints.
 */
import type {
  BindingInfo,
  DeviceGlobalInfo,
  EmulationBuffer,
  KernelInfo,
  SpecConstantInfo,
  SpecConstantMode,
  SymbolicId,
} from '@syclts/dsl';
import type { FunctionDecl, KernelDecl } from '../ir/device-object.js';

export interface LinkedSpecConstant {
  readonly symbolicId: SymbolicId;
  /** Stem of the WGSL names: leaves are `${wgslName}_${leafIndex}` overrides, or a field of the emulation struct. */
  readonly wgslName: string;
  readonly info: SpecConstantInfo;
}

export interface LinkedDeviceGlobal {
  readonly symbolicId: SymbolicId;
  readonly wgslName: string;
  readonly info: DeviceGlobalInfo;
  /** Used through atomics: the storage type holds `atomic<T>`. */
  readonly atomic: boolean;
}

export interface LinkedFunction {
  readonly symbolicId: SymbolicId;
  readonly wgslName: string;
  readonly decl: FunctionDecl<SymbolicId>;
}

export interface LinkedKernel {
  readonly symbolicId: SymbolicId;
  readonly decl: KernelDecl<SymbolicId>;
  /** Everything the runtime needs; `info.entryPoint` is the WGSL entry point name. */
  readonly info: KernelInfo;
  /** WGSL names of the kernel's module-scope variables, by accessor argument and workgroup array name. */
  readonly accessorNames: Readonly<Record<string, string>>;
  readonly workgroupArrayNames: Readonly<Record<string, string>>;
  /** WGSL name of the kernel's `launch` uniform. */
  readonly launchName: string;
}

export interface LinkedImage {
  readonly id: string;
  /** The variants to emit. */
  readonly modes: readonly SpecConstantMode[];
  readonly kernels: readonly LinkedKernel[];
  /** Every device function reachable from the kernels, callees before callers. */
  readonly functions: readonly LinkedFunction[];
  /** Ascending by leaf ID. */
  readonly specConstants: readonly LinkedSpecConstant[];
  readonly deviceGlobals: readonly LinkedDeviceGlobal[];
  readonly emulation: EmulationBuffer | null;
}

export type { BindingInfo };
