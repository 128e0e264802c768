/**
 * From host objects to their device images, through the records the integration footer left
 * (`bindingOf`). Resolution is memoised per binding: a relink (the dev server's update after an
 * edit) gives the host object a new binding, and so a new resolution.
 */
import {
  attachedByAnotherCopy,
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
    throw notAttached(
      api,
      `this ${what}`,
      declaration,
      'declare it in a .sycl.ts module built with the syclts plugin',
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

/**
 * The error for a host object no footer attached, or, when another copy of `@syclts/dsl` did,
 * the error that names the two copies: the fix is then in the bundler's configuration.
 */
export function notAttached(
  api: string,
  subject: string,
  declaration: object,
  fix: string,
): SyclError {
  const copies = attachedByAnotherCopy(declaration);
  if (copies) {
    return new SyclError(
      errc.invalid,
      `${api}: ${subject} was attached by another copy of @syclts/dsl (${copies.other}) than the one the runtime uses (${copies.self}): the app loads @syclts/dsl twice. Make the bundler resolve it once: bundle both @syclts/dsl and @syclts/runtime, or mark both external, and dedupe node_modules (npm dedupe)`,
    );
  }
  return new SyclError(
    errc.invalid,
    `${api}: ${subject} was not compiled by syclts (no integration footer attached it); ${fix}`,
  );
}

/** A name for messages: the symbolic ID when the footer attached one. */
export function nameOf(declaration: object): string {
  return bindingOf(declaration)?.symbolicId ?? '<unattached declaration>';
}
