/**
 * The GPU suite's rows for the hand-written collectives (./collectives/): sum of f32, exclusive
 * scan of u32, radix sort of u32 keys (and key-value pairs), work-group reduce and scan in both
 * shapes, sub-group reduce and scan. Each row's result is checked against a CPU reference on the buffer it was timed with,
 * then timed per pass (./pass-timing.ts: every repetition in one submission, each bracketed by
 * timestamps, median and best).
 *
 * Rows: BENCH_COLLECTIVES=reduce,scan,sort,group (default all). Sizes: 2^log2 elements for reduce,
 * scan and the work-group rows, 2^(log2 - 2) keys for the sort; log2 is 28 (1 GiB of f32 or u32,
 * 2^26 keys), BENCH_COLLECTIVES_LOG2 sets it. BENCH_SCAN_SPIN sets the scan's reads of a "not
 * ready" predecessor before its fallback (4), BENCH_REDUCE_GROUPS the reduction's grid (2048),
 * BENCH_SORT_KEYS_PER_ITEM the sort's keys per item (8), BENCH_SCAN_PER_ITEM the hand-written scan's
 * vec4<u32> per item (8).
 */

import { sort } from '@syclts/algorithms';
import { operation } from '@syclts/algorithms/operation.sycl.ts';
import { reduceParts } from '@syclts/algorithms/reduce.sycl.ts';
import { spin as scanSpin, scanTiles } from '@syclts/algorithms/scan.sycl.ts';
import { type CollectiveLowering, u32 } from '@syclts/dsl';
import { Queue } from '@syclts/runtime';
import {
  argminReduction,
  groupScan,
  groupSum,
  histogramSpan,
  minCombiner,
  minReduction,
  subGroupScan,
  subGroupSum,
  sumReduction,
} from '../kernels/collectives.sycl.ts';
import { bestShape, grid, readBack, type Shape, storage } from './collectives/common.js';
import {
  type GroupOp,
  type GroupRun,
  type GroupScope,
  groupOutputs,
  prepareGroup,
} from './collectives/group.js';
import { type Finish, prepareReduce } from './collectives/reduce.js';
import { prepareScan, scanTile } from './collectives/scan.js';
import { prepareSort } from './collectives/sort.js';
import type { PassTimer } from './device.js';
import { type PassTimes, summarize, type timePasses, timeSteady } from './pass-timing.js';
import { directLaunch } from './syclts-direct.js';

export const COLLECTIVES = ['reduce', 'scan', 'sort', 'group'] as const;
export type Collective = (typeof COLLECTIVES)[number];

export interface CollectiveRow {
  readonly operation: string;
  readonly variant: string;
  readonly items: number;
  readonly times: PassTimes;
  /** Bytes the row counts per pass (see `counted`). */
  readonly bytes: number;
  readonly counted: string;
  /** Keys per second, for the sort. */
  readonly keys?: number;
  /** What the check compared. */
  readonly check: string;
}

export interface CollectiveOptions {
  readonly rows: readonly Collective[];
  readonly log2: number;
  readonly repetitions: number;
  /** How long each row is timed in rounds of `repetitions` (its best round reported). */
  readonly steadyMs: number;
  /** Times the passes the runtime records (the sort through the runtime). */
  readonly timer: PassTimer;
  readonly log?: (line: string) => void;
}

/** Rows selected by BENCH_COLLECTIVES, sizes by BENCH_COLLECTIVES_LOG2 (or `log2` when unset). */
export function collectiveOptions(log2: number): Pick<CollectiveOptions, 'rows' | 'log2'> {
  const names = (process.env.BENCH_COLLECTIVES ?? COLLECTIVES.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(COLLECTIVES as readonly string[]).includes(name) && name !== 'none') {
      throw new Error(`BENCH_COLLECTIVES: unknown row ${name} (${COLLECTIVES.join(', ')}, none)`);
    }
  }
  const fromEnv = Number(process.env.BENCH_COLLECTIVES_LOG2);
  return {
    rows: COLLECTIVES.filter((c) => names.includes(c)),
    log2: fromEnv > 0 ? fromEnv : log2,
  };
}

