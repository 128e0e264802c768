import type { DeviceObject } from '../ir/device-object.js';

export interface FooterOptions {
  /** The module specifier the footer imports the linked program from. */
  readonly programModule: string;
}

/**
 * The integration footer appended to a transformed `.sycl.ts` module: binds every declaration's
 * host object to its symbolic ID and the linked program.
 */
export function integrationFooter(_object: DeviceObject, _options: FooterOptions): string {
  throw new Error('integrationFooter: not implemented yet');
}
