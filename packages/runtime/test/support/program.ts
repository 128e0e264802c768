/**
 * Hand-written device images that follow the link/emit conventions (docs/device-images.md):
 * `launch` uniform with globalRange at 0, groupOffset at 16 and value arguments from 32, the
 * bounds guard of basic kernels, `@id(n) override` leaves natively, an emulation struct
 * otherwise. Tests build Programs from these until compiled ones are the norm.
 */
import {
  attach,
  type BindingInfo,
  type DataType,
  type DeviceGlobalInfo,
  type DeviceImage,
  type KernelInfo,
  type LaunchField,
  PROGRAM_FORMAT_VERSION,
  type Program,
  type SpecConstantInfo,
  type SpecConstantLeaf,
  type SymbolicId,
  u32,
  vec,
} from '@syclts/dsl';

const uvec3 = vec(u32, 3);

/** The `launch` binding with optional value-argument fields. */
export function launchBinding(
  binding: number,
  args: readonly { name: string; type: DataType; offset: number }[] = [],
  size = 32,
  records: number | null = null,
  slotted = false,
): BindingInfo {
  const fields: LaunchField[] = [
    { role: 'globalRange', name: 'globalRange', type: uvec3, offset: 0 },
    ...(slotted ? [{ role: 'slotMode' as const, name: 'slotMode', type: u32, offset: 12 }] : []),
    { role: 'groupOffset', name: 'groupOffset', type: uvec3, offset: 16 },
    ...args.map((a) => ({ role: 'arg' as const, ...a })),
  ];
  return { group: 0, binding, kind: 'launch', size, fields, records };
}

export function accessorBinding(
  binding: number,
  arg: string,
  element: DataType,
  access: 'read' | 'write' | 'read_write',
): BindingInfo {
  return { group: 0, binding, kind: 'accessor', arg, access, element };
}

/**
 * WGSL of the `launch` struct and variable; `args` are extra members (the first needs
 * @align(16)); `slotted` adds the slot mode of kernels that take a launch slot.
 */
export function launchWgsl(binding: number, args = '', slotted = false): string {
  return `struct Launch { globalRange: vec3<u32>, ${slotted ? 'slotMode: u32, ' : ''}groupOffset: vec3<u32>, ${args} }
@group(0) @binding(${binding}) var<uniform> launch: Launch;`;
}

/** A basic 1-D kernel entry point of workgroup size 64 with the conventions' guard; `body` sees `i`. */
export function basic1d(entryPoint: string, body: string): string {
  return `@compute @workgroup_size(64, 1, 1)
fn ${entryPoint}(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let gid = (wid + launch.groupOffset) * vec3<u32>(64u, 1u, 1u) + lid;
  if (any(gid >= launch.globalRange)) { return; }
  let i = gid.x;
  ${body}
}`;
}

/** WGSL of the launch-slot buffer at `binding` and the workgroup variable that shares the slot. */
export function launchSlotsWgsl(binding: number): string {
  return `struct LaunchSlots { next: atomic<u32>, table: array<u32> }
@group(0) @binding(${binding}) var<storage, read_write> launch_slots: LaunchSlots;
var<workgroup> launch_slot: u32;`;
}

/** As basic1d, taking the launch slot first: `body` sees `slot` as well. */
export function slotted1d(entryPoint: string, body: string): string {
  return `@compute @workgroup_size(64, 1, 1)
fn ${entryPoint}(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) lindex: u32) {
  var slot = 0u;
  if (launch.slotMode != 0u) {
    if (lindex == 0u) { launch_slot = launch_slots.table[atomicAdd(&launch_slots.next, 1u)]; }
    slot = workgroupUniformLoad(&launch_slot);
  }
  let gid = (wid + launch.groupOffset) * vec3<u32>(64u, 1u, 1u) + lid;
  if (any(gid >= launch.globalRange)) { return; }
  let i = gid.x;
  ${body}
}`;
}

export function literalWorkgroup(x: number, y = 1, z = 1): KernelInfo['workgroupSize'] {
  return [
    { kind: 'literal', value: x },
    { kind: 'literal', value: y },
    { kind: 'literal', value: z },
  ];
}

export function kernelInfo(
  info: Partial<KernelInfo> & Pick<KernelInfo, 'entryPoint' | 'bindings'>,
): KernelInfo {
  return {
    dimensions: 1,
    ndRange: false,
    workgroupSize: literalWorkgroup(64),
    workgroupMemory: { kind: 'literal', bytes: 0 },
    specConstants: [],
    deviceGlobals: [],
    variants: ['native', 'emulated'],
    launchSlots: [],
    source: { module: 'src/hand-written.sycl.ts', line: 1, column: 1 },
    ...info,
  };
}

export function scalarLeaf(
  id: number,
  scalar: SpecConstantLeaf['scalar'],
  offset = 0,
  path: SpecConstantLeaf['path'] = [],
): SpecConstantLeaf {
  return { id, offset, size: scalar === 'f16' ? 2 : 4, scalar, path };
}

export function specConstant(
  type: DataType,
  leaves: readonly SpecConstantLeaf[],
  defaultValue: SpecConstantInfo['defaultValue'],
  emulationOffset = 0,
): SpecConstantInfo {
  return { type, leaves, defaultValue, emulationOffset };
}

/** A device global at `offset` of its buffer (the image's, with deviceImageScope). */
export function deviceGlobalInfo(
  type: DataType,
  size: number,
  offset: number,
  options: Partial<DeviceGlobalInfo> = {},
): DeviceGlobalInfo {
  return {
    type,
    size,
    offset,
    deviceImageScope: false,
    hostAccess: 'read_write',
    initMode: null,
    implementInCsr: false,
    initialValue: null,
    ...options,
  };
}

export function image(
  partial: Partial<DeviceImage> & Pick<DeviceImage, 'id' | 'wgsl' | 'kernels'>,
): DeviceImage {
  return {
    specConstants: {},
    emulation: null,
    launchSlots: null,
    deviceGlobals: {},
    imageGlobalsSize: 0,
    ...partial,
  };
}

export function program(images: readonly DeviceImage[]): Program {
  return { version: PROGRAM_FORMAT_VERSION, images, programGlobals: { size: 0, globals: {} } };
}

/** What the integration footer does: records each host object's symbolic ID and program. */
export function attachAll(p: Program, declarations: Record<SymbolicId, object>): void {
  attach(
    p,
    Object.entries(declarations).map(([id, declaration]) => [declaration, id] as const),
  );
}