/** Random u32 values, filled a block at a time (2^28 of them in a few seconds). */
function randomWords(n: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(n);
  let x = (Math.random() * 2 ** 32) >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x >>> 0;
  }
  return out;
}

/** Values in [offset, offset + 1) from random words. */
function unitFloats(words: Uint32Array, offset: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(words.length);
  for (let i = 0; i < words.length; i++) out[i] = words[i]! / 2 ** 32 + offset;
  return out;
}

function fail(what: string): never {
  throw new Error(what);
}

/** The sum of `words` modulo 2^32. */
function sumU32(words: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < words.length; i++) sum = (sum + words[i]!) >>> 0;
  return sum;
}

/** Fails unless `keys` are in order and sum (mod 2^32) to `sum`, the input's sum. */
function checkSorted(what: string, keys: Uint32Array, sum: number): void {
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) fail(`${what}: entries ${i - 1} and ${i} out of order`);
  }
  if (sumU32(keys) !== sum)
    fail(`${what}: the keys are not a permutation of the input (sums differ)`);
}

/** Fails unless `got` is the exclusive prefix sum of `values`, wrapping as u32. */
function checkExclusiveScan(what: string, got: Uint32Array, values: Uint32Array): void {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    if (got[i] !== sum) fail(`${what}: entry ${i} is ${got[i]}, expected ${sum}`);
    sum = (sum + values[i]!) >>> 0;
  }
}

/**
 * Runs a row's check: what it compared, or "FAILED: ..." (logged) where the output was wrong, so
 * that one wrong row does not lose the others' timings; a failed row is still timed and printed.
 */
async function verify(log: (line: string) => void, check: () => Promise<string>): Promise<string> {
  try {
    return await check();
  } catch (e) {
    const message = `FAILED: ${(e as Error).message}`;
    log(`collectives: ${message}`);
    return message;
  }
}

