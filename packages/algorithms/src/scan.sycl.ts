/**
 * Device-wide exclusive and inclusive scan in one pass: a chained scan with decoupled look-back
 * (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016) and
 * the decoupled fallback (Smith, Levien and Owens, "Decoupled Fallback: A Portable Single-Pass
 * GPU Scan", SPAA 2025), which keeps it correct without forward-progress guarantees: WebGPU
 * gives none, and a work-group that spins on another that was never scheduled would hang.
 *
 * - Each work-group takes a tile of 8192 elements in the order of an `atomicAdd` ticket (not of
 *   its group id: ordered by id, a tile can wait on one that has not started).
 * - It reduces the tile and publishes the reduction, then looks back over its predecessors'
 *   published values until one holds an inclusive prefix, combining reductions on the way.
 * - A value is published as two 16-bit halves, each beside a 2-bit state (1: reduction, 2:
 *   inclusive prefix) in one u32 written with `atomicMax`, so a state never goes back and two
 *   writers of one state write the same value. A reader takes a value only when both halves
 *   have the same state.
 * - Fallback: when a predecessor stays "not ready" for `spin` reads, the work-group reduces that
 *   tile from the input itself (the same code, in the same order, as its owner: the same bits,
 *   f32 too), publishes the reduction and goes on looking back. No work-group ever waits on
 *   another's progress.
 *
 * Values are 32-bit elements as u32 bits, combined by `combine` (operation.sycl.ts); `id` is the
 * operation's identity, `init` what the scan starts from. Item `l`
 * holds eight runs of four consecutive elements, at `4 * (r * 256 + l)` in the tile for run `r`:
 * tiles of 8192, twice the 4096 of the first version, which cut the scan's time on an H100 by a
 * quarter (fewer tiles, so fewer look-backs, and twice the loads in flight per item).
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
  exclusiveScanOverGroup,
  groupBroadcast,
  kernel,
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

/** The look-back's outcome, as the leader has it. */
const DONE = 0;
const FALL_BACK = 1;
/** The tile to reduce next, as the leader tells the work-group: none when it is done. */
const NONE = 0xffffffff;

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

export const scanTiles = kernel(
  {
    ndRange: 1,
    workgroupSize: [256],
    args: {
      src: accessor(u32, 'read'),
      dst: accessor(u32, 'write'),
      state: accessor(atomic(u32), 'read_write'),
      n: u32,
      tiles: u32,
      init: u32,
      id: u32,
    },
    local: { runs: workgroupArray(u32, 256 * RUNS), total: workgroupArray(u32, 1) },
  },
  (item, kh, { src, dst, state, n, tiles, init, id }, { runs, total }) => {
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

    // This item's elements of its own tile, and where each of its runs starts in the tile's scan.
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
    const starts = [id, id, id, id, id, id, id, id];
    // The leader's: this tile's total, the tile it reads next and the predecessors' values
    // combined.
    let own = id;
    let look = tile;
    let before = id;
    let outcome = tile === 0 ? DONE : FALL_BACK;
    // The tile reduced in this round: first this one, then each predecessor the look-back
    // falls back on.
    let target = tile;
    while (true) {
      for (let r = u32(0); r < RUNS; r++) {
        const p = target * TILE + 4 * (r * 256 + l);
        let v = vec4u(id);
        if (p + 3 < n) {
          v = vec4u(src[p]!, src[p + 1]!, src[p + 2]!, src[p + 3]!);
        } else {
          for (let c = u32(0); c < 4; c++) {
            if (p + c < n) {
              v[c] = src[p + c]!;
            }
          }
        }
        // Only this tile's elements are kept: a predecessor's count by their run totals alone.
        if (target === tile) {
          mine[r] = v;
        }
        runs[r * 256 + l] = combine(kh, combine(kh, v.x, v.y), combine(kh, v.z, v.w));
      }
      item.barrier();
      // The tile's 2048 run totals in order, eight to an item: this item's share, then the
      // work-group's exclusive scan of the shares by SYCL's group algorithm for the operation
      // (in the native variant the other branches fold away), and the tile's total.
      const t = [id, id, id, id, id, id, id, id];
      let share = id;
      for (let j = u32(0); j < RUNS; j++) {
        t[j] = runs[RUNS * l + j]!;
        share = combine(kh, share, t[j]!);
      }
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
      // The tile's total, for the leader alone: the last item's inclusive value.
      if (l === 255) {
        total[0] = combine(kh, start, share);
      }
      if (target === tile) {
        let x = start;
        for (let j = u32(0); j < RUNS; j++) {
          runs[RUNS * l + j] = x;
          x = combine(kh, x, t[j]!);
        }
      }
      item.barrier();
      if (target === tile) {
        for (let r = u32(0); r < RUNS; r++) {
          starts[r] = runs[r * 256 + l]!;
        }
      }
      if (g.leader()) {
        const reduction = total[0]!;
        if (target === tile) {
          own = reduction;
        }
        const flag = u32(target === 0 ? INCLUSIVE : REDUCTION);
        atomicMax(state[1 + 2 * target]!, (flag << 16) | (reduction & 0xffff));
        atomicMax(state[2 + 2 * target]!, (flag << 16) | (reduction >> 16));
        if (target !== tile) {
          atomicAdd(state[1 + 2 * tiles]!, 1);
          before = combine(kh, reduction, before);
          outcome = target === 0 ? DONE : FALL_BACK;
        }
        look = target - 1;
        // Look back from `look` until an inclusive prefix, or a tile not ready for `spin` reads.
        let reads = u32(0);
        while (outcome !== DONE && !kh.getSpecializationConstant(alwaysFallBack)) {
          const low = atomicLoad(state[1 + 2 * look]!);
          const high = atomicLoad(state[2 + 2 * look]!);
          const published = low >> 16;
          if (published !== 0 && published === high >> 16) {
            before = combine(kh, (low & 0xffff) | (high << 16), before);
            if (published === INCLUSIVE) {
              outcome = DONE;
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
      const next = groupBroadcast(g, outcome === DONE ? NONE : look, 0);
      if (next === NONE) {
        break;
      }
      target = next;
    }

    // This tile's inclusive prefix, for the tiles after it.
    if (g.leader() && tile !== 0) {
      const prefix = combine(kh, before, own);
      atomicMax(state[1 + 2 * tile]!, (INCLUSIVE << 16) | (prefix & 0xffff));
      atomicMax(state[2 + 2 * tile]!, (INCLUSIVE << 16) | (prefix >> 16));
    }
    const offset = combine(kh, init, groupBroadcast(g, before, 0));
    const both = kh.getSpecializationConstant(inclusive);
    for (let r = u32(0); r < RUNS; r++) {
      const p = tile * TILE + 4 * (r * 256 + l);
      const v = mine[r]!;
      let x = combine(kh, offset, starts[r]!);
      const e0 = both ? combine(kh, x, v.x) : x;
      x = combine(kh, x, v.x);
      const e1 = both ? combine(kh, x, v.y) : x;
      x = combine(kh, x, v.y);
      const e2 = both ? combine(kh, x, v.z) : x;
      x = combine(kh, x, v.z);
      const e3 = both ? combine(kh, x, v.w) : x;
      if (p + 3 < n) {
        dst[p] = e0;
        dst[p + 1] = e1;
        dst[p + 2] = e2;
        dst[p + 3] = e3;
      } else {
        const e = vec4u(e0, e1, e2, e3);
        for (let c = u32(0); c < 4; c++) {
          if (p + c < n) {
            dst[p + c] = e[c]!;
          }
        }
      }
    }
  },
);
