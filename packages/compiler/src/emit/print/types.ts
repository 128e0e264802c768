/**
 * WGSL spelling of data types. DSL structs are structural; WGSL structs are nominal, so each
 * distinct struct shape gets one declaration, named after the first place it is seen.
 */
import type { DataType, ScalarName } from '@syclts/dsl';
import { containsBool } from '../../link/layout.js';
import { type Namer, STRUCT_PREFIX } from '../../link/wgsl-names.js';
import { fieldNames } from './names.js';

/** How a type is stored: as declared, or host-shareable (bool as u32). */
export type Storage = 'value' | 'host';

export class WgslTypes {
  readonly #structs = new Map<string, { name: string; text: string }>();
  usesF16 = false;

  /** `namer`: the image's module-scope namer, which names the struct types. */
  constructor(private readonly namer: Namer) {}

  /** The struct declarations met so far, nested structs first. */
  declarations(): string[] {
    return [...this.#structs.values()].map((s) => s.text);
  }

  /** A scalar's WGSL name; an f16 one, printed as a type or a literal, needs `enable f16`. */
  scalar<S extends ScalarName>(scalar: S): S {
    if (scalar === 'f16') this.usesF16 = true;
    return scalar;
  }

  /** `hint` names a struct on first sight (e.g. after the constant or variable that holds it). */
  type(type: DataType, hint: string, storage: Storage = 'value'): string {
    switch (type.kind) {
      case 'scalar':
        return this.scalar(storage === 'host' && type.scalar === 'bool' ? 'u32' : type.scalar);
      case 'atomic':
        // An f32 atomic is held as its bits (atomics.ts).
        return `atomic<${type.scalar === 'f32' ? 'u32' : type.scalar}>`;
      case 'vector': {
        const s = storage === 'host' && type.component === 'bool' ? 'u32' : type.component;
        return `vec${type.size}<${this.scalar(s)}>`;
      }
      case 'matrix':
        return `mat${type.columns}x${type.rows}<f32>`;
      case 'array':
        return `array<${this.type(type.element, hint, storage)}, ${type.length}>`;
      case 'struct':
        return this.#struct(type, hint, storage);
    }
  }

  #struct(type: Extract<DataType, { kind: 'struct' }>, hint: string, given: Storage): string {
    // Without bool the host-shareable shape is the value shape: one WGSL type, so values mix.
    const storage = given === 'host' && !containsBool(type) ? 'value' : given;
    const key = `${storage}:${JSON.stringify(type.fields)}`;
    const known = this.#structs.get(key);
    if (known) return known.name;
    const names = fieldNames(type);
    const fields = type.fields.map(
      (f, i) => `  ${names[i]!}: ${this.type(f.type, `${hint}_${f.name}`, storage)},`,
    );
    const name = this.namer.call(`${STRUCT_PREFIX}${hint}${storage === 'host' ? '_host' : ''}`);
    this.#structs.set(key, { name, text: `struct ${name} {\n${fields.join('\n')}\n}` });
    return name;
  }
}
