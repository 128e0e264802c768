/**
 * Exclusive prefix sum of n u32 (wrapping modulo 2^32), hand-written, in one pass: a chained scan
 * with decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled
 * Look-back", NVIDIA 2016) and the fallback of Smith, Levien and Owens ("Decoupled Fallback: A
 * Portable Single-Pass GPU Scan", SPAA 2025), which keeps it correct without forward-progress
 * guarantees: WebGPU gives none, and SwiftShader starves a workgroup spinning on another.
 *
 * - Each workgroup takes a tile of 8192 elements (256 items x 8 vec4<u32>) in the order of an
 *   atomicAdd ticket, not of workgroup_id (ordered by workgroup_id, SwiftShader starves tiles
 *   whose predecessor was never scheduled).
 * - It scans the tile in workgroup memory (each item's 16 elements serially, the items' totals by
 *   the workgroup scan of its shape: sub-group built-ins or workgroup memory) and publishes the
 *   tile's reduction, then looks back over its predecessors' published values until one holds an
 *   inclusive prefix, adding reductions on the way.
 * - A tile's value is published as two 16-bit halves, each in a u32 atomic beside its 2-bit state
 *   (1: reduction, 2: inclusive prefix) written with atomicMax, so a state never goes back and two
 *   writers of one state write the same value. A reader takes a value only when both halves have
 *   the same state.
 * - Fallback: when a predecessor's state stays "not ready" for `spin` reads, the workgroup reduces
 *   that tile from the input itself, publishes the reduction (atomicMax: harmless if its owner got
 *   there first) and goes on looking back. No workgroup ever waits on another's progress.
 *
 * The state buffer (a ticket counter, two words per tile and a count of the fallbacks taken, which
 * `fallbacks()` reads after a run) is cleared before each run (clearBuffer, outside the timed
 * pass). Written from the papers; Thomas Smith's GPUPrefixSums (MIT) has WGSL scans of this family
 * (its values are 30 bits beside a 2-bit state in one word; here they are split in two halves so
 * that u32 sums wrap as on the CPU).
 */
import {
  bind,
  builtins,
  enables,
  grid,
  groupArgs,
  type Prepared,
  pipeline,
  readBack,
  type Shape,
  scanU32,
  storage,
  uniforms,
  WG,
} from './common.js';

/** Elements of a tile with `perItem` vec4<u32> per item (8 unless the options say). */
export const scanTile = (perItem = 8): number => 4 * WG * perItem;

export interface ScanOptions {
  readonly shape: Shape;
  /**
   * Reads of a "not ready" predecessor before the workgroup reduces its tile itself (default 4,
   * GPUPrefixSums's choice).
   */
  readonly spin?: number;
  /**
   * Tests only: every workgroup reduces each predecessor's tile itself, never reading a published
   * value (quadratic work), so that the fallback path runs whatever the scheduling.
   */
  readonly forceFallback?: boolean;
  /**
   * vec4<u32> per item (default 8: tiles of 8192 elements; with 4, tiles of 4096, the scan took a
   * third longer on an H100: more tiles to look back over, fewer loads in flight).
   */
  readonly perItem?: number;
  /** u32 loads and stores, four to a vec4 (the access of a scan over a u32 accessor). */
  readonly scalar?: boolean;
}

