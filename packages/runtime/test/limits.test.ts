/**
 * Kernels that need more than WebGPU's default limits: within the adapter's maxima (which
 * `Queue.create` requests) they run; beyond them, or on a device created with the defaults, the
 * runtime refuses them with a `SyclError` before WebGPU would raise a validation error. A large
 * device global's few initial values reach the device.
 */
import {
  accessor,
  array,
  deviceGlobal,
  kernel,
  specializationId,
  struct,
  u32,
  workgroupArray,
} from '@syclts/dsl';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  build,
  errc,
  getKernelBundle,
  ndRange,
  type Queue,
  requestAdapter,
  SyclError,
} from '../src/index.js';
import { compileSources } from './support/compile.js';
import { freshQueue, POISON, randomU32 } from './support/gpu.js';

const MODULE = 'src/limits.sycl.ts';
const GROUP = 64;

/** A kernel whose workgroup array takes `bytes` of workgroup memory, declaring `declared`. */
function sharedKernel(bytes: number, declared: number) {
  const length = bytes / 4;
  // Each item writes both ends of the array and reads its mirror's: the array's far end is used.
  const source = `import { accessor, kernel, u32, workgroupArray } from '@syclts/dsl';
export const shared = kernel(
  { ndRange: 1, workgroupSize: [${GROUP}], requiredLimits: { maxComputeWorkgroupStorageSize: ${declared} },
    args: { out: accessor(u32, 'write'), src: accessor(u32, 'read') }, local: { tile: workgroupArray(u32, ${length}) } },
  (item, _kh, { out, src }, { tile }) => {
    const l = item.getLocalId(0);
    const v = src[item.getGlobalId(0)]!;
    tile[l] = v + 1;
    tile[${length - 1} - l] = v * 3;
    item.barrier();
    out[item.getGlobalId(0)] = tile[${GROUP - 1} - l]! + tile[${length - GROUP} + l]!;
  });
`;
  const shared = kernel(
    {
      ndRange: 1,
      workgroupSize: [GROUP],
      args: { out: accessor(u32, 'write'), src: accessor(u32, 'read') },
      local: { tile: workgroupArray(u32, length) },
    },
    () => {},
  );
  compileSources([{ module: MODULE, source, exports: { shared } }]);
  return shared;
}

function caught(run: () => unknown): SyclError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SyclError);
    return error as SyclError;
  }
  throw new Error('expected a SyclError');
}

let adapterMax = 0;
beforeAll(async () => {
  const { adapter } = await requestAdapter();
  adapterMax = adapter.limits.maxComputeWorkgroupStorageSize;
});

describe('requiredLimits', () => {
  test('a kernel needing more workgroup memory than the default, within the adapter, runs right', async () => {
    // The test is only meaningful where the adapter offers more than the default. (An array of
    // the adapter's whole 32 KiB takes SwiftShader half a minute to compile: 17 KiB shows it.)
    expect(adapterMax).toBeGreaterThanOrEqual(17408);
    const shared = sharedKernel(17408, adapterMax);
    const q = await freshQueue();
    const n = GROUP * 2;
    const input = randomU32(n, 301);
    const src = q.buffer(Uint32Array.from(input), { access: 'read' });
    const out = q.buffer(new Uint32Array(n).fill(POISON));
    await q.parallelFor(ndRange([n], [GROUP]), shared, { out, src }).wait();
    // tile[63 - l] is the mirror item's v + 1; tile[length - 64 + l] is its v * 3 too.
    const expected = Array.from(input, (_, g) => {
      const mirror = input[g - (g % GROUP) + (GROUP - 1 - (g % GROUP))]!;
      return (mirror + 1 + mirror * 3) >>> 0;
    });
    expect(Array.from(await out.read())).toEqual(expected);
  });

  test('a kernel declaring more than the adapter offers is refused, naming the limit', async () => {
    const shared = sharedKernel(16384, adapterMax + 1024);
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(GROUP).fill(POISON));
    const src = q.buffer(new Uint32Array(GROUP), { access: 'read' });
    const error = caught(() => q.parallelFor(ndRange([GROUP], [GROUP]), shared, { out, src }));
    expect(error.errc).toBe(errc.kernelNotSupported);
    expect(error.message).toContain(`kernel ${MODULE}#shared`);
    expect(error.message).toContain(
      `needs maxComputeWorkgroupStorageSize ${adapterMax + 1024} (its requiredLimits), but the device offers ${adapterMax}`,
    );
    expect(Array.from(await out.read())).toEqual(new Array(GROUP).fill(POISON));
  });

  test('a device the caller created with default limits refuses the kernel', async () => {
    const shared = sharedKernel(adapterMax, adapterMax);
    const { adapter } = await requestAdapter();
    const device = await adapter.requestDevice();
    let q: Queue | null = null;
    try {
      q = await freshQueue({ device });
      const out = q.buffer(new Uint32Array(GROUP).fill(POISON));
      const src = q.buffer(new Uint32Array(GROUP), { access: 'read' });
      const error = caught(() => q!.parallelFor(ndRange([GROUP], [GROUP]), shared, { out, src }));
      expect(error.errc).toBe(errc.kernelNotSupported);
      expect(error.message).toContain(
        `needs maxComputeWorkgroupStorageSize ${adapterMax} (its requiredLimits), but the device offers 16384`,
      );
    } finally {
      device.destroy();
    }
  });
});

