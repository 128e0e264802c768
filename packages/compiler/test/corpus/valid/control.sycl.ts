import { accessor, i32, kernel, u32 } from '@syclts/dsl';

/** Collatz steps: while, if/else, break; the counter type follows the bound. */
export const collatz = kernel(
  { range: 1, args: { seeds: accessor(u32, 'read'), steps: accessor(u32, 'write'), limit: u32 } },
  (item, _kh, { seeds, steps, limit }) => {
    const i = item.getId(0);
    let n = seeds[i]!;
    let count = u32(0);
    while (n !== 1) {
      if (count >= limit) {
        break;
      }
      if (n % 2 === 0) {
        n = n / 2;
      } else {
        n = 3 * n + 1;
      }
      count += 1;
    }
    steps[i] = count;
  },
);

/** Nested for loops with continue and an early return. */
export const loops = kernel(
  { range: 1, args: { out: accessor(i32, 'write'), n: u32 } },
  (item, _kh, { out, n }) => {
    const i = item.getId(0);
    if (i >= n) {
      return;
    }
    let sum = 0;
    for (let a = 0; a < 10; a++) {
      if (a % 3 === 1) {
        continue;
      }
      for (let b = u32(0); b <= i; b++) {
        sum += a * i32(b);
      }
    }
    out[i] = sum;
  },
);

/** Logical operators, comparisons and nested ternaries. */
export const logic = kernel(
  { range: 1, args: { a: accessor(i32, 'read'), out: accessor(i32, 'write') } },
  (item, _kh, { a, out }) => {
    const i = item.getId(0);
    const x = a[i]!;
    const positive = x > 0;
    const even = (x & 1) === 0;
    const big = x >= 100 || x <= -100;
    out[i] = positive && even ? 1 : !positive && !even ? 2 : big ? 3 : x !== 7 ? 4 : 5;
  },
);
