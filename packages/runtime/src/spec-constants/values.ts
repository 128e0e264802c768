/**
 * Specialization constant values: set and read on handlers and kernel bundles (keyed by the
 * `SpecializationId` host object), and turned into what a launch needs: pipeline constants for
 * the native variant, the emulation buffer's bytes for the emulated one.
 */
import {
  bindingOf,
  type DeviceImage,
  declarationOf,
  type KernelInfo,
  latestDeclaration,
  type Program,
  type SpecConstantInfo,
  type SpecializationId,
  type SymbolicId,
  typeName,
  writeScalar,
} from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { nameOf, notAttached } from '../program/resolve.js';
import { type CanonicalValue, canonicalize, leafAt } from '../values/host-value.js';
import {
  checkScalar,
  constantNumber,
  type ScalarValue,
  show,
  ValueError,
} from '../values/scalars.js';

const defaults = new WeakMap<SpecializationId, CanonicalValue>();

/** The host object's default, canonical. A default that does not fit its type is reported here. */
export function defaultOf(id: SpecializationId): CanonicalValue {
  let value = defaults.get(id);
  if (value === undefined) {
    value = checked(`specializationId(${nameOf(id)})`, id, id.defaultValue, 'default value');
    defaults.set(id, value);
  }
  return value;
}

/** Canonical form of a value for `id`, or SyclError errc.invalid naming the API, constant and value. */
export function checked(
  api: string,
  id: SpecializationId,
  value: unknown,
  what = 'value',
): CanonicalValue {
  try {
    return canonicalize(id.type, value);
  } catch (error) {
    if (!(error instanceof ValueError)) throw error;
    throw new SyclError(
      errc.invalid,
      `${api}: ${what} ${show(value)} for specialization constant ${nameOf(id)} is invalid: ${error.message}`,
    );
  }
}

/**
 * The values set so far (on a handler or a bundle); unset constants read as their default. Keyed
 * by the latest host object of each constant: after the dev server relinks an edited module, the
 * host object imported before the edit and its new version name the same constant, whose default
 * and type are the new version's.
 */
export class SpecValues {
  readonly #values: Map<SpecializationId, CanonicalValue>;
  /** Each set value's interned form, whose key (see valueKey) is made once, when first asked. */
  readonly #interned = new Map<SpecializationId, Interned>();
  /**
   * What launches derived from these values, per image; reset by every set. Made on demand: a
   * handler's values live for one submit.
   */
  #derived: Pick<Map<DeviceImage, Derived>, 'get' | 'set'> | null = null;

