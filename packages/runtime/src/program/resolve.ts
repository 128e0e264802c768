/**
 * From host objects to their device images, through the records the integration footer left
 * (`bindingOf`). Resolution is memoised per host object.
 */
import {
  bindingOf,
  type DeviceGlobal,
  type DeviceImage,
  type Kernel,
  type KernelInfo,
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

export interface ResolvedDeclaration {
  readonly symbolicId: SymbolicId;
  readonly program: Program;
}

const kernels = new WeakMap<Kernel, ResolvedKernel>();

export function resolveKernel(api: string, kernel: Kernel): ResolvedKernel {
  const cached = kernels.get(kernel);
  if (cached) return cached;
  const { symbolicId, program } = resolveDeclaration(api, kernel, 'kernel');
  for (const image of program.images) {
    const info = image.kernels[symbolicId];
    if (info) {
      const resolved = { symbolicId, program, image, info };
      kernels.set(kernel, resolved);
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
): ResolvedDeclaration {
  const binding = bindingOf(declaration);
  if (!binding) {
    throw new SyclError(
      errc.invalid,
      `${api}: this ${what} was not compiled by syclts (no integration footer attached it); declare it in a .sycl.ts module built with the syclts plugin`,
    );
  }
  return binding;
}

/** A name for messages: the symbolic ID when the footer attached one. */
export function nameOf(declaration: object): string {
  return bindingOf(declaration)?.symbolicId ?? '<unattached declaration>';
}
