import {
  type DeviceGlobalInfo,
  type DeviceImage,
  type KernelInfo,
  PROGRAM_FORMAT_VERSION,
  type Program,
  type ProgramGlobals,
  type SpecConstantInfo,
} from '@syclts/dsl';
import type { LinkedImage } from '../link/linked-image.js';
import { printModule } from './wgsl-module.js';

/** Prints each linked image as WGSL (one text per mode) with its property sets. */
export function emitProgram(linked: {
  readonly images: readonly LinkedImage[];
  readonly programGlobals: ProgramGlobals;
}): Program {
  return {
    version: PROGRAM_FORMAT_VERSION,
    images: linked.images.map(emitImage),
    programGlobals: linked.programGlobals,
  };
}

function emitImage(image: LinkedImage): DeviceImage {
  const wgsl: { native?: string; emulated?: string } = {};
  for (const mode of image.modes) wgsl[mode] = printModule(image, mode);
  const emulation = image.emulation && {
    group: image.emulation.group,
    binding: image.emulation.binding,
    addressSpace: image.emulation.addressSpace,
    size: image.emulation.size,
  };
  return {
    id: image.id,
    wgsl,
    specConstants: Object.fromEntries(
      image.specConstants.map((c) => [c.symbolicId, c.info]),
    ) as Record<string, SpecConstantInfo>,
    emulation,
    deviceGlobals: Object.fromEntries(
      image.deviceGlobals.map((g) => [g.symbolicId, g.info]),
    ) as Record<string, DeviceGlobalInfo>,
    imageGlobalsSize: image.imageGlobalsSize,
    kernels: Object.fromEntries(image.kernels.map((k) => [k.symbolicId, k.info])) as Record<
      string,
      KernelInfo
    >,
  };
}
