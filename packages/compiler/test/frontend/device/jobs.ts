/** What the device check runs: a program, its launches, and the results each must produce. */
import type { JsonValue, Program } from '@syclts/dsl';

export interface Job {
  readonly name: string;
  /** A device feature the job needs; without it the job is reported as not run. */
  readonly requires?: GPUFeatureName;
  readonly kernel: string;
  readonly range: readonly number[];
  /** Accessor contents as [typed array kind, values]; value arguments as host values. */
  readonly accessors: Readonly<
    Record<string, readonly ['f32' | 'i32' | 'u32' | 'f16bits', readonly number[]]>
  >;
  readonly values: Readonly<Record<string, JsonValue>>;
  /** The accessor read back and compared, as u32 words (f32 compared within `tolerance[i]`). */
  readonly output: string;
  readonly expected: readonly number[];
  /**
   * Per word: null for exact comparison of the u32 bits, else the absolute f32 tolerance
   * (Infinity: any value, for a word whose case the inputs make fragile).
   */
  readonly tolerance: readonly (number | null)[];
}

export interface JobFile {
  readonly program: Program;
  readonly jobs: readonly Job[];
}
