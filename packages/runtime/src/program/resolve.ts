/**
 * From host objects to their device images, through the records the integration footer left
 * (`bindingOf`). Resolution is memoised per binding: a relink (the dev server's update after an
 * edit) gives the host object a new binding, and so a new resolution.
 */
import {
  type Binding,
  bindingOf,
  type DeviceGlobal,
  type DeviceImage,
  type Kernel,
  type KernelInfo,
  PROGRAM_FORMAT_VERSION,
  type Program,
  type SpecializationId,
  type SymbolicId,
} from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';

export interface ResolvedKernel {
  readonly symbolicId: SymbolicId;
  readonly program: Program;
  readonly image: DeviceImage;
  readonly info: KernelInfo;
}

const kernels = new WeakMap<Binding, ResolvedKernel>();

export function resolveKernel(api: string, kernel: Kernel): ResolvedKernel {
  const binding = resolveDeclaration(api, kernel, 'kernel');
  const cached = kernels.get(binding);
  if (cached) return cached;
  const { symbolicId, program } = binding;
  for (const image of program.images) {
    const info = image.kernels[symbolicId];
    if (info) {
      const resolved = { symbolicId, program, image, info };
      kernels.set(binding, resolved);
      return resolved;
    }
  }
  throw new SyclError(
    errc.kernelNotSupported,
    `${api}: kernel ${symbolicId} is in no device image of its program`,
  );
}

export function resolveDeclaration(
  api: string,
  declaration: Kernel | SpecializationId | DeviceGlobal,
  what: string,
): Binding {
  const binding = bindingOf(declaration);
  if (!binding) {
    throw new SyclError(
      errc.invalid,
      `${api}: this ${what} was not compiled by syclts (no integration footer attached it); declare it in a .sycl.ts module built with the syclts plugin`,
    );
  }
  if (binding.program.version !== PROGRAM_FORMAT_VERSION) {
    throw new SyclError(
      errc.build,
      `${api}: ${what} ${binding.symbolicId} comes from a program in device image format ${String(binding.program.version)}; this runtime reads format ${PROGRAM_FORMAT_VERSION}: build the app again with the unplugin-syclts and @syclts/runtime of one release`,
    );
  }
  return binding;
}

/** A name for messages: the symbolic ID when the footer attached one. */
export function nameOf(declaration: object): string {
  return bindingOf(declaration)?.symbolicId ?? '<unattached declaration>';
}
