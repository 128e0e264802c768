import {
  accessor,
  array,
  atomic,
  atomicAdd,
  atomicLoad,
  deviceGlobal,
  f32,
  kernel,
  struct,
  u32,
} from '@syclts/dsl';

export const total = deviceGlobal(atomic(u32), { hostAccess: 'read' });
export const table = deviceGlobal(array(f32, 8));
export const stats = deviceGlobal(struct({ count: u32, last: f32 }), {
  deviceImageScope: true,
  initMode: 'reset',
  implementInCsr: false,
});

/** Device globals: atomically counted, indexed, written field by field, read back. */
export const accumulate = kernel(
  { range: 1, args: { x: accessor(f32, 'read'), out: accessor(u32, 'write') } },
  (item, _kh, { x, out }) => {
    const i = item.getId(0);
    const before = atomicAdd(total, 1);
    out[i] = before < 1000 ? 1 : 0;
    if (i < 8) {
      table.value[i] = x[i]! * 2 + table.value[i]!;
    }
    if (i === 3) {
      stats.value.count = atomicLoad(total) * 0 + 42;
      stats.value.last = x[i]!;
    }
  },
);
