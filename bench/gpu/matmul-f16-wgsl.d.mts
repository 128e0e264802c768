/** Types of matmul-f16-wgsl.mjs, for the suite's TypeScript. */
export interface MatmulF16Options {
  readonly BM?: number;
  readonly BN?: number;
  readonly BK?: number;
  readonly WM?: number;
  readonly WN?: number;
  readonly PAD?: number;
  readonly N?: number;
  readonly view?: boolean;
  readonly stages?: 1 | 2;
  readonly sized?: boolean;
  readonly unpack?: boolean;
  readonly regions?: boolean;
}
export function matmulF16Wgsl(options?: MatmulF16Options): {
  readonly code: string;
  workgroups(): [number, number, number];
  readonly flops: number;
};
export interface TestMatrix {
  readonly values: Float64Array<ArrayBuffer>;
  readonly bits: Uint16Array<ArrayBuffer>;
}
export function testMatrix(n: number, kind: 'int' | 'real'): TestMatrix;
export function sampledCheck(
  a: TestMatrix,
  b: TestMatrix,
  c: Float32Array,
  n: number,
  kind: 'int' | 'real',
  samples: number,
): { bad: number; worst: number; samples: number };
