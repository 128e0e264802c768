/**
 * Device-wide exclusive and inclusive scan in one pass: a chained scan with decoupled look-back
 * (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016) and
 * the decoupled fallback (Smith, Levien and Owens, "Decoupled Fallback: A Portable Single-Pass
 * GPU Scan", SPAA 2025), which keeps it correct without forward-progress guarantees: WebGPU
 * gives none, and a work-group that spins on another that was never scheduled would hang.
 *
 * - Each work-group takes a tile of 8192 elements in the order of an `atomicAdd` ticket (not of
 *   its group id: ordered by id, a tile can wait on one that has not started).
 * - It scans the tile, publishes its reduction, then looks back over its predecessors' published
 *   values until one holds an inclusive prefix, combining reductions on the way.
 * - A value is published as two 16-bit halves, each beside a 2-bit state (1: reduction, 2:
 *   inclusive prefix) in one u32 written with `atomicMax`, so a state never goes back and two
 *   writers of one state write the same value. A reader takes a value only when both halves
 *   have the same state.
 * - Fallback: when a predecessor stays "not ready" for `spin` reads, the work-group reduces that
 *   tile from the input itself, combining in the same order as its owner (the same bits, f32
 *   too), publishes the reduction and goes on looking back. No work-group ever waits on
 *   another's progress.
 *
 * Values are 32-bit elements as u32 bits, combined by `combine` (operation.sycl.ts); `id` is the
 * operation's identity, `init` what the scan starts from. The buffers are read and written as
 * `vec4<u32>` (views of their whole allocation, which the runtime rounds up to 16 bytes), and
 * every load of the tile is issued before the first is used, with no branch between them: on an
 * H100 that took the scan from 0.70x to 0.91x of a copy's speed
 * (bench/results/h100-2026-11-28-scan). Item `l` holds eight runs of four consecutive elements,
 * at `4 * (r * 256 + l)` in the tile for run `r`.
 */
import {
  accessor,
  atomic,
  atomicAdd,
  atomicLoad,
  atomicMax,
  atomicStore,
  bitcastF32,
  bitcastI32,
  bitcastU32,
  bool,
  deviceFunction,
  exclusiveScanOverGroup,
  groupBroadcast,
  kernel,
  kernelHandler,
  maximum,
  minimum,
  plus,
  specializationId,
  u32,
  vec4u,
  workgroupArray,
} from '@syclts/dsl';
import { combine, operation } from './operation.sycl.ts';

/** Whether element i's result includes element i (inclusive) or stops before it (exclusive). */
export const inclusive = specializationId(bool, false);

/** Reads of a predecessor that is not ready before the work-group reduces its tile itself. */
export const spin = specializationId(u32, 4);

/** Tests only: reduce every predecessor's tile, never reading a published value. */
export const alwaysFallBack = specializationId(bool, false);

/** Runs of four elements per item; a tile holds 4 * 256 * RUNS elements. */
const RUNS = 8;
const TILE = 4 * 256 * RUNS;

/** Published states. */
const REDUCTION = 1;
const INCLUSIVE = 2;

/** The tile to reduce next, as the looking item tells the work-group: none when it is done. */
const NONE = 0xffffffff;
/** The item that looks back: the last, which holds the tile's total after the group's scan. */
const LAST = 255;

/**
 * The look-back state: [0] the ticket counter; tile t's halves at [1 + 2t] and [2 + 2t]; after
 * the tiles, the number of tiles reduced by a work-group other than their owner.
 */
export const scanState = kernel(
  { range: 1, args: { state: accessor(atomic(u32), 'read_write') } },
  (item, _kh, { state }) => {
    atomicStore(state[item.getId(0)]!, 0);
  },
);

/** `v`, elements `p` to `p + 3` of the input, with the identity past its first `n`. */
const masked = deviceFunction({ args: [vec4u, u32, u32, u32], returns: vec4u }, (v, p, n, id) =>
  vec4u(p < n ? v.x : id, p + 1 < n ? v.y : id, p + 2 < n ? v.z : id, p + 3 < n ? v.w : id),
);

/** The four elements combined in the same order wherever a tile is reduced. */
const combine4 = deviceFunction({ args: [kernelHandler, vec4u], returns: u32 }, (kh, v) =>
  combine(kh, combine(kh, v.x, v.y), combine(kh, v.z, v.w)),
);

