import { accessor, array, f32, kernel, struct, u32 } from '@syclts/dsl';

const N = 5;

/** Local array literals, dynamic indexing, element writes on a const (which becomes a var). */
export const localArrays = kernel(
  { range: 1, args: { out: accessor(f32, 'write') } },
  (item, _kh, { out }) => {
    const i = item.getId(0);
    const weights = [0.5, 1.5, 2.5, 3.5, 4.5];
    const acc = [f32(0), 0, 0];
    for (let k = 0; k < N; k++) {
      acc[k % 3]! += weights[k]! * f32(i);
    }
    weights[i % 5] = -1;
    out[i] = acc[0]! + acc[1]! * 10 + acc[2]! * 100 + weights[2]! + f32(weights.length);
  },
);

/** Arrays of arrays and `.length` of an accessor. */
export const arrayOfArrays = kernel(
  { range: 1, args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => {
    const i = item.getId(0);
    const table = [
      [u32(1), 2, 3],
      [4, 5, 6],
    ];
    table[1]![i % 3] = i;
    out[i] = table[0]![i % 3]! + table[1]![(i + 1) % 3]! * 100 + out.length * 10000;
  },
);

/** A fixed-size array value argument is not allowed in the launch uniform; a typed alias of one in a device global is. */
export const Lut = array(u32, 4);

const PRIMES = [2, 3, 5, 7, 11];
const WEIGHTS = [0.5, 0.25, 0.125];
const Pair = struct({ lo: u32, hi: u32 });
const RANGE = { lo: 10, hi: 20 };

/** Top-level constant arrays and objects used in device code. */
export const constantTables = kernel(
  { range: 1, args: { out: accessor(f32, 'write') } },
  (item, _kh, { out }) => {
    const i = item.getId(0);
    const range = Pair(RANGE);
    const p = PRIMES[i % 5]!;
    out[i] = f32(p * 100) + WEIGHTS[i % 3]! + f32(range.hi - range.lo) + f32(PRIMES.length);
  },
);
