/**
 * Specialization constant values: set and read on handlers and kernel bundles (keyed by the
 * `SpecializationId` host object), and turned into what a launch needs: pipeline constants for
 * the native variant, the emulation buffer's bytes for the emulated one.
 */
import {
  attachGeneration,
  bindingOf,
  type DataType,
  type DeviceImage,
  declarationOf,
  type KernelInfo,
  latestDeclaration,
  type Program,
  type ScalarName,
  type SpecConstantInfo,
  type SpecializationId,
  type SymbolicId,
  typeName,
  writeScalar,
} from '@syclts/dsl';
import { errc, SyclError } from '../errors.js';
import { nameOf, notAttached } from '../program/resolve.js';
import { type CanonicalValue, canonicalize, isArrayLike, leafAt } from '../values/host-value.js';
import {
  checkScalar,
  constantNumber,
  deviceForm,
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
  /** Each set constant's value, in the order first set (a handler sets a few: a list, not a map). */
  readonly #entries: Interned[] = [];
  constructor(values?: ReadonlyMap<SpecializationId, CanonicalValue>) {
    if (values) {
      for (const [id, value] of values) {
        this.#entries.push(new Interned(id, value, hashOf(id.type, value)));
      }
    }
  }

  set(api: string, id: SpecializationId, value: unknown): void {
    const state = stateOf(api, id);
    const entry = intern(api, state, value);
    const entries = this.#entries;
    let i = 0;
    while (i < entries.length && entries[i]!.id !== state.latest) i++;
    entries[i] = entry;
  }

  /** The value set for the constant whose latest host object is `latest`, if any. */
  #find(latest: SpecializationId): Interned | undefined {
    const entries = this.#entries;
    for (let i = 0; i < entries.length; i++) if (entries[i]!.id === latest) return entries[i];
    return undefined;
  }

  /** The value a kernel sees for the constant `use`, with its key (equal keys, equal values). */
  entryOf(use: ConstantUse): KeyedValue {
    return (use.declaration && this.#find(use.declaration)) || fallbackOf(use);
  }

  /** The value a kernel sees for the constant `use`. */
  valueOf(use: ConstantUse): CanonicalValue {
    return ((use.declaration && this.#find(use.declaration)) || fallbackOf(use)).canonical;
  }

  /** `get` for the public API: a constant no build attached is an error. */
  read(api: string, id: SpecializationId): CanonicalValue {
    const { latest } = stateOf(api, id);
    return this.#find(latest)?.canonical ?? defaultOf(latest);
  }

  get size(): number {
    return this.#entries.length;
  }

  *entries(): IterableIterator<[SpecializationId, CanonicalValue]> {
    for (const entry of this.#entries) yield [entry.id, entry.canonical];
  }
}

/**
 * A constant no build attached was declared outside every `.sycl.ts` module the plugin compiled
 * (in host code, say): no kernel can ever read it, so setting or getting it is a mistake, not
 * SYCL's legal "set a constant no kernel uses".
 */
function notAttachedError(api: string, id: SpecializationId): SyclError {
  return notAttached(
    api,
    `this specializationId(${typeName(id.type)}, default ${show(id.defaultValue)})`,
    id,
    'no kernel reads it; declare it in a .sycl.ts module the syclts plugin builds',
  );
}

/** A canonical value whose key is made once, when a native pipeline is looked up (an emulated launch never needs it). */
class KeyedValue {
  #key: string | null = null;

  constructor(readonly canonical: CanonicalValue) {}

  get key(): string {
    this.#key ??= valueKey(this.canonical);
    return this.#key;
  }
}

/** A value set before, checked once. */
class Interned extends KeyedValue {
  /** hashOf(its type, canonical): a value with another hash is not compared leaf by leaf. */
  readonly hash: number;

  constructor(
    /** The constant's latest host object when the value was set. */
    readonly id: SpecializationId,
    canonical: CanonicalValue,
    /** The hash of the value it was checked from (the same device form). */
    hash: number,
  ) {
    super(canonical);
    this.hash = hash;
  }
}

/**
 * What the runtime keeps per constant host object, until the next attach or relink: its latest
 * version, and that version's recent values.
 */
interface ConstantState {
  readonly generation: number;
  readonly latest: SpecializationId;
  readonly recent: Recent;
}

/**
 * A constant's recent values: a ring of at most INTERNED_PER_CONSTANT, `next` the oldest once
 * full; and the value set last, compared first (a host that sets the same value again and again
 * pays one comparison, no hash).
 */
interface Recent {
  readonly values: Interned[];
  next: number;
  last: Interned | null;
}

const states = new WeakMap<SpecializationId, ConstantState>();
/** Values kept per constant: a host that cycles through a few sets them without rework. */
const INTERNED_PER_CONSTANT = 16;
const recentValues = new WeakMap<SpecializationId, Recent>();

/** The state of `id`; errc.invalid naming `api` when no build attached it. */
function stateOf(api: string, id: SpecializationId): ConstantState {
  const generation = attachGeneration();
  let state = states.get(id);
  if (state?.generation === generation) return state;
  // Bindings are never taken back: a constant with a state was attached.
  if (!state && !bindingOf(id)) throw notAttachedError(api, id);
  const latest = latestDeclaration(id);
  let recent = recentValues.get(latest);
  if (!recent) {
    recent = { values: [], next: 0, last: null };
    recentValues.set(latest, recent);
  }
  state = { generation, latest, recent };
  states.set(id, state);
  return state;
}

/**
 * The checked value and key of `value`, reused when `value` checks to one set recently (compared
 * in its device form: an f32 value that is not exactly an f32 finds the rounded value it checks to).
 */
function intern(api: string, state: ConstantState, value: unknown): Interned {
  const { recent, latest } = state;
  const { type } = latest;
  const { last, values } = recent;
  if (last && matches(type, value, last.canonical)) return last;
  const hash = hashOf(type, value);
  for (let i = 0; i < values.length; i++) {
    const entry = values[i]!;
    if (entry.hash === hash && matches(type, value, entry.canonical)) {
      recent.last = entry;
      return entry;
    }
  }
  const entry = new Interned(latest, checked(api, latest, value), hash);
  recent.last = entry;
  // Replaces the oldest once full (a ring: no entries moved per new value).
  if (values.length < INTERNED_PER_CONSTANT) values.push(entry);
  else {
    values[recent.next] = entry;
    recent.next = (recent.next + 1) % INTERNED_PER_CONSTANT;
  }
  return entry;
}

const hashBits = new Float64Array(1);
const hashWords = new Uint32Array(hashBits.buffer);

/**
 * A number shared by values of `type` that check to the same canonical value (equal device
 * forms, leaf for leaf): a new value is compared in full only with the recent values of its hash.
 * Scalars and lists of scalars are hashed; other values all hash to 0.
 */
function hashOf(type: DataType, value: unknown): number {
  if (type.kind === 'scalar' || type.kind === 'atomic') {
    return scalarHash(deviceForm(type.scalar, value));
  }
  const scalar = listScalar(type);
  if (!scalar || !isArrayLike(value)) return 0;
  let hash = 7;
  for (let i = 0; i < value.length; i++) {
    hash = (Math.imul(hash, 31) + scalarHash(deviceForm(scalar, value[i]))) | 0;
  }
  return hash;
}

function scalarHash(value: unknown): number {
  if (typeof value !== 'number') return value === true ? 1 : 2;
  hashBits[0] = value;
  return (hashWords[0]! ^ Math.imul(hashWords[1]!, 0x9e3779b1)) | 0;
}

/** The scalar type of a vector's, a matrix's or a scalar array's elements. */
function listScalar(type: DataType): ScalarName | null {
  if (type.kind === 'vector') return type.component;
  if (type.kind === 'matrix') return 'f32';
  if (type.kind === 'array' && type.element.kind === 'scalar') return type.element.scalar;
  return null;
}

/**
 * Whether a host value of `type` checks to `canonical` (each leaf's device form is the canonical
 * leaf, no extra fields): then `canonical` is its checked form, with no check or copy made.
 */
function matches(type: DataType, value: unknown, canonical: CanonicalValue): boolean {
  if (type.kind === 'scalar' || type.kind === 'atomic') {
    return Object.is(deviceForm(type.scalar, value), canonical);
  }
  if (type.kind === 'struct') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    const expected = canonical as Readonly<Record<string, CanonicalValue>>;
    return (
      Object.keys(record).length === type.fields.length &&
      type.fields.every(
        (f) => Object.hasOwn(record, f.name) && matches(f.type, record[f.name], expected[f.name]!),
      )
    );
  }
  const list = canonical as readonly CanonicalValue[];
  if (!isArrayLike(value) || value.length !== list.length) return false;
  const scalar = listScalar(type);
  for (let i = 0; i < list.length; i++) {
    const leaf = value[i];
    if (
      scalar
        ? !Object.is(deviceForm(scalar, leaf), list[i])
        : !matches((type as { element: DataType }).element, leaf, list[i]!)
    ) {
      return false;
    }
  }
  return true;
}

const keyFloat = new Float32Array(1);
const keyBits = new Uint32Array(keyFloat.buffer);

/**
 * A canonical value as text: equal texts, equal values. An integer as its decimal; any other
 * number (an f32 or f16 value, so exactly an f32) as its f32 bits, which also keep -0 apart from
 * 0 (different pipeline constants) and cost half the shortest decimal of a fraction.
 */
function valueKey(value: CanonicalValue): string {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && !Object.is(value, -0)) return String(value);
    keyFloat[0] = value;
    return `x${keyBits[0]!}`;
  }
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

/**
 * A constant as a kernel or an image reads it, resolved until the next attach or relink: its
 * latest host object (null when no footer attached one) and what it reads when no value is set.
 */
export interface ConstantUse {
  readonly symbolicId: SymbolicId;
  readonly info: SpecConstantInfo;
  readonly declaration: SpecializationId | null;
  /** The default (the declaration's, else the folded one); null when there is neither. */
  readonly fallback: KeyedValue | null;
}

function fallbackOf(use: ConstantUse): KeyedValue {
  if (use.fallback) return use.fallback;
  throw new SyclError(
    errc.invalid,
    `specialization constant ${use.symbolicId}: its default was not folded at build time and its module's integration footer did not run`,
  );
}

/** The constants of one kernel (or of a whole image), resolved, and the keys of recent launches. */
interface Uses {
  readonly generation: number;
  readonly program: Program;
  readonly list: readonly ConstantUse[];
  /** The key of a launch that sets nothing (made when first asked). */
  defaultsKey: string | null;
  /** The keys of the last value sets with the values they were made of. */
  readonly combined: { parts: readonly KeyedValue[]; key: string }[];
  /** The values of the launch being keyed (one launch at a time: no allocation). */
  readonly parts: KeyedValue[];
  /** An image's emulation buffer writes (made when first written). */
  writes: readonly EmulationWrite[] | null;
}

const uses = new WeakMap<KernelInfo | DeviceImage, Uses>();

/** The constants `owner` (a kernel, or an image) reads, resolved for the current attachments. */
function usesOf(program: Program, image: DeviceImage, owner: KernelInfo | DeviceImage): Uses {
  const generation = attachGeneration();
  let known = uses.get(owner);
  if (known?.generation === generation && known.program === program) return known;
  const ids =
    owner === image ? Object.keys(image.specConstants) : (owner as KernelInfo).specConstants;
  known = {
    generation,
    program,
    list: ids.map((symbolicId) => resolveUse(program, image, owner, symbolicId)),
    defaultsKey: null,
    combined: [],
    parts: new Array<KeyedValue>(ids.length),
    writes: null,
  };
  uses.set(owner, known);
  return known;
}

function resolveUse(
  program: Program,
  image: DeviceImage,
  owner: KernelInfo | DeviceImage,
  symbolicId: SymbolicId,
): ConstantUse {
  const info = image.specConstants[symbolicId];
  if (!info) {
    throw new SyclError(
      errc.build,
      `device image ${image.id}: kernel ${(owner as KernelInfo).entryPoint} uses specialization constant ${symbolicId}, which the image does not declare`,
    );
  }
  const attached = declarationOf(program, symbolicId) as SpecializationId | undefined;
  const declaration = attached ? latestDeclaration(attached) : null;
  const fallback = declaration
    ? new KeyedValue(defaultOf(declaration))
    : info.defaultValue !== null
      ? new KeyedValue(canonicalize(info.type, info.defaultValue))
      : null;
  return { symbolicId, info, declaration, fallback };
}

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
  const known = usesOf(program, image, kernel);
  if (values.size > 0) return keyOf(known, values);
  known.defaultsKey ??= keyOf(known, values);
  return known.defaultsKey;
}

