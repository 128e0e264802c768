/**
 * What a caller adds to the device `Queue.create` requests: WebGPU features it must have, and in
 * Node Dawn's toggles, the switches behind which Dawn keeps some features (on NVIDIA through
 * Vulkan, `shader-f16`).
 */
import { errc, SyclError } from '../errors.js';

/**
 * Dawn toggles by name, as Dawn spells them (snake_case): switched on, or off. Node only: a
 * browser's Dawn takes its toggles from the browser's own flags, so there they change nothing.
 */
export interface DawnToggles {
  readonly enable?: readonly string[];
  readonly disable?: readonly string[];
}

const TOGGLE_NAME = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;

/** `dawnToggles` as given, checked: names Dawn could hold, none both enabled and disabled. */
export function checkDawnToggles(value: unknown): Required<DawnToggles> {
  if (value === undefined) return { enable: [], disable: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SyclError(
      errc.invalid,
      `Queue.create: dawnToggles must be an object { enable?, disable? } of toggle name lists, got ${describe(value)}`,
    );
  }
  for (const key of Object.keys(value)) {
    if (key !== 'enable' && key !== 'disable') {
      throw new SyclError(
        errc.invalid,
        `Queue.create: dawnToggles takes 'enable' and 'disable', not '${key}'`,
      );
    }
  }
  const { enable, disable } = value as DawnToggles;
  const toggles = { enable: toggleList('enable', enable), disable: toggleList('disable', disable) };
  const both = toggles.enable.find((name) => toggles.disable.includes(name));
  if (both !== undefined) {
    throw new SyclError(
      errc.invalid,
      `Queue.create: dawnToggles both enables and disables '${both}'`,
    );
  }
  return toggles;
}

function toggleList(key: 'enable' | 'disable', list: unknown): readonly string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    throw new SyclError(
      errc.invalid,
      `Queue.create: dawnToggles.${key} must be an array of toggle names, got ${describe(list)}`,
    );
  }
  list.forEach((name: unknown, i) => {
    // Dawn takes the names joined by commas: a name that is not snake_case could smuggle in others.
    if (typeof name !== 'string' || !TOGGLE_NAME.test(name)) {
      throw new SyclError(
        errc.invalid,
        `Queue.create: dawnToggles.${key}[${i}] must be a Dawn toggle name in snake_case such as 'allow_unsafe_apis', got ${describe(name)}`,
      );
    }
  });
  return list as string[];
}

/**
 * `required` checked against `features`: `feature_not_supported` naming the first one missing
 * (a misspelled name too). Kept short: browsers ship it.
 */
export function requireFeatures(
  features: ReadonlySet<string>,
  required: readonly string[] = [],
  where: string,
): void {
  const missing = required.find((name) => !features.has(name));
  if (missing === undefined) return;
  throw new SyclError(
    errc.featureNotSupported,
    `Queue.create: ${where} does not offer the WebGPU feature '${missing}' that requiredFeatures asks for`,
  );
}

/** `requiredFeatures` as given, checked (Node; in browsers the types are the check). */
export function checkRequiredFeatures(value: unknown): readonly string[] {
  if (value === undefined || Array.isArray(value)) return value ?? [];
  throw new SyclError(
    errc.invalid,
    `Queue.create: requiredFeatures must be an array of WebGPU feature names, got ${describe(value)}`,
  );
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' && value !== null ? 'an object' : String(value);
}
