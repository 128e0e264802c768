/**
 * The `launch` uniform every kernel with a range or value arguments binds: where its fields sit.
 * The compiler lays the kernel's value arguments out from `args`; the runtime writes them from
 * the `LaunchField`s of the image, which carry these offsets.
 */
export const LAUNCH_UNIFORM = {
  /** vec3<u32>: the global range in WGSL component order. */
  globalRange: 0,
  /** u32, in kernels that take a launch slot: 1 when the slot comes from the slot table. */
  slotMode: 12,
  /** vec3<u32>: the workgroup-id offset of this dispatch of a split launch. */
  groupOffset: 16,
  /** Where the value arguments start (uniform layout). */
  args: 32,
} as const;
