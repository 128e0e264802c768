/**
 * Conversions between a value and its host-shareable form, where `bool` is stored as `u32`
 * (emulation buffer, launch uniform, device globals). Types without bool pass unchanged.
 */
import type { DataType } from '@syclts/dsl';
import { containsBool } from '../../link/layout.js';
import { fieldNames } from './names.js';
import type { WgslTypes } from './types.js';

/** The value stored at `e` (host form) as `type`. */
export function fromHost(e: string, type: DataType, hint: string, types: WgslTypes): string {
  if (!containsBool(type)) return e;
  switch (type.kind) {
    case 'scalar':
      return `(${e} != 0u)`;
    case 'vector':
      return `(${e} != vec${type.size}<u32>())`;
    case 'array':
      return `${types.type(type, hint)}(${Array.from({ length: type.length }, (_, i) => fromHost(`${e}[${i}]`, type.element, hint, types)).join(', ')})`;
    case 'struct':
      return `${types.type(type, hint)}(${type.fields.map((f, i) => fromHost(`${e}.${fieldNames(type)[i]!}`, f.type, `${hint}_${f.name}`, types)).join(', ')})`;
    default:
      return e;
  }
}

/** The host form of the value `e`; `e` is read once per leaf, so pass a name for composites. */
export function toHost(e: string, type: DataType, hint: string, types: WgslTypes): string {
  if (!containsBool(type)) return e;
  switch (type.kind) {
    case 'scalar':
      return `select(0u, 1u, ${e})`;
    case 'vector':
      return `select(vec${type.size}<u32>(0u), vec${type.size}<u32>(1u), ${e})`;
    case 'array':
      return `${types.type(type, hint, 'host')}(${Array.from({ length: type.length }, (_, i) => toHost(`${e}[${i}]`, type.element, hint, types)).join(', ')})`;
    case 'struct':
      return `${types.type(type, hint, 'host')}(${type.fields.map((f, i) => toHost(`${e}.${fieldNames(type)[i]!}`, f.type, `${hint}_${f.name}`, types)).join(', ')})`;
    default:
      return e;
  }
}