describe('a workgroup size set at run time', () => {
  test('beyond the device is refused before the pipeline is created; within it runs', async () => {
    const source = `import { accessor, kernel, specializationId, u32 } from '@syclts/dsl';
export const tile = specializationId(u32, 64);
export const sized = kernel(
  { ndRange: 1, workgroupSize: [tile], args: { out: accessor(u32, 'write') } },
  (item, _kh, { out }) => { out[item.getGlobalId(0)] = item.getLocalId(0) + 7; });
`;
    const tile = specializationId(u32, 64);
    const sized = kernel(
      { ndRange: 1, workgroupSize: [tile], args: { out: accessor(u32, 'write') } },
      () => {},
    );
    compileSources([{ module: MODULE, source, exports: { tile, sized } }]);
    const q = await freshQueue();
    const { maxComputeWorkgroupSizeX, maxComputeInvocationsPerWorkgroup } = q.device.limits;
    const max = Math.max(maxComputeWorkgroupSizeX, maxComputeInvocationsPerWorkgroup);
    const out = q.buffer(new Uint32Array(max * 2).fill(POISON));
    const error = caught(() =>
      q.submit((cgh) => {
        cgh.setSpecializationConstant(tile, max * 2);
        cgh.parallelFor(ndRange([max * 2], [max * 2]), sized, { out });
      }),
    );
    expect(error.errc).toBe(errc.kernelNotSupported);
    expect(error.message).toContain(
      `kernel ${MODULE}#sized needs maxComputeWorkgroupSizeX ${max * 2} (its workgroup size [${max * 2}, 1, 1]`,
    );
    expect(error.message).toContain(
      `but the device offers ${q.device.limits.maxComputeWorkgroupSizeX}`,
    );
    const zero = caught(() =>
      q.submit((cgh) => {
        cgh.setSpecializationConstant(tile, 0);
        cgh.parallelFor(ndRange([64], [64]), sized, { out });
      }),
    );
    expect(zero.errc).toBe(errc.invalid);
    expect(zero.message).toBe(
      `handler.parallelFor: kernel ${MODULE}#sized: its workgroup size [0, 1, 1] (WGSL order x, y, z) from specialization constants: each dimension is at least 1`,
    );
    expect(q.stats.pipelinesCreated).toBe(0);

    await q
      .submit((cgh) => {
        cgh.setSpecializationConstant(tile, 128);
        cgh.parallelFor(ndRange([256], [128]), sized, { out });
      })
      .wait();
    const got = Array.from(await out.read()).slice(0, 256);
    expect(got).toEqual(Array.from({ length: 256 }, (_, i) => (i % 128) + 7));
  });
});

