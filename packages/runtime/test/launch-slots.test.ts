/**
 * Launch slots: small launches of one kernel in one batch share a bind call and find their own
 * values through the batch's slot table; large ones, and those past the table's room, bind their
 * own record. Each must see its own values whichever way it went.
 */
import { describe, expect, test } from 'vitest';
import type { Queue } from '../src/index.js';
import * as adaptiveModule from './fixtures/compiled/adaptive.sycl.js';
import * as argsModule from './fixtures/compiled/args.sycl.js';
import { factor, fill } from './fixtures/fill.js';
import { accumulate, scale, total } from './fixtures/globals.js';
import { compileFixture } from './support/compile.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

compileFixture('args', argsModule);
compileFixture('adaptive', adaptiveModule);
const { affine } = argsModule;
const { window, bias } = adaptiveModule;

/**
 * `affine` over 100 items (2 workgroups: a small launch, its value arguments its record) with
 * values drawn from `k`; returns the check of its output.
 */
function launchAffine(q: Queue, k: number): () => Promise<void> {
  const x = Float32Array.from({ length: 100 }, (_, j) => j - 50);
  const src = q.buffer(x, { access: 'read' });
  const dst = q.buffer(new Float32Array(100).fill(Number.NaN), { access: 'write' });
  q.parallelFor(100, affine, {
    src,
    dst,
    n: 1,
    scale: k / 8,
    neg: false,
    offset: [0, k],
    pick: [0, 0, k % 97, 0],
  });
  return async () => {
    const want = Array.from(x, (v) => Math.fround(v * Math.fround(k / 8)) + k + (k % 97));
    expect(Array.from(await dst.read()), `affine, k ${k}`).toEqual(want);
  };
}

/** Counts the queue's setBindGroup calls from now on. */
function countBindCalls(q: Queue): { readonly calls: number } {
  const counter = { calls: 0 };
  const device = q.device;
  const create = device.createCommandEncoder.bind(device);
  device.createCommandEncoder = (descriptor) => {
    const encoder = create(descriptor);
    const begin = encoder.beginComputePass.bind(encoder);
    encoder.beginComputePass = (passDescriptor) => {
      const pass = begin(passDescriptor);
      const set = pass.setBindGroup.bind(pass) as (...args: unknown[]) => void;
      pass.setBindGroup = ((...args: unknown[]) => {
        counter.calls++;
        set(...args);
      }) as GPUComputePassEncoder['setBindGroup'];
      return pass;
    };
    return encoder;
  };
  return counter;
}

test('small emulated launches with new values each share the bind call before them', async () => {
  const q = await freshQueue({ specConstants: 'emulated' });
  const input = q.buffer(
    Uint32Array.from(randomU32(8, 700), (x) => x % 1000),
    { access: 'read' },
  );
  q.parallelFor(8, accumulate, { input });
  await q.wait();
  await q.copy(new Array<number>(8).fill(0), total).wait();
  const bindCalls = countBindCalls(q);
  const scales = Array.from(randomU32(100, 701), (x) => 1 + (x % 50));
  for (const s of scales) {
    q.submit((cgh) => {
      cgh.setSpecializationConstant(scale, s);
      cgh.parallelFor(8, accumulate, { input });
    });
  }
  const after = new Array<number>(8).fill(POISON);
  await q.copy(total, after).wait();
  const sum = scales.reduce((a, b) => a + b, 0);
  expect(after).toEqual(Array.from(await input.read(), (x) => x * sum));
  // Batches of 16, 32 and 52 launches; a chunk holds 64 records: a bind call per batch at most
  // (the first batch's pass was opened before the count began).
  expect(bindCalls.calls).toBeGreaterThan(0);
  expect(bindCalls.calls).toBeLessThanOrEqual(3);
});

