/**
 * What a kernel launch command records, checked when it is recorded: the kernel resolved, its
 * range (or nd-range) against the kernel's dimensions, its arguments against the kernel's schema.
 */
import type { Dimensions, Kernel } from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { type ResolvedKernel, resolveKernel } from '../program/resolve.js';
import { type ArgSchema, type CheckedArgs, checkArgs, schemaOf } from './kernel-args.js';
import { type NdRange, syclSizes } from './range.js';

export interface KernelAction {
  readonly api: string;
  /** The kernel's symbolic ID, for messages and labels. */
  readonly name: string;
  readonly resolved: ResolvedKernel;
  /** SYCL-ordered global sizes. */
  readonly global: readonly number[];
  /** SYCL-ordered local sizes for nd-range launches. */
  readonly local: readonly number[] | null;
  /** The kernel's arguments as declared by the host object launched. */
  readonly schema: ArgSchema;
  readonly args: CheckedArgs;
}

export function kernelAction(
  api: string,
  range: unknown,
  kernel: Kernel,
  args: unknown,
  device: GPUDevice,
): KernelAction {
  const resolved = resolveKernel(api, kernel);
  const name = resolved.symbolicId;
  const nd = typeof range === 'object' && range !== null && !Array.isArray(range);
  if (nd !== kernel.ndRange) {
    throw new SyclError(
      errc.ndRange,
      `${api}: kernel ${name} is ${kernel.ndRange ? 'an nd-range kernel and needs ndRange(global, local)' : 'a basic kernel and takes a range, not an nd-range'}`,
    );
  }
  const global = nd
    ? syclSizes(api, name, 'global range', (range as NdRange<Dimensions>).global, kernel.dimensions)
    : syclSizes(api, name, 'range', range, kernel.dimensions);
  const local = nd
    ? syclSizes(api, name, 'local range', (range as NdRange<Dimensions>).local, kernel.dimensions)
    : null;
  const schema = schemaOf(kernel);
  return {
    api,
    name,
    resolved,
    global,
    local,
    schema,
    args: checkArgs(api, name, schema, args, device),
  };
}
