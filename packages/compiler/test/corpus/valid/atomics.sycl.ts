import {
  accessor,
  atomic,
  atomicAdd,
  atomicCompareExchangeWeak,
  atomicExchange,
  atomicMax,
  atomicMin,
  atomicOr,
  atomicStore,
  atomicSub,
  i32,
  kernel,
  u32,
} from '@syclts/dsl';

/** A histogram over an atomic accessor. */
export const histogram = kernel(
  {
    range: 1,
    args: {
      values: accessor(u32, 'read'),
      bins: accessor(atomic(u32), 'read_write'),
      binCount: u32,
    },
  },
  (item, _kh, { values, bins, binCount }) => {
    const i = item.getId(0);
    atomicAdd(bins[values[i]! % binCount]!, 1);
  },
);

/** Min, max, or, sub, exchange and compare-exchange on i32 atomics. */
export const extremes = kernel(
  { range: 1, args: { values: accessor(i32, 'read'), acc: accessor(atomic(i32), 'read_write') } },
  (item, _kh, { values, acc }) => {
    const i = item.getId(0);
    const v = values[i]!;
    atomicMax(acc[0]!, v);
    atomicMin(acc[1]!, v);
    atomicOr(acc[2]!, v & 0xff);
    atomicSub(acc[3]!, 1);
    if (i === 0) {
      atomicStore(acc[4]!, 5);
    }
    let done = false;
    while (!done) {
      const old = atomicExchange(acc[5]!, 0) + 0;
      const r = atomicCompareExchangeWeak(acc[6]!, i32(i), i32(i) + 1);
      done = r.exchanged || r.old_value !== i32(i) || old !== 12345;
    }
  },
);

export const one = u32(1);
