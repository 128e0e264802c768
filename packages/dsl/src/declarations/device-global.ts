import type { DeviceValue } from '../device/values.js';
import { errc, SyclError } from '../errors.js';
import type { DataType } from '../types/data-type.js';
import type { InitialValue } from '../types/initial-value.js';

/** `sycl_ext_oneapi_device_global` properties. */
export type HostAccess = 'read' | 'write' | 'read_write' | 'none';
export type InitMode = 'reprogram' | 'reset';

export interface DeviceGlobalProperties<A extends HostAccess = HostAccess> {
  /** Storage belongs to the one device image that uses the global (an error if several do). */
  readonly deviceImageScope?: boolean;
  /** What the host may do through `copy`/`memcpy`; default 'read_write'. */
  readonly hostAccess?: A;
  /** Recorded in the property set; WebGPU images are never reprogrammed, so both behave alike. */
  readonly initMode?: InitMode;
  /** Recorded in the property set. */
  readonly implementInCsr?: boolean;
}

export interface ResolvedDeviceGlobalProperties<A extends HostAccess = HostAccess> {
  readonly deviceImageScope: boolean;
  readonly hostAccess: A;
  readonly initMode: InitMode | null;
  readonly implementInCsr: boolean;
}

export interface DeviceGlobal<T extends DataType = DataType, A extends HostAccess = HostAccess> {
  readonly declaration: 'deviceGlobal';
  readonly type: T;
  readonly properties: ResolvedDeviceGlobalProperties<A>;
  /**
   * Device code only: the global's storage, read, written and indexed in kernels and device
   * functions (`counter.value += 1`, `table.value[i]`). On the host it throws: copy through
   * the queue instead.
   */
  value: DeviceValue<T>;
}

/**
 * Declares a device global. `initialValue` (C++'s `device_global<int> g{3}`) must be a constant
 * expression, folded at build time; trailing array elements and struct fields left out are zero,
 * and so is a global without one.
 */
export function deviceGlobal<T extends DataType, A extends HostAccess = 'read_write'>(
  type: T,
  properties: DeviceGlobalProperties<A> = {},
  initialValue?: InitialValue<T>,
): DeviceGlobal<T, A> {
  void initialValue;
  const global = {
    declaration: 'deviceGlobal' as const,
    type,
    properties: Object.freeze({
      deviceImageScope: properties.deviceImageScope ?? false,
      hostAccess: properties.hostAccess ?? ('read_write' as A),
      initMode: properties.initMode ?? null,
      implementInCsr: properties.implementInCsr ?? false,
    }),
  };
  const deviceOnly = (): never => {
    throw new SyclError(
      errc.invalid,
      'deviceGlobal(...).value exists in device code only; on the host, use queue.copy/memcpy',
    );
  };
  Object.defineProperty(global, 'value', { get: deviceOnly, set: deviceOnly, enumerable: false });
  return Object.freeze(global) as DeviceGlobal<T, A>;
}
