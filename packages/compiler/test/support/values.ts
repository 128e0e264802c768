import type { DataType, JsonValue } from '@syclts/dsl';
import { leavesOf } from '../../src/link/layout.js';
import { at } from './launch.js';

/** The leaves of a host value as the device sees them in f32, in leaf-ID order. */
export function leafValues(type: DataType, value: JsonValue): number[] {
  return leavesOf(type, 0).map((leaf) => {
    const v = at(value, leaf.path);
    return Math.fround(typeof v === 'boolean' ? Number(v) : (v as number));
  });
}
