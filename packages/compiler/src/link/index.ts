import type { SpecConstantMode } from '@syclts/dsl';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DeviceObject } from '../ir/device-object.js';
import type { LinkedImage } from './linked-image.js';

export type SplitMode = 'per-module' | 'per-kernel' | 'whole';
export type SpecConstantsOption = SpecConstantMode | 'both';

export interface LinkOptions {
  /** Default 'per-module'. */
  readonly split?: SplitMode;
  /** Default 'native'. */
  readonly specConstants?: SpecConstantsOption;
}

export interface LinkInput {
  /** Every `.sycl.ts` module of the bundle, by root-relative path. */
  readonly modules: ReadonlyMap<string, DeviceObject>;
  /** Root-relative path of the module an import specifier names, or null when it is not a known module. */
  readonly resolveImport: (fromModule: string, specifier: string) => string | null;
}

export interface LinkResult {
  readonly images: readonly LinkedImage[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Resolves references across modules, numbers and lays out everything, and splits device code into images. */
export function link(_input: LinkInput, _options: LinkOptions = {}): LinkResult {
  throw new Error('link: not implemented yet');
}
