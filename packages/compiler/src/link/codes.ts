/** Diagnostic codes of the link step (SYCL2xxx). Stable: docs and tests refer to them. */
export const LinkCode = {
  /** A `deviceImageScope` global is used by kernels of more than one device image. */
  deviceImageScope: 'SYCL2001',
  /** Emulated specialization constants cannot size a workgroup. */
  emulatedWorkgroupSize: 'SYCL2002',
  /** Emulated specialization constants cannot size a workgroup array. */
  emulatedWorkgroupArray: 'SYCL2003',
  /** A reference names nothing the link step knows. */
  unresolved: 'SYCL2004',
  /** A reference names a declaration of the wrong kind. */
  wrongKind: 'SYCL2005',
  /** A type that cannot live where it is used (bool in storage, uniform layout rules). */
  unsupportedType: 'SYCL2006',
  /** A workgroup size or array length that is neither a literal nor built from integer specialization constants. */
  invalidSize: 'SYCL2007',
  /** Device functions call each other recursively (WGSL has no recursion). */
  recursion: 'SYCL2008',
  /** Native composite specialization constants exceed WGSL's private memory or array constructor length. */
  privateMemory: 'SYCL2009',
  /** More specialization constant leaves in one image than `@id` values. */
  overrideIds: 'SYCL2010',
  /** A barrier, or a call that reaches one, under control flow that varies between items. */
  nonUniformBarrier: 'SYCL2020',
  /** A kernel needs more of a WebGPU limit than the default (or than its requiredLimits declare). */
  kernelLimit: 'SYCL2021',
  /** A device global, or the buffer of globals it is in, past WebGPU's default binding size. */
  globalSize: 'SYCL2022',
  /** A device function at WGSL's parameter limit that the emulated variant gives a launch slot. */
  slotParameter: 'SYCL2023',
  /** A call whose arguments or result do not match the callee's declaration as linked. */
  callMismatch: 'SYCL2026',
} as const satisfies Record<string, `SYCL2${string}`>;
