/**
 * The naming pass: before an image is printed, every function-scope WGSL name (each function's
 * parameters and locals, each kernel's launch-uniform fields) is chosen here from the image's
 * namer (link/wgsl-names.ts); the printer only looks names up. Struct fields are named per
 * struct, by `fieldNames`.
 */
import type { DataType } from '@syclts/dsl';
import type { Block } from '../../ir/device-code.js';
import type { LinkedImage, LinkedKernel } from '../../link/linked-image.js';
import { LAUNCH_FIELDS, Namer } from '../../link/wgsl-names.js';

/** WGSL names of one function's (or kernel's) parameters and locals, by IR name. */
export class FunctionNames {
  readonly #names = new Map<string, string>();

  constructor(
    private readonly namer: Namer,
    params: readonly string[],
    body: Block<unknown> | null,
  ) {
    for (const p of params) this.#add(p);
    if (body) this.#collect(body);
  }

  /** The WGSL name of the parameter or local `name` of the IR. */
  of(name: string): string {
    const wgsl = this.#names.get(name);
    if (wgsl === undefined) throw new Error(`no WGSL name for local '${name}'`);
    return wgsl;
  }

  #add(name: string): void {
    // One WGSL name per IR name: a local that shadows another of its name in an inner block
    // keeps shadowing it in WGSL.
    if (!this.#names.has(name)) this.#names.set(name, this.namer.call(name));
  }

  /** Each local of `block` in the order of its declarations, inner blocks where they stand. */
  #collect(block: Block<unknown>): void {
    for (const s of block) {
      switch (s.kind) {
        case 'let':
          this.#add(s.name);
          break;
        case 'jointMatrix':
          if (s.fn === 'declare') this.#add(s.matrix.name);
          break;
        case 'if':
          this.#collect(s.then);
          if (s.else) this.#collect(s.else);
          break;
        case 'for':
          if (s.init?.kind === 'let') this.#add(s.init.name);
          this.#collect(s.body);
          break;
        case 'while':
        case 'block':
          this.#collect(s.body);
          break;
        default:
          break;
      }
    }
  }
}

const LAUNCH_FIELD_NAMES: ReadonlySet<string> = new Set(Object.values(LAUNCH_FIELDS));

/** The names of every function and kernel of an image, chosen before printing. */
export class ImageNames {
  readonly #functions = new Map<string, FunctionNames>();
  readonly #launchFields = new Map<string, FunctionNames>();

  /** `taken`: the image's module-scope names (its `wgslNames`). */
  constructor(image: LinkedImage, taken: ReadonlySet<string>) {
    const module = Namer.over(taken);
    for (const f of image.functions) {
      const params = f.decl.params.map((p) => p.name);
      const body = f.decl.body.kind === 'ir' ? f.decl.body.block : null;
      this.#functions.set(f.symbolicId, new FunctionNames(module.inner(), params, body));
    }
    for (const k of image.kernels) {
      this.#functions.set(k.symbolicId, new FunctionNames(module.inner(), [], k.decl.body));
      const args = k.decl.params.filter((p) => p.kind === 'value').map((p) => p.name);
      const fields = Namer.over(LAUNCH_FIELD_NAMES);
      this.#launchFields.set(k.symbolicId, new FunctionNames(fields, args, null));
    }
  }

  /** A device function's or kernel's names. */
  function(symbolicId: string): FunctionNames {
    return this.#functions.get(symbolicId)!;
  }

  /** The field of the kernel's launch-uniform struct that holds value argument `arg`. */
  launchField(kernel: LinkedKernel, arg: string): string {
    return this.#launchFields.get(kernel.symbolicId)!.of(arg);
  }
}

/** WGSL names of a struct's fields, in order: the same for every struct of the same fields. */
export function fieldNames(type: Extract<DataType, { kind: 'struct' }>): readonly string[] {
  const namer = Namer.module();
  return type.fields.map((f) => namer.call(f.name));
}

/** The WGSL name of field `name` of a struct type. */
export function fieldName(type: DataType, name: string): string {
  if (type.kind !== 'struct') throw new Error(`member '${name}' of a ${type.kind}`);
  return fieldNames(type)[type.fields.findIndex((f) => f.name === name)]!;
}
