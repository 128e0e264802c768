import type { SpecConstantsOption, SplitMode } from '@syclts/compiler';
import type { FilterPattern } from 'unplugin';

export interface Options {
  /** Modules compiled as device code. Default: every `.sycl.ts` file. */
  readonly include?: FilterPattern;
  readonly exclude?: FilterPattern;
  /** How device code is split into images. Default 'per-module'. */
  readonly split?: SplitMode;
  /** Which WGSL variants each image carries. Default 'native'. */
  readonly specConstants?: SpecConstantsOption;
  /**
   * The directory module paths (and so symbolic IDs) are relative to. Default: the bundler's
   * root (Vite's `root`, webpack's and rspack's `context`, esbuild's `absWorkingDir`), else the
   * working directory.
   */
  readonly root?: string;
  /**
   * Ship each image's line maps, so that errors the GPU's compiler reports name the `.sycl.ts`
   * line (docs/device-images.md). Default true; false leaves them out of the bundle.
   */
  readonly lineMaps?: boolean;
}

export interface ResolvedOptions {
  readonly include: FilterPattern;
  readonly exclude: FilterPattern;
  readonly split: SplitMode;
  readonly specConstants: SpecConstantsOption;
  readonly root: string | undefined;
  readonly lineMaps: boolean;
}

export function resolveOptions(options: Options = {}): ResolvedOptions {
  return {
    include: options.include ?? /\.sycl\.ts$/,
    exclude: options.exclude ?? [],
    split: options.split ?? 'per-module',
    specConstants: options.specConstants ?? 'native',
    root: options.root,
    lineMaps: options.lineMaps ?? true,
  };
}
