/**
 * Radix sort of n u32 keys (optionally with u32 values), ascending and stable, hand-written: an LSD
 * radix sort of four 8-bit digits, each digit in one compute pass of three dispatches:
 *
 * 1. histogram: each tile (2048 keys by default) counts its digits in workgroup atomics and
 *    writes the 256 counts digit-major (count of digit d in tile t at d * tiles + t);
 * 2. the exclusive scan of those counts (the single-pass scan of scan.ts, decoupled look-back with
 *    the fallback), which gives every (digit, tile) its first place in the output;
 * 3. scatter: each tile sorts its keys by the digit in workgroup memory (eight stable 1-bit splits,
 *    each a workgroup scan of the items' zero counts), then writes each key at its (digit, tile)
 *    place plus its rank among the tile's keys of that digit; runs of one digit are written
 *    together.
 *
 * Correctness first: this is the simpler, reliable scheme. OneSweep (Adinets and Merrill, 2022;
 * WGSL in Thomas Smith's GPUSorting, MIT) reads the keys once per digit instead of twice, with one
 * histogram pass for all digits, the scan chained into the scatter, and keys ranked by sub-group
 * ballots; its look-back also has no fallback, so it needs forward progress. Keys and values
 * ping-pong between two buffers and end, after four passes, where they started.
 */
import {
  bind,
  builtins,
  enables,
  grid,
  groupArgs,
  type Prepared,
  pipeline,
  type Shape,
  scanU32,
  storage,
  uniforms,
  WG,
} from './common.js';
import { prepareScan, type ScanRun } from './scan.js';

/** Keys per item by default: tiles of 2048 keys. */
const PER_ITEM = 8;
export const SORT_TILE = WG * PER_ITEM;

export interface SortOptions {
  readonly shape: Shape;
  /** Sort a u32 value with each key. */
  readonly values?: boolean;
  /**
   * Keys per item (default 8): a tile holds 256 times as many. Bigger tiles write longer runs of
   * one digit and smaller histograms, and take more workgroup memory (4 bytes a key, 8 with values,
   * plus up to 2 KiB): key-value pairs at 8 an item need up to 18 KiB, over WebGPU's default 16 KiB
   * (the bench device asks for the adapter's limit).
   */
  readonly keysPerItem?: number;
}

/** The digit's shift, n, the tile count and the grid's x size. */
const PARAMS = 'struct Params { shift: u32, n: u32, tiles: u32, gx: u32 }';

function histogramWgsl(perItem: number): string {
  const tile = WG * perItem;
  return `${PARAMS}
@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> hist: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;
var<workgroup> counts: array<atomic<u32>, 256>;

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) li: u32) {
  let tile = wid.x + wid.y * params.gx;
  if (tile >= params.tiles) { return; }
  atomicStore(&counts[li], 0u);
  workgroupBarrier();
  for (var k = 0u; k < ${perItem}u; k++) {
    let i = tile * ${tile}u + k * ${WG}u + li;
    if (i < params.n) { atomicAdd(&counts[(keys[i] >> params.shift) & 255u], 1u); }
  }
  workgroupBarrier();
  hist[li * params.tiles + tile] = atomicLoad(&counts[li]);
}`;
}

