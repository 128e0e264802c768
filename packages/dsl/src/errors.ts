/** SYCL 2020 error codes (`sycl::errc`), as strings so they read well in messages and logs. */
export const errc = Object.freeze({
  runtime: 'runtime',
  kernel: 'kernel',
  accessor: 'accessor',
  ndRange: 'nd_range',
  event: 'event',
  kernelArgument: 'kernel_argument',
  build: 'build',
  invalid: 'invalid',
  memoryAllocation: 'memory_allocation',
  platform: 'platform',
  profiling: 'profiling',
  featureNotSupported: 'feature_not_supported',
  kernelNotSupported: 'kernel_not_supported',
  backendMismatch: 'backend_mismatch',
} as const);

export type Errc = (typeof errc)[keyof typeof errc];

/** `sycl::exception`: every error the runtime and the DSL's host objects raise carries one of the `errc` codes. */
export class SyclError extends Error {
  readonly errc: Errc;
  constructor(code: Errc, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SyclError';
    this.errc = code;
  }
}