/** The kernel's WGSL: n, its vec4 count and the tile count come from `params`. */
export function scanWgsl(
  shape: Shape,
  spin: number,
  forceFallback = false,
  perItem = 8,
  scalar = false,
): string {
  const PER_ITEM = perItem;
  const TILE_VEC4 = WG * perItem;
  const sums = (k: number) =>
    Array.from({ length: perItem }, (_, i) => `a${i}`)
      .slice(0, k)
      .join(' + ') || '0u';
  return `${enables(shape)}
struct Params { n: u32, n4: u32, tiles: u32 }
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(0) var<storage, read> src: array<${scalar ? 'u32' : 'vec4u'}>;
@group(0) @binding(1) var<storage, read_write> dst: array<${scalar ? 'u32' : 'vec4u'}>;
// [0]: ticket counter; [1 + 2t], [2 + 2t]: tile t's low and high halves, state in bits 16-17;
// [1 + 2 tiles]: fallbacks taken (tiles reduced by a workgroup other than their owner).
@group(0) @binding(2) var<storage, read_write> state: array<atomic<u32>>;
${scanU32(shape)}

const REDUCTION = 1u;
const INCLUSIVE = 2u;
const DONE = 1u;
const FALLBACK = 2u;

var<workgroup> wg_tile: u32;
var<workgroup> wg_sums: array<u32, ${TILE_VEC4}>;
var<workgroup> wg_ctl: u32;
var<workgroup> wg_look: u32;
var<workgroup> wg_prev: u32;

fn load(v: u32) -> vec4u {
  let x = ${scalar ? 'vec4u(src[min(4u * v, max(params.n, 1u) - 1u)], src[min(4u * v + 1u, max(params.n, 1u) - 1u)], src[min(4u * v + 2u, max(params.n, 1u) - 1u)], src[min(4u * v + 3u, max(params.n, 1u) - 1u)])' : 'src[min(v, max(params.n4, 1u) - 1u)]'};
  return select(vec4u(0u), x, vec4u(v * 4u) + vec4u(0u, 1u, 2u, 3u) < vec4u(params.n));
}

fn publish(t: u32, value: u32, flag: u32) {
  atomicMax(&state[1u + 2u * t], (flag << 16u) | (value & 0xffffu));
  atomicMax(&state[2u + 2u * t], (flag << 16u) | (value >> 16u));
}

@compute @workgroup_size(${WG})
fn main(${builtins(shape)}) {
  if (li == 0u) { wg_tile = atomicAdd(&state[0], 1u); }
  let tile = workgroupUniformLoad(&wg_tile);
  if (tile >= params.tiles) { return; }
  let base = tile * ${TILE_VEC4}u;
  var vals: array<vec4u, ${PER_ITEM}>;
  for (var k = 0u; k < ${PER_ITEM}u; k++) {
    let x = load(base + k * ${WG}u + li);
    vals[k] = x;
    wg_sums[k * ${WG}u + li] = x.x + x.y + x.z + x.w;
  }
  workgroupBarrier();
${Array.from({ length: PER_ITEM }, (_, i) => `  let a${i} = wg_sums[${PER_ITEM}u * li + ${i}u];`).join('\n')}
  let s = wg_scan_u32(${sums(PER_ITEM)}, ${groupArgs(shape)});
${Array.from({ length: PER_ITEM }, (_, i) => `  wg_sums[${PER_ITEM}u * li + ${i}u] = s.x + ${sums(i)};`).join('\n')}
  let aggregate = s.y;

  if (li == 0u) {
    publish(tile, aggregate, select(REDUCTION, INCLUSIVE, tile == 0u));
    wg_prev = 0u;
    wg_look = tile - 1u;
    wg_ctl = select(0u, DONE, tile == 0u);
  }
  loop {
    if (li == 0u && wg_ctl != DONE) {
      var look = wg_look;
      var spins = 0u;
      var ctl = FALLBACK;
      loop {
        let lo = atomicLoad(&state[1u + 2u * look]);
        let hi = atomicLoad(&state[2u + 2u * look]);
        let flag = lo >> 16u;
        if (${forceFallback ? 'false' : 'true'} && flag != 0u && flag == (hi >> 16u)) {
          wg_prev += (lo & 0xffffu) | (hi << 16u);
          if (flag == INCLUSIVE) { ctl = DONE; break; }
          look -= 1u;
          spins = 0u;
          continue;
        }
        if (${forceFallback ? 'true' : 'false'} || spins >= ${spin}u) { break; }
        spins += 1u;
      }
      wg_look = look;
      wg_ctl = ctl;
    }
    if (workgroupUniformLoad(&wg_ctl) == DONE) { break; }
    // Fallback: reduce the stalled predecessor's tile from the input.
    let look = workgroupUniformLoad(&wg_look);
    var r = 0u;
    for (var k = 0u; k < ${PER_ITEM}u; k++) {
      let x = load(look * ${TILE_VEC4}u + k * ${WG}u + li);
      r += x.x + x.y + x.z + x.w;
    }
    let reduction = wg_scan_u32(r, ${groupArgs(shape)}).y;
    if (li == 0u) {
      atomicAdd(&state[1u + 2u * params.tiles], 1u);
      publish(look, reduction, select(REDUCTION, INCLUSIVE, look == 0u));
      wg_prev += reduction;
      wg_look = look - 1u;
      wg_ctl = select(0u, DONE, look == 0u);
    }
  }
  if (li == 0u && tile != 0u) { publish(tile, wg_prev + aggregate, INCLUSIVE); }
  let prev = workgroupUniformLoad(&wg_prev);
  for (var k = 0u; k < ${PER_ITEM}u; k++) {
    let v = base + k * ${WG}u + li;
    let x = vals[k];
    let p = prev + wg_sums[k * ${WG}u + li];
    ${scalar ? 'if (v < params.n4) { dst[4u * v] = p; dst[4u * v + 1u] = p + x.x; dst[4u * v + 2u] = p + x.x + x.y; dst[4u * v + 3u] = p + x.x + x.y + x.z; }' : 'if (v < params.n4) { dst[v] = vec4u(p, p + x.x, p + x.x + x.y, p + x.x + x.y + x.z); }'}
  }
}`;
}