describe('workgroup memory sized at run time', () => {
  test('beyond the device, or empty, is refused before the pipeline is created; within it runs', async () => {
    // tile: rows x stride u32, both factors specialization constants.
    const source = `import { accessor, kernel, specializationId, u32, workgroupArray } from '@syclts/dsl';
export const rows = specializationId(u32, 8);
export const stride = specializationId(u32, 9);
export const staged = kernel(
  { ndRange: 1, workgroupSize: [64], args: { out: accessor(u32, 'write') },
    local: { tile: workgroupArray(u32, rows, stride) } },
  (item, kh, { out }, { tile }) => {
    const l = item.getLocalId(0);
    const last = kh.getSpecializationConstant(rows) * kh.getSpecializationConstant(stride) - 1;
    tile[l] = l * 5;
    tile[last - l] = l + 1000;
    item.barrier();
    out[item.getGlobalId(0)] = tile[63 - l]! + tile[last - 63 + l]!;
  });
`;
    const rows = specializationId(u32, 8);
    const stride = specializationId(u32, 9);
    const staged = kernel(
      {
        ndRange: 1,
        workgroupSize: [64],
        args: { out: accessor(u32, 'write') },
        local: { tile: workgroupArray(u32, rows, stride) },
      },
      () => {},
    );
    compileSources([{ module: MODULE, source, exports: { rows, stride, staged } }]);
    const q = await freshQueue();
    const limit = q.device.limits.maxComputeWorkgroupStorageSize;
    const out = q.buffer(new Uint32Array(64).fill(POISON));
    const launch = (r: number, s: number) =>
      q.submit((cgh) => {
        cgh.setSpecializationConstant(rows, r);
        cgh.setSpecializationConstant(stride, s);
        cgh.parallelFor(ndRange([64], [64]), staged, { out });
      });
    // One row past the device's workgroup memory.
    const over = limit / 4 / 64 + 1;
    const error = caught(() => launch(over, 64));
    expect(error.errc).toBe(errc.kernelNotSupported);
    expect(error.message).toBe(
      `handler.parallelFor: kernel ${MODULE}#staged needs maxComputeWorkgroupStorageSize ${over * 64 * 4} (its workgroup arrays from specialization constants, in bytes: tile ${over * 64 * 4}), but the device offers ${limit}: run it on a device whose limits allow it (Queue.create asks the adapter for its maxima; a device the caller creates must request them in requiredLimits)`,
    );
    const empty = caught(() => launch(0, 64));
    expect(empty.errc).toBe(errc.invalid);
    expect(empty.message).toBe(
      `handler.parallelFor: kernel ${MODULE}#staged: its specialization constants give workgroup array 'tile' 0 elements; a workgroup array holds at least one`,
    );
    expect(q.stats.pipelinesCreated).toBe(0);
    expect(Array.from(await out.read())).toEqual(new Array(64).fill(POISON));
    // A kernel bundle built with those values: the same refusal from build, no pipeline made.
    const input = getKernelBundle(q, { state: 'input', kernels: [staged] });
    input.setSpecializationConstant(rows, over);
    input.setSpecializationConstant(stride, 64);
    const built = await build(input).then(
      () => null,
      (e: unknown) => e,
    );
    expect(built).toBeInstanceOf(SyclError);
    expect((built as SyclError).errc).toBe(errc.kernelNotSupported);
    expect((built as SyclError).message).toMatch(
      new RegExp(
        `^build: kernel ${MODULE}#staged needs maxComputeWorkgroupStorageSize ${over * 64 * 4} `,
      ),
    );
    expect(q.stats.pipelinesCreated).toBe(0);

    // Within the limit: 16 x 9 u32.
    await launch(16, 9).wait();
    const last = 16 * 9 - 1;
    expect(Array.from(await out.read())).toEqual(
      Array.from({ length: 64 }, (_, l) => (63 - l) * 5 + (last - (last - 63 + l)) + 1000),
    );
  });
});

describe('a 16 MiB device global', () => {
  test('its few initial values reach the device, the rest is zero, and it copies back whole', async () => {
    const body = (16 * 1024 * 1024) / 4 - 8;
    const [h0, h2, tail, k] = randomU32(4, 302);
    const source = `import { accessor, array, deviceGlobal, kernel, struct, u32 } from '@syclts/dsl';
const Big = struct({ head: array(u32, 4), body: array(u32, ${body}), tail: u32 });
export const big = deviceGlobal(Big, {}, { head: [${h0}, 0, ${h2}], tail: ${tail} });
export const peek = kernel({ range: 1, args: { out: accessor(u32, 'write'), k: u32 } },
  (item, _kh, { out, k }) => { out[0] = big.value.tail + k; out[1] = big.value.head[2]! + big.value.body[${body - 1}]!; });
`;
    const Big = struct({ head: array(u32, 4), body: array(u32, body), tail: u32 });
    const big = deviceGlobal(Big);
    const peek = kernel({ range: 1, args: { out: accessor(u32, 'write'), k: u32 } }, () => {});
    compileSources([{ module: MODULE, source, exports: { big, peek } }]);
    const q = await freshQueue();
    const out = q.buffer(new Uint32Array(2).fill(POISON));
    await q.parallelFor(1, peek, { out, k: k! }).wait();
    expect(Array.from(await out.read())).toEqual([(tail! + k!) >>> 0, h2]);

    const bytes = new Uint8Array(16 * 1024 * 1024).fill(0xef);
    await q.memcpy(bytes, big).wait();
    // The struct's words (its size pads to 16 bytes; the padding is not its value).
    const words = new Uint32Array(bytes.buffer, 0, 4 + body + 1);
    const expected = new Uint32Array(words.length);
    expected.set([h0!, 0, h2!, 0]);
    expected[4 + body] = tail!;
    // Compared as a whole; a mismatch names the first differing word.
    const first = words.findIndex((w, i) => w !== expected[i]);
    expect(first).toBe(-1);
  });
});