describe.each(['native', 'emulated'] as const)('one task of mixed launches (%s)', (policy) => {
  test('small, large and value-argument launches each see their own values', async () => {
    const q = await freshQueue({ specConstants: policy });
    const draws = randomU32(200, 710);
    type Check = () => Promise<void>;
    const checks: Check[] = [];
    for (let i = 0; i < 200; i++) {
      const k = 1 + (draws[i]! % 5000);
      if (i % 4 === 1) {
        checks.push(launchAffine(q, k));
        continue;
      }
      // 96 items (2 workgroups), 4,096 (64: the most a slot takes) or 6,400 (100: bound alone).
      const n = i % 4 === 0 ? 96 : i % 4 === 2 ? 4096 : 6400;
      const out = q.buffer(new Uint32Array(n).fill(POISON));
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, k);
        cgh.parallelFor(n, fill, { out });
      });
      checks.push(async () => {
        const got = await out.read();
        const wrong = Array.from(got).findIndex((v, j) => v !== Math.imul(k, j) >>> 0);
        expect(wrong, `launch ${i} (${n} items, factor ${k})`).toBe(-1);
      });
    }
    await q.wait();
    for (const check of checks) await check();
  });

  test('more small arrivals than a batch table holds: the rest bind their own records', async () => {
    const q = await freshQueue({ specConstants: policy });
    const factors = Array.from(randomU32(250, 720), (x) => 1 + (x % 5000));
    // 64 workgroups each: the fourth batch's 128 launches bring 8,192 arrivals, twice the table.
    const outs = factors.map(() => q.buffer(new Uint32Array(4096).fill(POISON)));
    for (const [i, k] of factors.entries()) {
      q.submit((cgh) => {
        cgh.setSpecializationConstant(factor, k);
        cgh.parallelFor(4096, fill, { out: outs[i]! });
      });
    }
    await q.wait();
    for (const [i, k] of factors.entries()) {
      const got = await outs[i]!.read();
      const wrong = Array.from(got).findIndex((v, j) => v !== Math.imul(k, j) >>> 0);
      expect(wrong, `launch ${i}, factor ${k}`).toBe(-1);
    }
  });
});

test('launches that bind their own record run pipelines without the launch-slot code from the second on: in one dispatch without the group offset, split with it; the same results', async () => {
  const q = await freshQueue({ specConstants: 'emulated' });
  const device = q.device;
  const create = device.createComputePipelineAsync.bind(device);
  const made: { kind: string; constants: unknown; pipeline: Promise<GPUComputePipeline> }[] = [];
  device.createComputePipelineAsync = (descriptor) => {
    const pipeline = create(descriptor);
    const kind = /one dispatch|no launch slots/.exec(descriptor.label ?? '')?.[0];
    if (kind) made.push({ kind, constants: descriptor.compute.constants, pipeline });
    return pipeline;
  };
  const fillWith = (k: number, n: number) => {
    const out = q.buffer(new Uint32Array(n).fill(POISON));
    q.submit((cgh) => {
      cgh.setSpecializationConstant(factor, k);
      cgh.parallelFor(n, fill, { out });
    });
    return async () => {
      const got = await out.read();
      const wrong = Array.from(got).findIndex((v, j) => v !== Math.imul(k, j) >>> 0);
      expect(wrong, `${n} items, factor ${k}`).toBe(-1);
    };
  };
  const [k0, k1, k2, k3, k4, k5, k6, k7] = Array.from(randomU32(8, 730), (x) => 1 + (x % 5000));
  // 6,400 items (100 workgroups) bind their own record: the second such launch asks for the
  // pipeline of one dispatch (one launch alone, as of a value set seen once, does not).
  const once = fillWith(k0!, 6400);
  await q.wait();
  await once();
  expect(made).toEqual([]);
  const second = fillWith(k1!, 6400);
  await q.wait();
  await second();
  expect(made.map((m) => [m.kind, m.constants])).toEqual([
    ['one dispatch', { launch_slots_on: 0, group_offsets_on: 0 }],
  ]);
  await made[0]!.pipeline;
  // Now with it: a large launch, beside small ones that take slots (the first pipeline).
  const checks = [fillWith(k2!, 6400), fillWith(k3!, 96), fillWith(k4!, 4096)];
  await q.wait();
  for (const check of checks) await check();
  expect(made).toHaveLength(1);
  // Past the dispatch limit: split in two, each dispatch with its group offset.
  const split = device.limits.maxComputeWorkgroupsPerDimension * 64 + 300;
  const dispatches = q.stats.dispatches;
  for (const k of [k5!, k6!]) {
    const check = fillWith(k, split);
    await q.wait();
    await check();
  }
  expect(q.stats.dispatches - dispatches).toBe(4);
  expect(made.map((m) => [m.kind, m.constants])).toEqual([
    ['one dispatch', { launch_slots_on: 0, group_offsets_on: 0 }],
    ['no launch slots', { launch_slots_on: 0 }],
  ]);
  await made[1]!.pipeline;
  const after = fillWith(k7!, split);
  await q.wait();
  await after();
  expect(made).toHaveLength(2);
});

