/** Names of the files `syclts build` writes, shared with `syclts inspect`. */
import type { SpecConstantMode } from '@syclts/dsl';

export const PROGRAM_FILE = 'program.json';

/**
 * `<index>-<image id with path separators as '_'>`: unique (the index, zero-padded so names sort
 * in image order) and readable.
 */
export function imageStem(index: number, count: number, id: string): string {
  const number = String(index).padStart(String(count - 1).length, '0');
  return `${number}-${id.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

export const wgslFile = (stem: string, mode: SpecConstantMode): string => `${stem}.${mode}.wgsl`;
export const propertiesFile = (stem: string): string => `${stem}.properties.json`;
