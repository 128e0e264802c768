/**
 * Helper functions of built-ins that WGSL has no function for (the table's `helper`, such as
 * `Math.round`'s): each printed once per WGSL module and argument type that uses it, so its
 * argument is evaluated once, named by the module's namer after the struct types' rule (a
 * prefix no function-scope name takes, since they are named while printing).
 */
import type { DataType, LogValueType, ScalarName, SpecConstantLeaf } from '@syclts/dsl';
import { HELPER_BUILTINS } from '../../builtins/overloads.js';
import type { LinkedLog, LinkedSpecConstant } from '../../link/linked-image.js';
import { HELPER_PREFIX, LAUNCH_SLOT, type Namer } from '../../link/wgsl-names.js';
import { type AtomicSpace, type F32AtomicHelper, f32AtomicHelper } from './atomics.js';
import { fromLeaves } from './leaves.js';
import { logHelper, logHelperKey } from './log.js';
import type { WgslTypes } from './types.js';

const COMPONENTS = 'xyzw';

/**
 * A scalar leaf (host form: bool as u32) read from the 16-byte words of an emulation record,
 * `record` an expression of them, the constant at `base`.
 */
export function wordRead(record: string, base: number, leaf: SpecConstantLeaf): string {
  const offset = base + leaf.offset;
  const word = `${record}[${offset >> 4}].${COMPONENTS[(offset >> 2) & 3]}`;
  switch (leaf.scalar) {
    case 'f32':
    case 'i32':
      return `bitcast<${leaf.scalar}>(${word})`;
    case 'f16':
      return `bitcast<vec2<f16>>(${word}).${COMPONENTS[(offset >> 1) & 1]}`;
    case 'u32':
    case 'bool':
      return word;
  }
}

export class BuiltinHelpers {
  readonly #helpers = new Map<string, { readonly name: string; readonly text: string }>();

  constructor(
    private readonly namer: Namer,
    private readonly types: WgslTypes,
  ) {}

  /** The name of the helper that computes built-in `wgsl` on an argument of type `type`. */
  call(wgsl: string, type: DataType): string {
    const key = `${wgsl}:${JSON.stringify(type)}`;
    const known = this.#helpers.get(key);
    if (known) return known.name;
    const template = HELPER_BUILTINS.get(wgsl)!.entry.helper!;
    const wgslType = this.types.type(type, wgsl);
    const name = this.namer.call(`${HELPER_PREFIX}${wgsl}_${wgslType.replace(/\W+/g, '')}`);
    const text = template
      .replaceAll('$name', name)
      .replaceAll('$T', wgslType)
      .replaceAll('$U', type.kind === 'vector' ? `vec${type.size}<u32>` : 'u32');
    this.#helpers.set(key, { name, text });
    return name;
  }

  /**
   * The name of the helper that computes atomic `fn` on an `atomic(f32)` in `space` (see
   * atomics.ts); `result` is the type `fn` gives.
   */
  atomic(fn: F32AtomicHelper, space: AtomicSpace, result: DataType): string {
    const key = `${fn}:f32:${space}`;
    const known = this.#helpers.get(key);
    if (known) return known.name;
    const resultType = this.types.type(result, 'atomic_f32_exchange');
    const name = this.namer.call(`${HELPER_PREFIX}${fn}_f32_${space}`);
    this.#helpers.set(key, { name, text: f32AtomicHelper(fn, name, space, resultType) });
    return name;
  }

  /** The name of the helper that writes a `console.log` record of values of these types. */
  log(log: LinkedLog, args: readonly LogValueType[]): string {
    const key = `log:${logHelperKey(args)}`;
    const known = this.#helpers.get(key);
    if (known) return known.name;
    const name = this.namer.call(`${HELPER_PREFIX}log_${logHelperKey(args)}`);
    this.#helpers.set(key, { name, text: logHelper(name, log, args) });
    return name;
  }

  /**
   * The helper that rebuilds composite specialization constant `c` from the words of the
   * emulation record `record` (a WGSL expression of the launch slot, `sc_buffer[slot].w`): its host
   * form (bool as u32), leaf by leaf at the leaves' offsets.
   */
  words(c: LinkedSpecConstant, record: string): string {
    const key = `words:${c.symbolicId}`;
    const known = this.#helpers.get(key);
    if (known) return known.name;
    const name = this.namer.call(`${HELPER_PREFIX}${c.wgslName}`);
    let next = 0;
    const leaf = (): string => wordRead(record, c.info.emulationOffset, c.info.leaves[next++]!);
    const value = fromLeaves(c.info.type, c.wgslName, this.types, 'host', leaf);
    const result = this.types.type(c.info.type, c.wgslName, 'host');
    const text = `fn ${name}(${LAUNCH_SLOT}: u32) -> ${result} {\n  return ${value};\n}`;
    this.#helpers.set(key, { name, text });
    return name;
  }

  /**
   * The helper that reads element `i` of array constant `c` (`length` 32-bit `scalar`s) from the
   * words of the emulation record `record`: the index clamped to the array, as WGSL's robust
   * access clamps an index into the array value the constant otherwise is.
   */
  element(c: LinkedSpecConstant, scalar: ScalarName, length: number, record: string): string {
    const key = `element:${c.symbolicId}`;
    const known = this.#helpers.get(key);
    if (known) return known.name;
    const name = this.namer.call(`${HELPER_PREFIX}${c.wgslName}_at`);
    const word = `${record}[w >> 2u][w & 3u]`;
    const first = c.info.emulationOffset >> 2;
    const text = [
      `fn ${name}(${LAUNCH_SLOT}: u32, i: u32) -> ${this.types.scalar(scalar)} {`,
      `  let w = ${first === 0 ? '' : `${first}u + `}min(i, ${length - 1}u);`,
      `  return ${scalar === 'u32' ? word : `bitcast<${scalar}>(${word})`};`,
      '}',
    ].join('\n');
    this.#helpers.set(key, { name, text });
    return name;
  }

  /** The helper functions used so far. */
  declarations(): string[] {
    return [...this.#helpers.values()].map((h) => h.text);
  }
}