  constructor(values?: ReadonlyMap<SpecializationId, CanonicalValue>) {
    this.#values = new Map(values);
    for (const [id, value] of this.#values) this.#interned.set(id, new Interned(value));
  }

  set(api: string, id: SpecializationId, value: unknown): void {
    const latest = latestDeclaration(attached(api, id));
    const entry = intern(api, latest, value);
    this.#values.set(latest, entry.canonical);
    this.#interned.set(latest, entry);
    this.#derived = null;
  }

  /** The key of the value a kernel sees for `symbolicId`: equal keys, equal values. */
  keyIn(program: Program, symbolicId: SymbolicId, info: SpecConstantInfo): string {
    const declaration = declarationOf(program, symbolicId) as SpecializationId | undefined;
    if (declaration) {
      const latest = latestDeclaration(declaration);
      const entry = this.#interned.get(latest);
      if (entry) return entry.key;
      let fallback = defaultKeys.get(latest);
      if (fallback === undefined) {
        fallback = valueKey(defaultOf(latest));
        defaultKeys.set(latest, fallback);
      }
      return fallback;
    }
    return valueKey(this.valueIn(program, symbolicId, info));
  }

  /** The memo of what was derived for `image` (shared by all value sets that set nothing). */
  derived(image: DeviceImage): Derived {
    // Maps, not WeakMaps: made for every launch's handler, and a WeakMap is costly to make and
    // to collect; the keys (images, kernels) outlive the values anyway.
    if (this.#values.size > 0 && !this.#derived) this.#derived = new Map();
    const memo = this.#derived ?? defaultsDerived;
    let derived = memo.get(image);
    if (!derived) {
      derived = {};
      memo.set(image, derived);
    }
    return derived;
  }

  /** `get` for the public API: a constant no build attached is an error. */
  read(api: string, id: SpecializationId): CanonicalValue {
    return this.get(attached(api, id));
  }

  get(id: SpecializationId): CanonicalValue {
    const latest = latestDeclaration(id);
    return this.#values.get(latest) ?? defaultOf(latest);
  }

  get size(): number {
    return this.#values.size;
  }

  entries(): IterableIterator<[SpecializationId, CanonicalValue]> {
    return this.#values.entries();
  }

  /** The value a kernel of `image` sees for the constant `symbolicId`. */
  valueIn(program: Program, symbolicId: SymbolicId, info: SpecConstantInfo): CanonicalValue {
    const declaration = declarationOf(program, symbolicId) as SpecializationId | undefined;
    if (declaration) return this.get(declaration);
    if (info.defaultValue !== null) return canonicalize(info.type, info.defaultValue);
    throw new SyclError(
      errc.invalid,
      `specialization constant ${symbolicId}: its default was not folded at build time and its module's integration footer did not run`,
    );
  }
}

/**
 * A constant that no build attached was declared outside every `.sycl.ts` module the plugin
 * compiled (in host code, say): no kernel can ever read it, so setting or getting it is a
 * mistake, not SYCL's legal "set a constant no kernel uses".
 */
function attached(api: string, id: SpecializationId): SpecializationId {
  if (!bindingOf(id)) {
    throw notAttached(
      api,
      `this specializationId(${typeName(id.type)}, default ${show(id.defaultValue)})`,
      id,
      'no kernel reads it; declare it in a .sycl.ts module the syclts plugin builds',
    );
  }
  return id;
}

const defaultKeys = new WeakMap<SpecializationId, string>();

/**
 * A value set before, checked once, keyed once when a native pipeline is looked up (an emulated
 * launch never needs the key).
 */
class Interned {
  #key: string | null = null;

  constructor(readonly canonical: CanonicalValue) {}

  get key(): string {
    this.#key ??= valueKey(this.canonical);
    return this.#key;
  }
}

/** Values kept per constant: a host that cycles through a few sets them without rework. */
const INTERNED_PER_CONSTANT = 16;
const interned = new WeakMap<SpecializationId, Interned[]>();

/**
 * The checked value and key of `value` for `id`, reused when `value` equals one set recently:
 * equal to a canonical value leaf for leaf (-0 apart), it is its own canonical form.
 */
function intern(api: string, id: SpecializationId, value: unknown): Interned {
  let recent = interned.get(id);
  if (!recent) {
    recent = [];
    interned.set(id, recent);
  }
  for (const entry of recent) if (isCanonical(value, entry.canonical)) return entry;
  const entry = new Interned(checked(api, id, value));
  recent.unshift(entry);
  if (recent.length > INTERNED_PER_CONSTANT) recent.pop();
  return entry;
}

/** Whether a host value is, leaf for leaf, exactly `canonical` (no extra fields, -0 apart). */
function isCanonical(value: unknown, canonical: CanonicalValue): boolean {
  if (typeof canonical !== 'object') return Object.is(value, canonical);
  if (Array.isArray(canonical)) {
    const list = canonical as readonly CanonicalValue[];
    if (!Array.isArray(value) && !(ArrayBuffer.isView(value) && !(value instanceof DataView))) {
      return false;
    }
    const items = value as ArrayLike<unknown>;
    if (items.length !== list.length) return false;
    for (let i = 0; i < list.length; i++) {
      // Scalar leaves compared in place: this runs for every recent value set on every launch.
      const leaf = list[i]!;
      if (typeof leaf === 'object' ? !isCanonical(items[i], leaf) : !Object.is(items[i], leaf)) {
        return false;
      }
    }
    return true;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const fields = Object.keys(canonical);
  if (Object.keys(value).length !== fields.length) return false;
  const record = value as Record<string, unknown>;
  const expected = canonical as Readonly<Record<string, CanonicalValue>>;
  for (const field of fields) {
    if (!Object.hasOwn(record, field) || !isCanonical(record[field], expected[field]!)) {
      return false;
    }
  }
  return true;
}

/** A canonical value as text; -0 kept apart from 0 (they are different pipeline constants). */
function valueKey(value: CanonicalValue): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (Array.isArray(value)) {
    let key = '[';
    for (const v of value as readonly CanonicalValue[]) key += `${valueKey(v)},`;
    return `${key}]`;
  }
  let key = '{';
  for (const [field, v] of Object.entries(value)) key += `${field}:${valueKey(v)},`;
  return `${key}}`;
}

interface Derived {
  /** Per kernel: each reads only its own constants, so a set it never reads keeps its pipeline. */
  native?: Map<KernelInfo, NativeConstants>;
  nativeKeys?: Map<KernelInfo, string>;
}

/** What value sets that set nothing derive, per image (one for the life of the image). */
const defaultsDerived = new WeakMap<DeviceImage, Derived>();

/** Pipeline constants for the native variant (leaves equal to their folded default left out). */
export interface NativeConstants {
  readonly constants: Record<string, number>;
}

/**
 * The key of the native pipeline a kernel needs for these values: its own constants' values only
 * (what it does not read cannot change its pipeline). Made from the keys made when the values
 * were set, so a launch builds no constants record unless it creates a pipeline.
 */
export function nativeKey(
  program: Program,
  image: DeviceImage,
  kernel: KernelInfo,
  values: SpecValues,
): string {
  // Defaults are keyed once per image; a set of values (a handler's, for one launch) is keyed
  // from the keys its values got when they were set, with nothing kept.
  if (values.size > 0) return keyOf(program, image, kernel, values);
  const derived = values.derived(image);
  derived.nativeKeys ??= new Map();
  let key = derived.nativeKeys.get(kernel);
  if (key === undefined) {
    key = keyOf(program, image, kernel, values);
    derived.nativeKeys.set(kernel, key);
  }
  return key;
}

/** Per kernel, the keys of its last value sets with the constants' keys they were made of. */
const combinedKeys = new WeakMap<KernelInfo, { parts: readonly string[]; key: string }[]>();
const COMBINED_KEYS_PER_KERNEL = 16;
/** The constants' keys of the launch being keyed (one launch at a time: no allocation). */
const parts: string[] = [];

function keyOf(program: Program, image: DeviceImage, kernel: KernelInfo, values: SpecValues) {
  const ids = kernel.specConstants;
  if (ids.length === 1) return values.keyIn(program, ids[0]!, image.specConstants[ids[0]!]!);
  parts.length = ids.length;
  for (let i = 0; i < ids.length; i++) {
    parts[i] = values.keyIn(program, ids[i]!, image.specConstants[ids[i]!]!);
  }
  // The same combination as a recent launch gets the same string back: no concatenation, and
  // the pipeline look-ups that follow hash a string whose hash is already known.
  let recent = combinedKeys.get(kernel);
  if (!recent) {
    recent = [];
    combinedKeys.set(kernel, recent);
  }
  search: for (const known of recent) {
    for (let i = 0; i < parts.length; i++) if (known.parts[i] !== parts[i]) continue search;
    return known.key;
  }
  const key = parts.map((part) => `${part};`).join('');
  if (recent.length >= COMBINED_KEYS_PER_KERNEL) recent.shift();
  recent.push({ parts: [...parts], key });
  return key;
}

export function nativeConstants(
  program: Program,
  image: DeviceImage,
  kernel: KernelInfo,
  values: SpecValues,
): NativeConstants {
  const derived = values.derived(image);
  derived.native ??= new Map();
  let constants = derived.native.get(kernel);
  if (!constants) {
    constants = computeNativeConstants(program, image, kernel, values);
    derived.native.set(kernel, constants);
  }
  return constants;
}

function computeNativeConstants(
  program: Program,
  image: DeviceImage,
  kernel: KernelInfo,
  values: SpecValues,
): NativeConstants {
  const pairs: [number, ScalarValue][] = [];
  for (const symbolicId of kernel.specConstants) {
    const info = image.specConstants[symbolicId];
    if (!info) {
      throw new SyclError(
        errc.build,
        `device image ${image.id}: kernel ${kernel.entryPoint} uses specialization constant ${symbolicId}, which the image does not declare`,
      );
    }
    const value = values.valueIn(program, symbolicId, info);
    const folded = foldedLeaves(info);
    for (const leaf of info.leaves) {
      const leafValue = leafAt(value, leaf.path);
      const foldedValue = folded?.get(leaf.id);
      if (foldedValue !== undefined && Object.is(foldedValue, leafValue)) continue;
      pairs.push([leaf.id, leafValue]);
    }
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const constants: Record<string, number> = {};
  for (const [id, value] of pairs) constants[String(id)] = constantNumber(value);
  return { constants };
}

const foldedCache = new WeakMap<SpecConstantInfo, ReadonlyMap<number, ScalarValue> | null>();

/** The folded default of each leaf (by leaf ID), or null when the build did not fold one. */
function foldedLeaves(info: SpecConstantInfo): ReadonlyMap<number, ScalarValue> | null {
  let leaves = foldedCache.get(info);
  if (leaves === undefined) {
    const folded = info.defaultValue;
    leaves =
      folded === null
        ? null
        : new Map(
            info.leaves.map((leaf) => [
              leaf.id,
              checkScalar(leaf.scalar, leafAt(folded as CanonicalValue, leaf.path), 'default'),
            ]),
          );
    foldedCache.set(info, leaves);
  }
  return leaves;
}

/** The whole emulation buffer of `image` for one launch. */
/**
 * Writes the emulation buffer's values (every constant of the image) at byte `at` of `view`,
 * the launch's slice of the arena: no bytes are made per launch.
 */
export function writeEmulation(
  program: Program,
  image: DeviceImage,
  values: SpecValues,
  view: DataView,
  at: number,
): void {
  for (const [symbolicId, info] of constantsOf(image)) {
    const value = values.valueIn(program, symbolicId, info);
    for (const leaf of info.leaves) {
      writeScalar(
        view,
        at + info.emulationOffset + leaf.offset,
        leaf.scalar,
        leafAt(value, leaf.path),
      );
    }
  }
}

const imageConstants = new WeakMap<DeviceImage, readonly [SymbolicId, SpecConstantInfo][]>();

function constantsOf(image: DeviceImage): readonly [SymbolicId, SpecConstantInfo][] {
  let constants = imageConstants.get(image);
  if (!constants) {
    constants = Object.entries(image.specConstants);
    imageConstants.set(image, constants);
  }
  return constants;
}

/** The current value of the integer leaf `leafId` (a workgroup size given by a constant). */
export function leafValue(
  program: Program,
  image: DeviceImage,
  values: SpecValues,
  symbolicId: SymbolicId,
  leafId: number,
): number {
  const info = image.specConstants[symbolicId];
  const leaf = info?.leaves.find((l) => l.id === leafId);
  if (!info || !leaf) {
    throw new SyclError(
      errc.build,
      `device image ${image.id}: workgroup size refers to leaf ${leafId} of ${symbolicId}, which the image does not declare`,
    );
  }
  return Number(leafAt(values.valueIn(program, symbolicId, info), leaf.path));
}