const COMBINED_KEYS_PER_KERNEL = 16;

function keyOf(known: Uses, values: SpecValues): string {
  const { list, parts } = known;
  if (list.length === 1) return values.entryOf(list[0]!).key;
  for (let i = 0; i < list.length; i++) parts[i] = values.entryOf(list[i]!);
  // The same values as a recent launch (compared by identity: a value set again is the same
  // interned object) get the same string back: no concatenation, and the pipeline look-ups
  // that follow hash a string whose hash is already known.
  const recent = known.combined;
  search: for (const combined of recent) {
    for (let i = 0; i < parts.length; i++) if (combined.parts[i] !== parts[i]) continue search;
    return combined.key;
  }
  const key = parts.map((part) => `${part.key};`).join('');
  if (recent.length >= COMBINED_KEYS_PER_KERNEL) recent.shift();
  recent.push({ parts: [...parts], key });
  return key;
}

/** The pipeline constants of a kernel's native pipeline for these values (made when one is created). */
export function nativeConstants(
  program: Program,
  image: DeviceImage,
  kernel: KernelInfo,
  values: SpecValues,
): NativeConstants {
  const pairs: [number, ScalarValue][] = [];
  for (const use of usesOf(program, image, kernel).list) {
    const value = values.valueOf(use);
    const folded = foldedLeaves(use.info);
    for (const leaf of use.info.leaves) {
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
  const known = usesOf(program, image, image);
  known.writes ??= known.list.map(emulationWrite);
  for (const { use, offsets, scalars, paths } of known.writes) {
    const value = values.valueOf(use);
    if (paths === null) {
      // A scalar, or a list of scalars whose leaf i is element i (the common shapes).
      const list = value as readonly ScalarValue[];
      for (let i = 0; i < offsets.length; i++) {
        writeScalar(
          view,
          at + offsets[i]!,
          scalars[i]!,
          typeof value === 'object' ? list[i]! : value,
        );
      }
    } else {
      for (let i = 0; i < offsets.length; i++) {
        writeScalar(view, at + offsets[i]!, scalars[i]!, leafAt(value, paths[i]!));
      }
    }
  }
}

/** How one constant's leaves are written into the emulation buffer. */
interface EmulationWrite {
  readonly use: ConstantUse;
  /** Each leaf's byte offset in the emulation buffer. */
  readonly offsets: readonly number[];
  readonly scalars: readonly ScalarName[];
  /** Each leaf's path in the value; null when leaf i is the value itself or its element i. */
  readonly paths: readonly (readonly (string | number)[])[] | null;
}

function emulationWrite(use: ConstantUse): EmulationWrite {
  const { leaves, emulationOffset } = use.info;
  const flat = leaves.every(
    (leaf, i) =>
      (leaves.length === 1 && leaf.path.length === 0) ||
      (leaf.path.length === 1 && leaf.path[0] === i),
  );
  return {
    use,
    offsets: leaves.map((leaf) => emulationOffset + leaf.offset),
    scalars: leaves.map((leaf) => leaf.scalar),
    paths: flat ? null : leaves.map((leaf) => leaf.path),
  };
}

/** The current value of the integer leaf `leafId` (a workgroup size given by a constant). */
export function leafValue(
  program: Program,
  image: DeviceImage,
  values: SpecValues,
  symbolicId: SymbolicId,
  leafId: number,
): number {
  const use = usesOf(program, image, image).list.find((u) => u.symbolicId === symbolicId);
  const leaf = use?.info.leaves.find((l) => l.id === leafId);
  if (!use || !leaf) {
    throw new SyclError(
      errc.build,
      `device image ${image.id}: a size refers to leaf ${leafId} of ${symbolicId}, which the image does not declare`,
    );
  }
  return Number(leafAt(values.valueOf(use), leaf.path));
}
