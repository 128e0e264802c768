import { accessor, i32, kernel, u32 } from '@syclts/dsl';

/** i32 arithmetic wraps; division truncates; shifts take u32 amounts. */
export const intOps = kernel(
  {
    range: 1,
    args: { a: accessor(i32, 'read'), b: accessor(i32, 'read'), out: accessor(i32, 'write') },
  },
  (item, _kh, { a, b, out }) => {
    const i = item.getId(0);
    const x = a[i]!;
    const y = b[i]!;
    const base = i * 8;
    out[base] = x + y * 3;
    out[base + 1] = x * y;
    out[base + 2] = x / (y | 1);
    out[base + 3] = x % (y | 1);
    out[base + 4] = (x << 3) ^ (y >> 2);
    out[base + 5] = ~x & (y | 0xff);
    out[base + 6] = -x - 2147483647;
    out[base + 7] = x >> u32(y & 31);
  },
);

/** u32 arithmetic, including the logical shift `>>>` and compound assignments. */
export const uintOps = kernel(
  { range: 1, args: { a: accessor(u32, 'read'), out: accessor(u32, 'write'), salt: u32 } },
  (item, _kh, { a, out, salt }) => {
    const i = item.getId(0);
    let h = a[i]! ^ salt;
    h *= 2654435761;
    h ^= h >>> 16;
    h += 0x9e3779b9;
    h -= i;
    h <<= 1;
    h |= 1;
    h %= 1000003;
    out[i] = h;
  },
);

/** Increments and decrements on integers and floats. */
export const increments = kernel(
  { range: 1, args: { out: accessor(i32, 'write') } },
  (item, _kh, { out }) => {
    const i = item.getId(0);
    let n = i32(i);
    n++;
    n++;
    ++n;
    n--;
    let f = 0.5;
    f++;
    out[i] = n * 10 + i32(f * 2);
  },
);