export const scanTiles = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: {
      src: accessor(vec4u, 'read'),
      dst: accessor(vec4u, 'read_write'),
      state: accessor(atomic(u32), 'read_write'),
      n: u32,
      tiles: u32,
      init: u32,
      id: u32,
    },
    local: { runs: workgroupArray(u32, 256 * RUNS) },
  },
  (item, kh, { src, dst, state, n, tiles, init, id }, { runs }) => {
    const g = item.getGroup();
    const l = item.getLocalId(0);

    let ticket = u32(0);
    if (g.leader()) {
      ticket = atomicAdd(state[0]!, 1);
    }
    const tile = groupBroadcast(g, ticket, 0);
    if (tile >= tiles) {
      return;
    }

    // This item's elements of its own tile, every load issued before the first use.
    const mine = [
      vec4u(id),
      vec4u(id),
      vec4u(id),
      vec4u(id),
      vec4u(id),
      vec4u(id),
      vec4u(id),
      vec4u(id),
    ];
    // The last vector holding an element: indices are clamped rather than tested, so that no
    // branch stands between an item's loads.
    const last = (Math.max(n, 1) - 1) >> 2;
    for (let r = u32(0); r < RUNS; r++) {
      const q = (tile * TILE) / 4 + r * 256 + l;
      mine[r] = masked(src[Math.min(q, last)]!, 4 * q, n, id);
    }
    for (let r = u32(0); r < RUNS; r++) {
      runs[r * 256 + l] = combine4(kh, mine[r]!);
    }
    item.barrier();
    // The tile's 2048 run totals in order, eight to an item: this item's share.
    const t = [id, id, id, id, id, id, id, id];
    let share = id;
    for (let j = u32(0); j < RUNS; j++) {
      t[j] = runs[RUNS * l + j]!;
      share = combine(kh, share, t[j]!);
    }

    // Each round scans one tile's shares by SYCL's group algorithm for the operation (in the
    // native variant the other branches fold away): first this tile's, then each predecessor's
    // the look-back falls back on. The last item's, for the look-back: this tile's total, the
    // predecessors' values combined, the tile it reads next and whether it is done.
    let own = id;
    let before = id;
    let look = tile - 1;
    let done = tile === 0;
    let target = tile;
    while (true) {
      const op = kh.getSpecializationConstant(operation);
      let start = id;
      if (op === 1) {
        start = bitcastU32(exclusiveScanOverGroup(g, bitcastF32(share), plus));
      } else if (op === 2) {
        start = exclusiveScanOverGroup(g, share, minimum);
      } else if (op === 3) {
        start = bitcastU32(exclusiveScanOverGroup(g, bitcastI32(share), minimum));
      } else if (op === 4) {
        start = bitcastU32(exclusiveScanOverGroup(g, bitcastF32(share), minimum));
      } else if (op === 5) {
        start = exclusiveScanOverGroup(g, share, maximum);
      } else if (op === 6) {
        start = bitcastU32(exclusiveScanOverGroup(g, bitcastI32(share), maximum));
      } else if (op === 7) {
        start = bitcastU32(exclusiveScanOverGroup(g, bitcastF32(share), maximum));
      } else {
        start = exclusiveScanOverGroup(g, share, plus);
      }
      if (target === tile) {
        // Where each of this item's runs starts in the tile's scan, read after the broadcast's
        // barrier below.
        let x = start;
        for (let j = u32(0); j < RUNS; j++) {
          runs[RUNS * l + j] = x;
          x = combine(kh, x, t[j]!);
        }
      }
      if (l === LAST) {
        // The last item's inclusive value is the tile's total.
        const reduction = combine(kh, start, share);
        const flag = u32(target === 0 ? INCLUSIVE : REDUCTION);
        atomicMax(state[1 + 2 * target]!, (flag << 16) | (reduction & 0xffff));
        atomicMax(state[2 + 2 * target]!, (flag << 16) | (reduction >> 16));
        if (target === tile) {
          own = reduction;
        } else {
          atomicAdd(state[1 + 2 * tiles]!, 1);
          before = combine(kh, reduction, before);
          done = target === 0;
          look = target - 1;
        }
        // Look back from `look` until an inclusive prefix, or a tile not ready for `spin` reads.
        let reads = u32(0);
        while (!done && !kh.getSpecializationConstant(alwaysFallBack)) {
          const low = atomicLoad(state[1 + 2 * look]!);
          const high = atomicLoad(state[2 + 2 * look]!);
          const published = low >> 16;
          if (published !== 0 && published === high >> 16) {
            before = combine(kh, (low & 0xffff) | (high << 16), before);
            if (published === INCLUSIVE) {
              done = true;
            } else {
              look -= 1;
              reads = 0;
            }
          } else if (reads >= kh.getSpecializationConstant(spin)) {
            break;
          } else {
            reads += 1;
          }
        }
      }
      const next = groupBroadcast(g, done ? NONE : look, LAST);
      if (next === NONE) {
        break;
      }
      // Fallback: this item's share of tile `next`, its runs RUNS * l to RUNS * l + RUNS - 1
      // combined as its owner combines them.
      target = next;
      share = id;
      for (let j = u32(0); j < RUNS; j++) {
        const q = (next * TILE) / 4 + RUNS * l + j;
        share = combine(kh, share, combine4(kh, masked(src[Math.min(q, last)]!, 4 * q, n, id)));
      }
    }

    // This tile's inclusive prefix, for the tiles after it.
    if (l === LAST && tile !== 0) {
      const prefix = combine(kh, before, own);
      atomicMax(state[1 + 2 * tile]!, (INCLUSIVE << 16) | (prefix & 0xffff));
      atomicMax(state[2 + 2 * tile]!, (INCLUSIVE << 16) | (prefix >> 16));
    }
    const offset = combine(kh, init, groupBroadcast(g, before, LAST));
    const both = kh.getSpecializationConstant(inclusive);
    for (let r = u32(0); r < RUNS; r++) {
      const q = (tile * TILE) / 4 + r * 256 + l;
      const v = mine[r]!;
      let x = combine(kh, offset, runs[r * 256 + l]!);
      const e0 = both ? combine(kh, x, v.x) : x;
      x = combine(kh, x, v.x);
      const e1 = both ? combine(kh, x, v.y) : x;
      x = combine(kh, x, v.y);
      const e2 = both ? combine(kh, x, v.z) : x;
      x = combine(kh, x, v.z);
      const e3 = both ? combine(kh, x, v.w) : x;
      const p = 4 * q;
      if (p + 3 < n) {
        dst[q] = vec4u(e0, e1, e2, e3);
      } else if (p < n) {
        // The last elements share their vector with elements past n, which keep their values.
        const old = dst[q]!;
        dst[q] = vec4u(e0, p + 1 < n ? e1 : old.y, p + 2 < n ? e2 : old.z, old.w);
      }
    }
  },
);
