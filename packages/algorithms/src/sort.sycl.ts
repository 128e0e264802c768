/**
 * Device-wide radix sort, least significant digit first: four passes of 8-bit digits, each of
 * three launches over tiles of 2048 keys:
 *
 * 1. `sortCounts`: each tile counts its keys' digits in workgroup atomics and writes the 256
 *    counts digit-major (digit d of tile t at `d * tiles + t`);
 * 2. the exclusive scan of those counts (scan.sycl.ts), which gives every (digit, tile) its first
 *    place in the output;
 * 3. `sortScatter`: each tile sorts itself by the digit in workgroup memory (eight stable 1-bit
 *    splits, each a work-group scan of the items' zero counts), then writes each key at its
 *    (digit, tile) place plus its rank among the tile's keys of that digit: runs of one digit
 *    are written together.
 *
 * Keys are u32 bits. i32 and f32 keys, and a descending order, are the same sort of the bits
 * made monotonic: `ordered` in the first pass (as it reads the caller's keys), `restored` in the
 * last (as it writes them back).
 */
import {
  accessor,
  atomic,
  atomicAdd,
  atomicLoad,
  atomicStore,
  bool,
  deviceFunction,
  exclusiveScanOverGroup,
  kernel,
  kernelHandler,
  plus,
  reduceOverGroup,
  specializationId,
  u32,
  workgroupArray,
} from '@syclts/dsl';

/** Keys per item; a tile holds 256 times as many (TILE). */
const PER_ITEM = 8;
const TILE = 2048;

/** The bits `ordered` flips in a key whose top bit is set. */
export const flipSet = specializationId(u32, 0);
/** The bits `ordered` flips in a key whose top bit is clear. */
export const flipClear = specializationId(u32, 0);
/** Whether a value moves with each key. */
export const withValues = specializationId(bool, false);

/**
 * The key as an unsigned integer that sorts in the order asked for: i32 flips the sign bit, f32
 * flips every bit of a negative number and the sign bit of another, descending flips all bits
 * more. Both masks have the same top bit, so `restored` can tell which one was applied.
 */
const ordered = deviceFunction({ args: [kernelHandler, u32], returns: u32 }, (kh, key) =>
  key >> 31 === 1
    ? key ^ kh.getSpecializationConstant(flipSet)
    : key ^ kh.getSpecializationConstant(flipClear),
);

/** The key `ordered` was given: the top bit of `key ^ flipSet` is the original's. */
const restored = deviceFunction({ args: [kernelHandler, u32], returns: u32 }, (kh, key) => {
  const set = kh.getSpecializationConstant(flipSet);
  return (key ^ set) >> 31 === 1 ? key ^ set : key ^ kh.getSpecializationConstant(flipClear);
});

/** The digit this pass sorts by; the first pass reads the caller's keys. */
const digitOf = deviceFunction(
  { args: [kernelHandler, u32, u32], returns: u32 },
  (kh, key, shift) => (shift === 0 ? (ordered(kh, key) >> shift) & 255 : (key >> shift) & 255),
);

/** The key as this pass writes it: ordered after the first pass, the caller's after the last. */
const written = deviceFunction(
  { args: [kernelHandler, u32, u32], returns: u32 },
  (kh, key, shift) => {
    if (shift === 0) {
      return ordered(kh, key);
    }
    return shift === 24 ? restored(kh, key) : key;
  },
);

export const sortCounts = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: {
      keys: accessor(u32, 'read'),
      counts: accessor(u32, 'write'),
      n: u32,
      tiles: u32,
      shift: u32,
    },
    local: { tally: workgroupArray(atomic(u32), 256) },
  },
  (item, kh, { keys, counts, n, tiles, shift }, { tally }) => {
    const l = item.getLocalId(0);
    const tile = item.getGroup(0);
    atomicStore(tally[l]!, 0);
    item.barrier();
    for (let k = u32(0); k < PER_ITEM; k++) {
      const i = tile * TILE + k * 256 + l;
      if (i < n) {
        atomicAdd(tally[digitOf(kh, keys[i]!, shift)]!, 1);
      }
    }
    item.barrier();
    counts[l * tiles + tile] = atomicLoad(tally[l]!);
  },
);

export const sortScatter = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: {
      keysIn: accessor(u32, 'read'),
      keysOut: accessor(u32, 'write'),
      valuesIn: accessor(u32, 'read'),
      valuesOut: accessor(u32, 'write'),
      offsets: accessor(u32, 'read'),
      n: u32,
      tiles: u32,
      shift: u32,
    },
    // The tile is sorted as entries `digit << 16 | index in the tile`, one word per key with or
    // without values: 8 KiB for the tile, where keys and values would take 16.
    local: { entries: workgroupArray(u32, TILE), start: workgroupArray(u32, 256) },
  },
  (item, kh, { keysIn, keysOut, valuesIn, valuesOut, offsets, n, tiles, shift }, local) => {
    const g = item.getGroup();
    const l = item.getLocalId(0);
    const tile = item.getGroup(0);
    const base = tile * TILE;
    const valid = Math.min(TILE, n - base);
    for (let k = u32(0); k < PER_ITEM; k++) {
      const p = k * 256 + l;
      // Places past n take the largest digit: being last in the tile, they stay after every key.
      const digit = p < valid ? digitOf(kh, keysIn[base + p]!, shift) : 255;
      local.entries[p] = (digit << 16) | p;
    }
    // Item l splits the entries PER_ITEM * l and the seven after it, in order.
    const mine = [u32(0), u32(0), u32(0), u32(0), u32(0), u32(0), u32(0), u32(0)];
    for (let bit = u32(16); bit < 24; bit++) {
      item.barrier();
      let zeros = u32(0);
      for (let j = u32(0); j < PER_ITEM; j++) {
        mine[j] = local.entries[PER_ITEM * l + j]!;
        zeros += 1 - ((mine[j]! >> bit) & 1);
      }
      // Every item has read its entries before any is moved.
      item.barrier();
      let zeroAt = exclusiveScanOverGroup(g, zeros, plus);
      let oneAt = reduceOverGroup(g, zeros, plus) + PER_ITEM * l - zeroAt;
      for (let j = u32(0); j < PER_ITEM; j++) {
        const e = mine[j]!;
        if (((e >> bit) & 1) === 0) {
          local.entries[zeroAt] = e;
          zeroAt++;
        } else {
          local.entries[oneAt] = e;
          oneAt++;
        }
      }
    }
    item.barrier();
    for (let k = u32(0); k < PER_ITEM; k++) {
      const q = k * 256 + l;
      const d = local.entries[q]! >> 16;
      if (q < valid && (q === 0 || local.entries[q - 1]! >> 16 !== d)) {
        local.start[d] = q;
      }
    }
    item.barrier();
    const values = kh.getSpecializationConstant(withValues);
    for (let k = u32(0); k < PER_ITEM; k++) {
      const q = k * 256 + l;
      if (q < valid) {
        const e = local.entries[q]!;
        const d = e >> 16;
        const from = base + (e & 0xffff);
        const to = offsets[d * tiles + tile]! + q - local.start[d]!;
        keysOut[to] = written(kh, keysIn[from]!, shift);
        if (values) {
          valuesOut[to] = valuesIn[from]!;
        }
      }
    }
  },
);
