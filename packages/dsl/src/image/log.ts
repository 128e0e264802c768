/**
 * `console.log` in device code: the log buffer's layout and the text of its records, shared by
 * the build (which writes the formats into the image and the WGSL that fills the buffer), the
 * runtime (which reads it back) and the reference interpreter (which records the same lines).
 *
 * The buffer is `LOG_BUFFER_HEAD` words, the cursor (words reserved so far) and the count of
 * lines that did not fit, then the records: a record is the format's index, the item's global id
 * in WGSL order (x, y, z) and each value's words. An item reserves its record's words with an
 * atomic add on the cursor and writes them only if they fit; the first word of the record that
 * crosses the end is written too, so the records before the end can be walked.
 */
import { f16Round } from '../abi/scalars.js';
import type { SourceLocation } from './program.js';

/** Values one line carries at most, in 32-bit words (a vec4 takes 4). */
export const LOG_MAX_WORDS = 32;
/** Words of a record before its values: the format's index and the global id x, y, z. */
export const LOG_RECORD_HEAD = 4;
/** Words of the buffer before its records: the cursor and the count of lines lost. */
export const LOG_BUFFER_HEAD = 2;
/** The log buffer's size when the queue is not given one: 1 MiB. */
export const DEFAULT_LOG_BUFFER_SIZE = 1 << 20;

export type LogScalar = 'i32' | 'u32' | 'f32' | 'f16' | 'bool';

/** A printed value's type: a scalar (`size` 1) or a vector. f16 values travel as f32. */
export interface LogValueType {
  readonly scalar: LogScalar;
  readonly size: 1 | 2 | 3 | 4;
}

/** One `console.log` call of the image: where it is, its text around the values, the values' types. */
export interface LogFormat {
  readonly source: SourceLocation;
  /** One more than `args`: the text before each value and after the last. */
  readonly parts: readonly string[];
  readonly args: readonly LogValueType[];
}

/** Words of one record of `format`. */
export function logRecordWords(format: LogFormat): number {
  return format.args.reduce((n, a) => n + a.size, LOG_RECORD_HEAD);
}

const VECTOR_SUFFIX: Readonly<Record<LogScalar, string>> = {
  i32: 'i',
  u32: 'u',
  f32: 'f',
  f16: 'h',
  bool: '<bool>',
};

/** A float as JavaScript prints it, with the fewest digits that give back the same f32 (or f16). */
function shortestFloat(value: number, round: (x: number) => number, digits: number): string {
  if (!Number.isFinite(value) || value === 0) return Object.is(value, -0) ? '-0' : String(value);
  for (let p = 1; p < digits; p++) {
    const text = value.toPrecision(p);
    if (round(Number(text)) === value) return String(Number(text));
  }
  return String(value);
}

/** One scalar of a record, as JavaScript's console.log prints it. */
export function logScalarText(scalar: LogScalar, word: number): string {
  switch (scalar) {
    case 'i32':
      return String(word | 0);
    case 'u32':
      return String(word >>> 0);
    case 'bool':
      return String(word !== 0);
    case 'f32':
    case 'f16': {
      const bits = new DataView(new ArrayBuffer(4));
      bits.setUint32(0, word >>> 0);
      const value = bits.getFloat32(0);
      return scalar === 'f32'
        ? shortestFloat(value, Math.fround, 10)
        : shortestFloat(value, f16Round, 6);
    }
  }
}

/** The text of the record at `at` of `words` (without its place and item). */
export function logRecordText(
  format: LogFormat,
  words: Uint32Array | readonly number[],
  at: number,
): string {
  let next = at + LOG_RECORD_HEAD;
  let text = format.parts[0]!;
  format.args.forEach((arg, i) => {
    const values = Array.from({ length: arg.size }, () =>
      logScalarText(arg.scalar, words[next++]!),
    );
    text +=
      arg.size === 1
        ? values[0]
        : `vec${arg.size}${VECTOR_SUFFIX[arg.scalar]}(${values.join(', ')})`;
    text += format.parts[i + 1]!;
  });
  return text;
}
