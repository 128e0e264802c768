import { errc, SyclError } from '../errors.js';
import type { DawnToggles } from './device-features.js';

/** How to pick a WebGPU adapter. Each field defaults to an environment variable, then to auto. */
export interface AdapterRequest {
  /** 'hardware' wants a GPU, 'software' wants SwiftShader (Node only); 'auto' tries hardware first. Env: SYCLTS_ADAPTER. */
  readonly kind?: AdapterKind;
  /** Dawn backend in Node ('vulkan', 'metal', 'd3d12', ...). Env: SYCLTS_BACKEND. */
  readonly backend?: string;
  readonly powerPreference?: 'low-power' | 'high-performance';
  /**
   * WebGPU features the device must have, beyond those the runtime takes whenever the adapter
   * offers them (`shader-f16`, `subgroups`, `subgroup-size-control`). An adapter without one is
   * `errc.feature_not_supported`.
   */
  readonly requiredFeatures?: readonly string[];
  /**
   * Dawn toggles for the adapter and its device (Node only; browsers have none, so there they
   * change nothing). None by default. `{ enable: ['vulkan_enable_f16_on_nvidia'] }` lets an
   * NVIDIA GPU offer `shader-f16` through Vulkan.
   */
  readonly dawnToggles?: DawnToggles;
}

export type AdapterKind = 'auto' | 'hardware' | 'software';

export interface ChosenAdapter {
  readonly adapter: GPUAdapter;
  /** One line for logs: vendor, architecture, description, and whether it is a software adapter. */
  readonly description: string;
}

export function describeAdapter(adapter: GPUAdapter): string {
  const { vendor, architecture, description } = adapter.info;
  const name = [vendor, architecture].filter(Boolean).join(' ') || 'unknown adapter';
  return description ? `${name} (${description})` : name;
}

export function parseAdapterKind(value: string | undefined, source: string): AdapterKind {
  if (value === undefined || value === '') return 'auto';
  if (value === 'auto' || value === 'hardware' || value === 'software') return value;
  throw new SyclError(
    errc.platform,
    `Queue.create: ${source} must be 'auto', 'hardware' or 'software', got '${value}'`,
  );
}