export interface ScanRun extends Prepared {
  /** Input: n u32 (padded to 16 bytes). */
  readonly input: GPUBuffer;
  /** Output: n u32, the exclusive prefix sums. */
  readonly output: GPUBuffer;
  /** Tiles reduced by the fallback in the last run (read back; wait for the run first). */
  fallbacks(): Promise<number>;
  /** Clears the state buffer (before every run). */
  clear(encoder: GPUCommandEncoder): void;
  /** Records the scan's one dispatch into a pass (after \`clear\`). */
  dispatch(pass: GPUComputePassEncoder): void;
}

/** `buffers` lets a caller scan buffers of its own (the radix sort's histogram). */
export async function prepareScan(
  device: GPUDevice,
  n: number,
  options: ScanOptions,
  buffers?: { input: GPUBuffer; output: GPUBuffer },
): Promise<ScanRun> {
  const perItem = options.perItem ?? 8;
  const tiles = Math.max(1, Math.ceil(n / scanTile(perItem)));
  const [gx, gy] = grid(tiles);
  const p = await pipeline(
    device,
    scanWgsl(options.shape, options.spin ?? 4, options.forceFallback, perItem, options.scalar),
  );
  const params = uniforms(device, [n, Math.ceil(n / 4), tiles]);
  const input = buffers?.input ?? storage(device, 4 * n);
  const output = buffers?.output ?? storage(device, 4 * n);
  const state = storage(device, 4 * (2 + 2 * tiles));
  const group = bind(device, p, [input, output, state, params]);
  const dispatch = (pass: GPUComputePassEncoder) => {
    pass.setPipeline(p);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(gx, gy);
  };
  return {
    input,
    output,
    record(encoder, timed) {
      encoder.clearBuffer(state);
      const pass = encoder.beginComputePass(timed?.(true, true));
      dispatch(pass);
      pass.end();
    },
    dispatch,
    async fallbacks() {
      const words = new Uint32Array(await readBack(device, state, 4 * (2 + 2 * tiles)));
      return words[1 + 2 * tiles]!;
    },
    clear(encoder) {
      encoder.clearBuffer(state);
    },
    destroy() {
      state.destroy();
      params.destroy();
      if (!buffers) {
        input.destroy();
        output.destroy();
      }
    },
  };
}
