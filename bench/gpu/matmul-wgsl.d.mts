/** Types of matmul-wgsl.mjs, for the suite's TypeScript. */
export interface MatmulOptions {
  readonly BM?: number;
  readonly BN?: number;
  readonly BK?: number;
  readonly TM?: number;
  readonly TN?: number;
  readonly n?: 'literal' | 'override' | 'uniform';
  readonly N?: number;
}
export function matmulWgsl(options?: MatmulOptions): {
  readonly code: string;
  workgroups(N: number): [number, number, number];
  readonly threads: number;
};
