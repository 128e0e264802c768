import {
  type CollectiveLowering,
  type DeviceGlobalInfo,
  type DeviceImage,
  type KernelInfo,
  type LineMap,
  PROGRAM_FORMAT_VERSION,
  type Program,
  type ProgramGlobals,
  type SpecConstantInfo,
} from '@syclts/dsl';
import type { LinkedImage } from '../link/linked-image.js';
import { printModule, usesSubgroupBuiltins } from './print/wgsl-module.js';
import { transformVariant } from './transforms/index.js';

export interface EmitOptions {
  /**
   * Ship each WGSL variant's line map (where its lines come from in the `.sycl.ts` sources),
   * so that the runtime reports the GPU compiler's errors there; default true.
   */
  readonly lineMaps?: boolean;
  /**
   * Check the IR's invariants after each transform and throw `IrInvariantError` at the first
   * broken one: a self-check of the compiler, for its tests and for chasing a miscompilation;
   * default false.
   */
  readonly validateIr?: boolean;
}

/** Prints each linked image as WGSL (one text per mode) with its property sets. */
export function emitProgram(
  linked: {
    readonly images: readonly LinkedImage[];
    readonly programGlobals: ProgramGlobals;
  },
  options: EmitOptions = {},
): Program {
  return {
    version: PROGRAM_FORMAT_VERSION,
    images: linked.images.map((image) => emitImage(image, options)),
    programGlobals: linked.programGlobals,
  };
}

function emitImage(image: LinkedImage, options: EmitOptions): DeviceImage {
  // One set of the linker's names for every variant's namers, which read it in place.
  const taken: ReadonlySet<string> = new Set(image.wgslNames);
  const variants = image.modes.map((mode) => ({
    mode,
    image: transformVariant(image, mode, options.validateIr ?? false),
  }));
  const print = (lowering: CollectiveLowering) => {
    const wgsl: { native?: string; emulated?: string } = {};
    const lineMaps: { native?: LineMap; emulated?: LineMap } = {};
    for (const v of variants) {
      const { code, lineMap } = printModule(v.image, v.mode, lowering, taken);
      wgsl[v.mode] = code;
      lineMaps[v.mode] = lineMap;
    }
    return { wgsl, lineMaps };
  };
  const { wgsl, lineMaps } = print('subgroups');
  // Without group functions both lowerings print the same text: the image holds it once.
  const fallback = image.kernels.some(usesSubgroupBuiltins) ? print('workgroup') : null;
  const emulation = image.emulation && {
    group: image.emulation.group,
    binding: image.emulation.binding,
    addressSpace: image.emulation.addressSpace,
    size: image.emulation.size,
    records: image.emulation.records,
  };
  const launchSlots = image.launchSlots && {
    group: image.launchSlots.group,
    binding: image.launchSlots.binding,
    override: image.launchSlots.override,
  };
  return {
    id: image.id,
    wgsl,
    ...((options.lineMaps ?? true) && { lineMaps }),
    specConstants: Object.fromEntries(
      image.specConstants.map((c) => [c.symbolicId, c.info]),
    ) as Record<string, SpecConstantInfo>,
    emulation,
    launchSlots,
    groupOffsetOverride: image.groupOffsetOverride,
    deviceGlobals: Object.fromEntries(
      image.deviceGlobals.map((g) => [g.symbolicId, g.info]),
    ) as Record<string, DeviceGlobalInfo>,
    imageGlobalsSize: image.imageGlobalsSize,
    kernels: Object.fromEntries(image.kernels.map((k) => [k.symbolicId, k.info])) as Record<
      string,
      KernelInfo
    >,
    ...(image.log && { logFormats: image.log.formats }),
    ...(fallback && {
      workgroupLowering: {
        wgsl: fallback.wgsl,
        ...((options.lineMaps ?? true) && { lineMaps: fallback.lineMaps }),
      },
    }),
  };
}