function scatterWgsl(shape: Shape, values: boolean, perItem: number): string {
  const tile = WG * perItem;
  const v = (line: string) => (values ? line : '');
  return `${enables(shape)}
${PARAMS}
@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;
${v('@group(0) @binding(4) var<storage, read> vals_in: array<u32>;\n@group(0) @binding(5) var<storage, read_write> vals_out: array<u32>;')}
${scanU32(shape)}
var<workgroup> sk: array<u32, ${tile}>;
${v(`var<workgroup> sv: array<u32, ${tile}>;`)}
var<workgroup> start: array<u32, 256>;

fn digit(key: u32) -> u32 { return (key >> params.shift) & 255u; }

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3u, ${builtins(shape)}) {
  let tile = wid.x + wid.y * params.gx;
  if (tile >= params.tiles) { return; }
  let base = tile * ${tile}u;
  let valid = min(${tile}u, params.n - base);
  for (var k = 0u; k < ${perItem}u; k++) {
    let p = k * ${WG}u + li;
    let i = min(base + p, params.n - 1u);
    // Places past n hold the largest key: the stable sort keeps them after every real key.
    sk[p] = select(0xffffffffu, keys_in[i], p < valid);
    ${v('sv[p] = vals_in[i];')}
  }
  workgroupBarrier();
  var key: array<u32, ${perItem}>;
  ${v(`var val: array<u32, ${perItem}>;`)}
  for (var j = 0u; j < ${perItem}u; j++) {
    key[j] = sk[${perItem}u * li + j];
    ${v(`val[j] = sv[${perItem}u * li + j];`)}
  }
  for (var b = 0u; b < 8u; b++) {
    let bit = params.shift + b;
    var zeros = 0u;
    for (var j = 0u; j < ${perItem}u; j++) { zeros += 1u - ((key[j] >> bit) & 1u); }
    let s = wg_scan_u32(zeros, ${groupArgs(shape)});
    var zero_at = s.x;
    var one_at = s.y + ${perItem}u * li - s.x;
    for (var j = 0u; j < ${perItem}u; j++) {
      var to = zero_at;
      if (((key[j] >> bit) & 1u) == 0u) { zero_at += 1u; } else { to = one_at; one_at += 1u; }
      sk[to] = key[j];
      ${v('sv[to] = val[j];')}
    }
    workgroupBarrier();
    for (var j = 0u; j < ${perItem}u; j++) {
      key[j] = sk[${perItem}u * li + j];
      ${v(`val[j] = sv[${perItem}u * li + j];`)}
    }
  }
  for (var k = 0u; k < ${perItem}u; k++) {
    let p = k * ${WG}u + li;
    let d = digit(sk[p]);
    if (p < valid && (p == 0u || digit(sk[p - 1u]) != d)) { start[d] = p; }
  }
  workgroupBarrier();
  for (var k = 0u; k < ${perItem}u; k++) {
    let p = k * ${WG}u + li;
    if (p < valid) {
      let d = digit(sk[p]);
      let to = offsets[d * params.tiles + tile] + p - start[d];
      keys_out[to] = sk[p];
      ${v('vals_out[to] = sv[p];')}
    }
  }
}`;
}

export interface SortRun extends Prepared {
  /** Keys: n u32, sorted in place (the result is in this buffer after a run). */
  readonly keys: GPUBuffer;
  /** Values (with `values: true`): n u32, moved with their keys. */
  readonly values: GPUBuffer | undefined;
}

export async function prepareSort(
  device: GPUDevice,
  n: number,
  options: SortOptions,
): Promise<SortRun> {
  const count = Math.max(1, n);
  const perItem = options.keysPerItem ?? PER_ITEM;
  const tiles = Math.ceil(count / (WG * perItem));
  const [gx, gy] = grid(tiles);
  const withValues = options.values ?? false;
  const [histogram, scatter] = await Promise.all([
    pipeline(device, histogramWgsl(perItem)),
    pipeline(device, scatterWgsl(options.shape, withValues, perItem)),
  ]);
  const keys = [storage(device, 4 * count), storage(device, 4 * count)] as const;
  const vals = withValues
    ? ([storage(device, 4 * count), storage(device, 4 * count)] as const)
    : null;
  const hist = storage(device, 4 * 256 * tiles);
  const offsets = storage(device, 4 * 256 * tiles);
  const scan: ScanRun = await prepareScan(
    device,
    256 * tiles,
    { shape: options.shape },
    {
      input: hist,
      output: offsets,
    },
  );
  const shifts = [0, 8, 16, 24].map((shift) => uniforms(device, [shift, count, tiles, gx]));
  const groups = shifts.map((shift, d) => {
    const from = d % 2;
    const to = 1 - from;
    return {
      histogram: bind(device, histogram, [keys[from], hist, shift]),
      scatter: bind(device, scatter, [
        keys[from],
        keys[to],
        offsets,
        shift,
        vals?.[from],
        vals?.[to],
      ]),
    };
  });
  return {
    keys: keys[0],
    values: vals?.[0],
    record(encoder, timed) {
      if (n === 0) return;
      groups.forEach((group, d) => {
        scan.clear(encoder);
        const pass = encoder.beginComputePass(timed?.(d === 0, d === groups.length - 1));
        pass.setPipeline(histogram);
        pass.setBindGroup(0, group.histogram);
        pass.dispatchWorkgroups(gx, gy);
        scan.dispatch(pass);
        pass.setPipeline(scatter);
        pass.setBindGroup(0, group.scatter);
        pass.dispatchWorkgroups(gx, gy);
        pass.end();
      });
    },
    destroy() {
      scan.destroy();
      for (const b of [...keys, ...(vals ?? []), hist, offsets, ...shifts]) b.destroy();
    },
  };
}