test('a batch whose only slotted launches are the first records of their chunks writes no slot table; with others it does; each launch sees its own values', async () => {
  const q = await freshQueue({ specConstants: 'emulated' });
  const device = q.device;
  const write = device.queue.writeBuffer.bind(device.queue) as (...args: unknown[]) => void;
  let tableWrites = 0;
  device.queue.writeBuffer = ((buffer: GPUBuffer, ...rest: unknown[]) => {
    if (buffer.label === 'syclts launch slots') tableWrites++;
    write(buffer, ...rest);
  }) as GPUQueue['writeBuffer'];
  // 96 items, 2 workgroups of `fill`, whose one launch record the batch shares (no chunk of its own).
  const launchFill = (k: number) => {
    const out = q.buffer(new Uint32Array(96).fill(POISON));
    q.submit((cgh) => {
      cgh.setSpecializationConstant(factor, k);
      cgh.parallelFor(96, fill, { out });
    });
    return async () => {
      const got = await out.read();
      expect(
        Array.from(got).findIndex((v, j) => v !== Math.imul(k, j) >>> 0),
        `fill, factor ${k}`,
      ).toBe(-1);
    };
  };
  // 96 items of `window`: value arguments in its record and a constant in its emulation record,
  // each record in a chunk of its own (uploaded as far as written).
  const launchWindow = (b: number) => {
    const input = randomU32(80, b);
    const src = q.buffer(input, { access: 'read' });
    const dst = q.buffer(new Uint32Array(96).fill(POISON), { access: 'write' });
    q.submit((cgh) => {
      cgh.setSpecializationConstant(bias, b);
      cgh.parallelFor(96, window, {
        src,
        dst,
        len: 80,
        taps: 3,
        shift: 1,
        flip: false,
        d: 7,
        gain: 2.5,
      });
    });
    return async () => {
      const want = Array.from({ length: 96 }, (_, i) => {
        let sum = 0;
        for (let k = 0; k < 3; k++) sum = (sum + (((input[(i + k) % 80]! >>> 1) ^ b) >>> 0)) >>> 0;
        return (sum + 14 + 2) >>> 0;
      });
      expect(Array.from(await dst.read()), `window, bias ${b}`).toEqual(want);
    };
  };
  const ks = Array.from(randomU32(8, 740), (x) => 1 + (x % 5000));
  // Three in one batch: the second and third take slots, so the table is written (entries for
  // records 0, 1 and 2, left behind in the table's buffer).
  const three = [launchAffine(q, ks[0]!), launchAffine(q, ks[1]!), launchAffine(q, ks[2]!)];
  await q.wait();
  for (const check of three) await check();
  expect(tableWrites).toBe(1);
  // A first record beside a launch that reads the shared record by slot: the table again, with
  // fewer entries (a kernel reading the table past them would find those of records 1 and 2).
  const mixed = [launchAffine(q, ks[3]!), launchFill(ks[4]!)];
  await q.wait();
  for (const check of mixed) await check();
  expect(tableWrites).toBe(2);
  // One small launch of each kernel per batch: record 0 of its chunk, read in slot mode 0, no table.
  for (const k of ks.slice(5)) {
    for (const check of [launchAffine(q, k), launchWindow(k * 7919)]) {
      await q.wait();
      await check();
    }
  }
  expect(tableWrites).toBe(2);
});
