/**
 * The typed, serialisable result of compiling one `.sycl.ts` module: its declarations, device
 * code as IR, and the references it makes to other modules (resolved by the link step).
 * Everything here is plain JSON so the plugin can cache it and hand it across processes.
 */
import type {
  AccessMode,
  DataType,
  GroupOperatorName,
  HostAccess,
  InitMode,
  JsonValue,
  RequiredLimits,
  TextureArgType,
} from '@syclts/dsl';
import type { Block, Expr } from './device-code.js';
import type { Span } from './span.js';

export const DEVICE_OBJECT_VERSION = 5;

/** A name in device code: declared in this module, or imported from another. */
export type SymbolRef =
  | { readonly kind: 'local'; readonly name: string }
  | { readonly kind: 'import'; readonly specifier: string; readonly name: string };

export interface ImportBinding {
  readonly local: string;
  /** The exported name, or 'default', or '*' for a namespace import. */
  readonly imported: string;
}

export interface ImportDecl {
  readonly specifier: string;
  readonly bindings: readonly ImportBinding[];
  readonly span: Span;
}

export type ExportDecl =
  | { readonly kind: 'local'; readonly exported: string; readonly local: string }
  | {
      readonly kind: 'reexport';
      readonly exported: string;
      readonly specifier: string;
      readonly imported: string;
    }
  | { readonly kind: 'star'; readonly specifier: string };

export interface SpecConstantDecl {
  readonly name: string;
  readonly type: DataType;
  /** Folded at build time, or null when the default is not a constant expression. */
  readonly defaultValue: JsonValue;
  readonly span: Span;
}

export interface DeviceGlobalDecl {
  readonly name: string;
  readonly type: DataType;
  readonly deviceImageScope: boolean;
  readonly hostAccess: HostAccess;
  readonly initMode: InitMode | null;
  readonly implementInCsr: boolean;
  /** The initial contents, folded and completed with zeros; null when the declaration gives none. */
  readonly initialValue: JsonValue;
  readonly span: Span;
}

/** An integer size: a literal, or an expression over integer specialization constants. */
export type SizeExpr<R = SymbolRef> = Expr<R>;

/**
 * What folds a reduction variable's values: one of SYCL's function objects, or a device function
 * of two values of the element type returning one; `identity` (JSON of the element type, as a
 * device global's initial value) replaces the function object's own, and a device function has one.
 */
export type ReductionOperator<R = SymbolRef> =
  | { readonly kind: 'known'; readonly name: GroupOperatorName; readonly identity: JsonValue }
  | { readonly kind: 'function'; readonly fn: R; readonly identity: NonNullable<JsonValue> };

export type KernelParam<R = SymbolRef> =
  | {
      readonly kind: 'accessor';
      readonly name: string;
      readonly element: DataType;
      readonly access: AccessMode;
      readonly span: Span;
    }
  | { readonly kind: 'value'; readonly name: string; readonly type: DataType; readonly span: Span }
  /** A texture, storage texture, sampler or external texture: a handle the texture built-ins take. */
  | {
      readonly kind: 'texture';
      readonly name: string;
      readonly texture: TextureArgType;
      readonly span: Span;
    }
  /**
   * A reduction variable: `combine` statements fold values into it. The link step lowers it
   * (link/reductions.ts): an accessor of per-work-group partial results, and a finishing kernel.
   */
  | {
      readonly kind: 'reduction';
      readonly name: string;
      /** What the operator combines: the variable's type, or a span's element. */
      readonly element: DataType;
      /** A span reduction's number of values (`reduction(span(T, n), op)`); null: one value. */
      readonly extent: number | null;
      readonly operator: ReductionOperator<R>;
      readonly span: Span;
    };

export interface WorkgroupArrayDecl<R = SymbolRef> {
  readonly name: string;
  readonly element: DataType;
  readonly length: SizeExpr<R>;
  readonly span: Span;
}

export type KernelRange<R = SymbolRef> =
  | { readonly kind: 'basic'; readonly dimensions: 1 | 2 | 3 }
  | {
      readonly kind: 'nd';
      readonly dimensions: 1 | 2 | 3;
      readonly workgroupSize: readonly SizeExpr<R>[];
    };

export interface KernelDecl<R = SymbolRef> {
  readonly name: string;
  readonly range: KernelRange<R>;
  readonly params: readonly KernelParam<R>[];
  readonly workgroupArrays: readonly WorkgroupArrayDecl<R>[];
  /** Names the body gives to the item, the kernel handler and the arguments are resolved away. */
  readonly body: Block<R>;
  readonly span: Span;
  /** WebGPU limits the kernel declared it needs above the defaults; absent when it declares none. */
  readonly requiredLimits?: RequiredLimits;
  /** The items a sub-group must hold, when the kernel's spec says. */
  readonly subGroupSize?: number;
}

export interface FunctionParam {
  readonly name: string;
  readonly type: DataType;
  readonly span: Span;
}

/** A piece of a raw-WGSL body: text, or a reference to a declaration spliced in by the emitter. */
export type WgslPart<R = SymbolRef> =
  | { readonly kind: 'text'; readonly text: string; readonly span: Span }
  | { readonly kind: 'ref'; readonly ref: R; readonly span: Span }
  | { readonly kind: 'param'; readonly name: string; readonly span: Span }
  /** A value spliced in as an expression (the emitter's host-storage transform puts these in). */
  | { readonly kind: 'value'; readonly expr: Expr<R>; readonly span: Span };

export interface FunctionDecl<R = SymbolRef> {
  readonly name: string;
  readonly params: readonly FunctionParam[];
  /** null for a function that returns nothing. */
  readonly returnType: DataType | null;
  readonly body:
    | { readonly kind: 'ir'; readonly block: Block<R> }
    | { readonly kind: 'wgsl'; readonly parts: readonly WgslPart<R>[] };
  readonly span: Span;
}

export interface DeviceObject {
  readonly version: typeof DEVICE_OBJECT_VERSION;
  /** Root-relative module path with '/' separators, e.g. 'src/blur.sycl.ts'. */
  readonly module: string;
  /** The module's text: errors the GPU reports quote its lines. */
  readonly source: string;
  readonly imports: readonly ImportDecl[];
  readonly exports: readonly ExportDecl[];
  readonly specConstants: readonly SpecConstantDecl[];
  readonly deviceGlobals: readonly DeviceGlobalDecl[];
  readonly kernels: readonly KernelDecl[];
  readonly functions: readonly FunctionDecl[];
}