export async function collectiveRows(
  device: GPUDevice,
  options: CollectiveOptions,
): Promise<CollectiveRow[]> {
  const { log2, repetitions } = options;
  const log = options.log ?? (() => {});
  const n = 2 ** log2;
  const shapes: Shape[] =
    bestShape(device) === 'subgroup' ? ['subgroup', 'workgroup'] : ['workgroup'];
  const rows: CollectiveRow[] = [];
  const lowerings: CollectiveLowering[] = shapes.map((s) =>
    s === 'subgroup' ? 'subgroups' : 'workgroup',
  );
  const time = (record: Parameters<typeof timePasses>[1]) =>
    timeSteady(device, record, repetitions, options.steadyMs);

  if (options.rows.includes('reduce')) {
    // Workgroups of the grid-stride pass (BENCH_REDUCE_GROUPS, default 2048, at most 65535).
    const groups = Number(process.env.BENCH_REDUCE_GROUPS) || 2048;
    const values = unitFloats(randomWords(n), -0.5);
    let ref = 0;
    let magnitude = 0;
    for (let i = 0; i < n; i++) {
      ref += values[i]!;
      magnitude += Math.abs(values[i]!);
    }
    const variants: [Shape, Finish][] = [
      ...shapes.map((s): [Shape, Finish] => [s, 'second-pass']),
      [shapes[0]!, 'last-workgroup'],
    ];
    for (const [shape, finish] of variants) {
      const r = await prepareReduce(device, n, { shape, finish, groups });
      device.queue.writeBuffer(r.input, 0, values);
      device.queue.writeBuffer(r.output, 0, new Float32Array([Number.NaN]));
      const encoder = device.createCommandEncoder();
      r.record(encoder);
      device.queue.submit([encoder.finish()]);
      const check = await verify(log, async () => {
        const got = new Float32Array(await readBack(device, r.output, 4))[0]!;
        const error = Math.abs(got - ref) / magnitude;
        if (!(error < 1e-5)) fail(`reduce ${shape} ${finish}: ${got} vs ${ref}`);
        return `rel. error ${error.toExponential(1)}`;
      });
      const times = await time((e, timed) => r.record(e, timed));
      r.destroy();
      rows.push({
        operation: `reduce (sum) f32 2^${log2}`,
        variant: `${shape}, ${finish}, ${Math.min(groups, Math.ceil(n / 1024))} groups`,
        items: n,
        times,
        bytes: 4 * n,
        counted: 'read',
        check,
      });
      log(`reduce ${shape} ${finish} done`);
    }
    // The same sum written with syclts: a reduction variable over the same grid-stride loop.
    for (const lowering of lowerings) {
      const input = storage(device, 4 * n);
      const output = storage(device, 16);
      device.queue.writeBuffer(input, 0, values);
      device.queue.writeBuffer(output, 0, new Float32Array([Number.NaN]));
      const items = Math.min(groups, Math.ceil(n / 1024)) * 256;
      const r = await directLaunch(
        device,
        sumReduction,
        lowering,
        [items],
        [256],
        { xs: input, sum: output },
        { n: n / 4 },
      );
      const encoder = device.createCommandEncoder();
      r.record(encoder);
      device.queue.submit([encoder.finish()]);
      const check = await verify(log, async () => {
        const got = new Float32Array(await readBack(device, output, 4))[0]!;
        const error = Math.abs(got - ref) / magnitude;
        if (!(error < 1e-5)) fail(`syclts reduction ${lowering}: ${got} vs ${ref}`);
        return `rel. error ${error.toExponential(1)}`;
      });
      const times = await time((e, timed) => r.record(e, timed));
      input.destroy();
      output.destroy();
      rows.push({
        operation: `reduce (sum) f32 2^${log2}`,
        variant: `syclts reduction(f32, plus), ${lowering === 'subgroups' ? 'subgroup' : 'workgroup'} lowering, ${items / 256} groups`,
        items: n,
        times,
        bytes: 4 * n,
        counted: 'read',
        check,
      });
      log(`syclts reduction ${lowering} done`);
    }
    // A minimum three ways over the same loop, in the lowering with sub-groups where there is one:
    // SYCL's function object, a device function doing the same (combined in workgroup memory), and
    // an argmin through a device function of a struct (the first of equal values: many at -0.5).
    {
      let first = 0;
      for (let i = 1; i < n; i++) if (values[i]! < values[first]!) first = i;
      const low = values[first]!;
      const items = Math.min(groups, Math.ceil(n / 1024)) * 256;
      const ways = [
        [minReduction, 'low', 'reduction(f32, minimum)'],
        [minCombiner, 'low', 'reduction(f32, F32_MAX, lesser), `lesser` a device function'],
        [argminReduction, 'best', 'reduction(Best, identity, better): argmin, a struct'],
      ] as const;
      for (const [kernel, arg, variant] of ways) {
        const input = storage(device, 4 * n);
        const output = storage(device, 16);
        device.queue.writeBuffer(input, 0, values);
        device.queue.writeBuffer(output, 0, new Uint32Array([0xdeadbeef, 0xdeadbeef]));
        const r = await directLaunch(
          device,
          kernel,
          lowerings[0]!,
          [items],
          [256],
          { xs: input, [arg]: output },
          { n: n / 4 },
        );
        const encoder = device.createCommandEncoder();
        r.record(encoder);
        device.queue.submit([encoder.finish()]);
        const check = await verify(log, async () => {
          const data = await readBack(device, output, 8);
          const got = new Float32Array(data)[0]!;
          if (got !== low) fail(`syclts ${variant}: ${got} vs ${low}`);
          if (arg === 'best') {
            const index = new Uint32Array(data)[1]!;
            if (index !== first) fail(`syclts ${variant}: index ${index} vs ${first}`);
            return `exact, index ${first}`;
          }
          return 'exact';
        });
        const times = await time((e, timed) => r.record(e, timed));
        input.destroy();
        output.destroy();
        rows.push({
          operation: `reduce (minimum) f32 2^${log2}`,
          variant: `syclts ${variant}, ${items / 256} groups`,
          items: n,
          times,
          bytes: 4 * n,
          counted: 'read',
          check,
        });
        log(`syclts ${variant} done`);
      }
    }
    // A histogram of 16 bins as a span reduction: four combines of a dynamic index per vec4u.
    {
      const words = randomWords(n);
      const want = new Array<number>(16).fill(0);
      for (const w of words) want[w & 15]!++;
      const input = storage(device, 4 * n);
      const output = storage(device, 64);
      device.queue.writeBuffer(input, 0, words);
      device.queue.writeBuffer(output, 0, new Uint32Array(16).fill(0xdeadbeef));
      const items = Math.min(groups, Math.ceil(n / 1024)) * 256;
      const r = await directLaunch(
        device,
        histogramSpan,
        lowerings[0]!,
        [items],
        [256],
        { xs: input, bins: output },
        { n: n / 4 },
      );
      const encoder = device.createCommandEncoder();
      r.record(encoder);
      device.queue.submit([encoder.finish()]);
      const check = await verify(log, async () => {
        const got = [...new Uint32Array(await readBack(device, output, 64))];
        if (got.join() !== want.join()) fail(`syclts span histogram: ${got} vs ${want}`);
        return 'exact';
      });
      const times = await time((e, timed) => r.record(e, timed));
      input.destroy();
      output.destroy();
      rows.push({
        operation: `histogram (16 bins) u32 2^${log2}`,
        variant: `syclts reduction(span(u32, 16), plus), ${items / 256} groups`,
        items: n,
        times,
        bytes: 4 * n,
        counted: 'read',
        check,
      });
      log('syclts span histogram done');
    }
    // The same sum from @syclts/algorithms: reduce.sycl.ts's two launches (grid-stride parts,
    // then one work-group), f32 addition chosen by its specialization constant. It uses no group
    // functions, so it has one lowering.
    {
      const lowering = lowerings[0]!;
      const input = storage(device, 4 * n);
      const output = storage(device, 16);
      const parts = storage(device, 4 * 2048);
      device.queue.writeBuffer(input, 0, values);
      device.queue.writeBuffer(output, 0, new Float32Array([Number.NaN]));
      const partCount = Math.min(2048, Math.ceil(n / (256 * 16)));
      const f32Plus = { constants: [[operation, 1]] as const };
      const first = await directLaunch(
        device,
        reduceParts,
        lowering,
        [partCount * 256],
        [256],
        { src: input, parts },
        { n, init: 0, id: 0 },
        f32Plus,
      );
      const last = await directLaunch(
        device,
        reduceParts,
        lowering,
        [256],
        [256],
        { src: parts, parts: output },
        { n: partCount, init: 0, id: 0 },
        f32Plus,
      );
      const record: Parameters<typeof timePasses>[1] = (e, timed) => {
        first.record(e, (begins) => timed(begins, false));
        last.record(e, (_, ends) => timed(false, ends));
      };
      const encoder = device.createCommandEncoder();
      record(encoder, () => ({}));
      device.queue.submit([encoder.finish()]);
      const check = await verify(log, async () => {
        const got = new Float32Array(await readBack(device, output, 4))[0]!;
        const error = Math.abs(got - ref) / magnitude;
        if (!(error < 1e-5)) fail(`syclts reduce: ${got} vs ${ref}`);
        return `rel. error ${error.toExponential(1)}`;
      });
      const times = await time(record);
      for (const b of [input, output, parts]) b.destroy();
      rows.push({
        operation: `reduce (sum) f32 2^${log2}`,
        variant: `syclts reduce (@syclts/algorithms), workgroup tree, second pass, ${partCount} groups`,
        items: n,
        times,
        bytes: 4 * n,
        counted: 'read',
        check,
      });
      log('syclts reduce done');
    }
  }

  if (options.rows.includes('scan')) {
    // Reads of a "not ready" predecessor before the fallback (BENCH_SCAN_SPIN, default 4).
    const spin = process.env.BENCH_SCAN_SPIN ? Number(process.env.BENCH_SCAN_SPIN) : 4;
    const values = randomWords(n);
    // vec4<u32> per item of the hand-written scan (BENCH_SCAN_PER_ITEM, default 8: tiles of 8192).
    const perItem = Number(process.env.BENCH_SCAN_PER_ITEM) || 8;
    for (const shape of shapes)
      for (const scalar of process.env.BENCH_SCAN_SCALAR ? [false, true] : [false]) {
        const s = await prepareScan(device, n, { shape, spin, perItem, scalar });
        device.queue.writeBuffer(s.input, 0, values);
        device.queue.writeBuffer(s.output, 0, new Uint32Array(n).fill(0xffffffff));
        const encoder = device.createCommandEncoder();
        s.record(encoder);
        device.queue.submit([encoder.finish()]);
        const check = await verify(log, async () => {
          const got = new Uint32Array(await readBack(device, s.output, 4 * n));
          checkExclusiveScan(`scan ${shape}`, got, values);
          const tiles = Math.ceil(n / scanTile(perItem));
          return `all ${n} entries; checked run: ${await s.fallbacks()} fallbacks, ${tiles} tiles`;
        });
        const times = await time((e, timed) => s.record(e, timed));
        s.destroy();
        rows.push({
          operation: `exclusive scan u32 2^${log2}`,
          variant: `${shape}, tiles of ${scanTile(perItem)}, look-back + fallback (spin ${spin})${scalar ? ', u32 loads and stores' : ''}`,
          items: n,
          times,
          bytes: 8 * n,
          counted: 'read + written',
          check,
        });
        log(`scan ${shape} done`);
      }
    // The same scan from @syclts/algorithms (scan.sycl.ts), u32 addition (its constants' defaults).
    for (const lowering of lowerings) {
      // The package's tiles: 8192 elements (scan.sycl.ts's TILE).
      const tiles = Math.ceil(n / 8192);
      const input = storage(device, 4 * n);
      const output = storage(device, 4 * n);
      const state = storage(device, 4 * (2 + 2 * tiles));
      device.queue.writeBuffer(input, 0, values);
      device.queue.writeBuffer(output, 0, new Uint32Array(n).fill(0xffffffff));
      const [gx, gy] = grid(tiles);
      const r = await directLaunch(
        device,
        scanTiles,
        lowering,
        [tiles * 256],
        [256],
        { src: input, dst: output, state },
        { n, tiles, init: 0, id: 0 },
        { grid: [gx, gy, 1], constants: [[scanSpin, spin]] },
      );
      const record: Parameters<typeof timePasses>[1] = (e, timed) => {
        e.clearBuffer(state);
        r.record(e, timed);
      };
      const encoder = device.createCommandEncoder();
      record(encoder, () => ({}));
      device.queue.submit([encoder.finish()]);
      const check = await verify(log, async () => {
        const got = new Uint32Array(await readBack(device, output, 4 * n));
        checkExclusiveScan(`syclts scan ${lowering}`, got, values);
        const words = new Uint32Array(await readBack(device, state, 4 * (2 + 2 * tiles)));
        return `all ${n} entries; checked run: ${words[1 + 2 * tiles]} fallbacks, ${tiles} tiles`;
      });
      const times = await time(record);
      for (const b of [input, output, state]) b.destroy();
      rows.push({
        operation: `exclusive scan u32 2^${log2}`,
        variant: `syclts exclusiveScan (@syclts/algorithms), ${lowering === 'subgroups' ? 'subgroup' : 'workgroup'} lowering (spin ${spin})`,
        items: n,
        times,
        bytes: 8 * n,
        counted: 'read + written',
        check,
      });
      log(`syclts scan ${lowering} done`);
    }
  }

  if (options.rows.includes('sort')) {
    const keysN = 2 ** Math.max(0, log2 - 2);
    // Keys per item (BENCH_SORT_KEYS_PER_ITEM, default 8: tiles of 2048 keys).
    const keysPerItem = Number(process.env.BENCH_SORT_KEYS_PER_ITEM) || 8;
    const keys = randomWords(keysN);
    const sum = sumU32(keys);
    for (const values of [false, true]) {
      const s = await prepareSort(device, keysN, { shape: shapes[0]!, values, keysPerItem });
      // Every run sorts the same random keys, copied in before its first (timed) pass: sorted keys
      // would scatter in long runs, faster than a sort's real input.
      const pristine = device.createBuffer({
        size: s.keys.size,
        usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(pristine, 0, keys);
      const record: Parameters<typeof timePasses>[1] = (e, timed) => {
        e.copyBufferToBuffer(pristine, 0, s.keys, 0, s.keys.size);
        if (s.values) e.copyBufferToBuffer(pristine, 0, s.values, 0, s.keys.size);
        s.record(e, timed);
      };
      const encoder = device.createCommandEncoder();
      record(encoder, () => ({}));
      device.queue.submit([encoder.finish()]);
      const check = await verify(log, async () => {
        const got = new Uint32Array(await readBack(device, s.keys, 4 * keysN));
        checkSorted('sort', got, sum);
        if (s.values) {
          const moved = new Uint32Array(await readBack(device, s.values, 4 * keysN));
          for (let i = 0; i < keysN; i++) {
            if (moved[i] !== got[i]) fail(`sort: value ${i} apart from its key`);
          }
        }
        return `sorted, sum of keys${values ? ', values with keys' : ''}`;
      });
      const times = await time(record);
      s.destroy();
      pristine.destroy();
      rows.push({
        operation: `radix sort u32 2^${log2 - 2}`,
        variant: `${values ? 'key-value' : 'keys'}, LSD 8-bit, tiles of ${256 * keysPerItem}`,
        items: keysN,
        times,
        bytes: (values ? 16 : 8) * keysN,
        counted: 'keys (and values) read + written once',
        keys: keysN / times.median / 1e-6,
        check,
      });
      log(`sort ${values ? 'key-value' : 'keys'} done`);
    }
    // The same sort from @syclts/algorithms, through the runtime as an app calls it: rounds of
    // SORTS sorts issued back to back on an ordinary queue (its launches batched as an app's
    // are), every compute pass the runtime records timed on the GPU (the bench device's pass
    // timer); a round's figure is the GPU time of its passes over SORTS, beside its host time,
    // issue to completion, over SORTS. Each sort's keys are fresh random words, copied in on the
    // GPU from buffers filled once; before each timed round the same sorts run untimed for
    // 300 ms, so that the GPU's clock has risen from idle (as timePasses warms up).
    const SORTS = 8;
    const ROUNDS = 5;
    const queue = await Queue.create({ device });
    for (const values of [false, true]) {
      const pristine = Array.from({ length: SORTS }, () => {
        const buffer = device.createBuffer({
          size: 4 * keysN,
          usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
        });
        device.queue.writeBuffer(buffer, 0, randomWords(keysN));
        return buffer;
      });
      const runs = pristine.map(() => ({
        keys: queue.buffer(u32, keysN),
        values: values ? queue.buffer(u32, keysN) : undefined,
      }));
      const fresh = () => {
        const encoder = device.createCommandEncoder();
        for (const [i, run] of runs.entries()) {
          encoder.copyBufferToBuffer(pristine[i]!, 0, run.keys.gpuBuffer, 0, 4 * keysN);
          // Values: another sort's keys, so that none moves with a copy of itself.
          const other = pristine[(i + 1) % SORTS]!;
          if (run.values) encoder.copyBufferToBuffer(other, 0, run.values.gpuBuffer, 0, 4 * keysN);
        }
        device.queue.submit([encoder.finish()]);
      };
      const sortAll = () => {
        const sorts = runs.map((run) =>
          sort(queue, run.keys, run.values ? { values: run.values } : {}),
        );
        return sorts.at(-1)!.wait();
      };
      const sum = sumU32(new Uint32Array(await readBack(device, pristine[0]!, 4 * keysN)));
      const gpuUs: number[] = [];
      const hostUs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const start = performance.now(); performance.now() - start < 300; ) {
          fresh();
          await sortAll();
        }
        // One more untimed round with the timer armed: the runtime opens the pass the timed round
        // starts in after its wait, and only passes begun armed are timed.
        options.timer.arm('warm');
        fresh();
        await sortAll();
        options.timer.label = 'timed';
        // The keys are copied in before the host's clock starts.
        fresh();
        await device.queue.onSubmittedWorkDone();
        const t0 = performance.now();
        await sortAll();
        hostUs.push(((performance.now() - t0) * 1000) / SORTS);
        const timed = (await options.timer.collectLabelled()).get('timed') ?? [];
        gpuUs.push(timed.reduce((a, b) => a + b, 0) / SORTS);
      }
      const check = await verify(log, async () => {
        checkSorted('syclts sort', await runs[0]!.keys.read(), sum);
        return `sorted, sum of keys${values ? ' (values not checked here: see the package tests)' : ''}; host time issue to completion ${hostUs.map((us) => (us / 1000).toFixed(2)).join(', ')} ms a sort`;
      });
      const times = summarize(gpuUs, true);
      for (const run of runs) {
        run.keys.destroy();
        run.values?.destroy();
      }
      for (const buffer of pristine) buffer.destroy();
      rows.push({
        operation: `radix sort u32 2^${log2 - 2}`,
        variant: `syclts sort (@syclts/algorithms), ${values ? 'key-value' : 'keys'}, through the runtime (GPU time of its passes, ${ROUNDS} rounds of ${SORTS} sorts, each after 300 ms of them untimed)`,
        items: keysN,
        times,
        bytes: (values ? 16 : 8) * keysN,
        counted: 'keys (and values) read + written once',
        keys: keysN / times.median / 1e-6,
        check,
      });
      log(`syclts sort ${values ? 'key-value' : 'keys'} done`);
    }
    await queue.destroy();
  }

  if (options.rows.includes('group')) {
    const words = randomWords(n);
    const floats = unitFloats(words, 0);
    const POISON = 0xffffffff;
    /**
     * A sample of 256 groups checked against the CPU (every group would take minutes on the host
     * at 2^28). A work-group is 256 elements; a sub-group's size is read off the output: its
     * reduce writes each sub-group's first element only, and its scan is 0 again at the second
     * sub-group's first element.
     */
    const checkGroups = (op: GroupOp, scope: GroupScope, what: string, got: ArrayBuffer) => {
      const bits = new Uint32Array(got);
      const sums = new Float32Array(got);
      let size = WG_ITEMS;
      if (scope === 'sub-group') {
        size = 1;
        if (op === 'reduce') while (size < 1024 && bits[size] === POISON) size++;
        else while (size < 1024 && bits[size] !== 0) size++;
        if (size === 1024 || WG_ITEMS % size !== 0) {
          fail(`${what}: no sub-group size found (${size})`);
        }
      }
      for (let k = 0; k < 256; k++) {
        const group = Math.floor(Math.random() * (n / size));
        const first = size * group;
        if (op === 'reduce') {
          // A work-group's sum is at its group's index, a sub-group's at its first element's.
          const at = scope === 'work-group' ? group : first;
          let ref = 0;
          for (let i = 0; i < size; i++) ref += floats[first + i]!;
          if (!(Math.abs(sums[at]! - ref) <= 1e-5 * size)) fail(`${what}: group at ${first}`);
          if (scope === 'sub-group' && size > 1 && bits[first + 1] !== POISON) {
            fail(`${what}: ${first + 1} written`);
          }
        } else {
          let sum = 0;
          for (let i = 0; i < size; i++) {
            if (bits[first + i] !== sum) fail(`${what}: group at ${first}, item ${i}`);
            sum = (sum + words[first + i]!) >>> 0;
          }
        }
      }
      return `256 random ${scope === 'work-group' ? 'groups' : `sub-groups of ${size}`}`;
    };
    /** Fills, checks, times and frees one kernel of a group row. */
    const groupRow = async (op: GroupOp, scope: GroupScope, variant: string, g: GroupRun) => {
      const outputs = groupOutputs(n, op, scope);
      device.queue.writeBuffer(g.input, 0, op === 'reduce' ? floats : words);
      device.queue.writeBuffer(g.output, 0, new Uint32Array(outputs).fill(POISON));
      const encoder = device.createCommandEncoder();
      g.record(encoder);
      device.queue.submit([encoder.finish()]);
      const check = await verify(log, async () =>
        checkGroups(
          op,
          scope,
          `${scope} ${op} ${variant}`,
          await readBack(device, g.output, 4 * outputs),
        ),
      );
      const times = await time((e, timed) => g.record(e, timed));
      g.destroy();
      const workGroupReduce = op === 'reduce' && scope === 'work-group';
      rows.push({
        operation: `${scope} ${op} ${op === 'reduce' ? 'f32' : 'u32'} 2^${log2}`,
        variant,
        items: n,
        times,
        bytes: workGroupReduce ? 4 * n + n / 64 : op === 'reduce' ? 4 * n : 8 * n,
        counted:
          op === 'scan'
            ? 'read + written'
            : workGroupReduce
              ? 'read + sums written'
              : 'read (sums written besides)',
        check,
      });
      log(`${scope} ${op} ${variant} done`);
    };
    // Hand-written in each shape (sub-group functions with sub-group built-ins only), then the
    // same functions written with syclts (reduceOverGroup, exclusiveScanOverGroup) on
    // item.getGroup() or item.getSubGroup(), in each lowering.
    const kernels = {
      'work-group': { reduce: groupSum, scan: groupScan, on: '' },
      'sub-group': { reduce: subGroupSum, scan: subGroupScan, on: '(item.getSubGroup())' },
    } as const;
    for (const scope of ['work-group', 'sub-group'] as const) {
      for (const op of ['reduce', 'scan'] as const) {
        for (const shape of shapes) {
          if (scope === 'sub-group' && shape !== 'subgroup') continue;
          await groupRow(op, scope, shape, await prepareGroup(device, n, op, shape, scope));
        }
        for (const lowering of lowerings) {
          const input = storage(device, 4 * n);
          const output = storage(device, 4 * groupOutputs(n, op, scope));
          const [gx, gy] = grid(n / 256);
          const g = await directLaunch(
            device,
            kernels[scope][op],
            lowering,
            [gy, gx * 256],
            [1, 256],
            { src: input, dst: output },
            { n },
          );
          const shape = lowering === 'subgroups' ? 'subgroup' : 'workgroup';
          const name = op === 'reduce' ? 'reduceOverGroup' : 'exclusiveScanOverGroup';
          await groupRow(op, scope, `syclts ${name}${kernels[scope].on}, ${shape} lowering`, {
            input,
            output,
            record: (e, timed) => g.record(e, timed),
            destroy: () => {
              input.destroy();
              output.destroy();
            },
          });
        }
      }
    }
  }
  return rows;
}

/** Items of a work-group of the group rows: a sub-group's size divides it. */
const WG_ITEMS = 256;
