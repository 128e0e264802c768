/**
 * f16: kernels run where the adapter offers `shader-f16` (SwiftShader, which CI uses, does not:
 * there only the refusal and the options are checked), and a kernel using f16 on a device
 * without the feature is refused by name.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errc, isSupported, Queue, requestAdapter, SyclError } from '../src/index.js';
import { F16_CHECKS } from './f16/checks.js';
import * as half from './fixtures/compiled/half.sycl.js';
import { compileFixture } from './support/compile.js';
import { freshQueue, randomU32 } from './support/gpu.js';

/** What lets Dawn offer `shader-f16` on NVIDIA through Vulkan; elsewhere they change nothing. */
const F16_TOGGLES = { enable: ['vulkan_enable_f16_on_nvidia'] };

let offered: Queue;

beforeAll(async () => {
  compileFixture('half', half);
  offered = await freshQueue({ dawnToggles: F16_TOGGLES });
  const has = offered.device.features.has('shader-f16');
  console.log(
    `[syclts] ${offered.adapterDescription}: shader-f16 ${has ? 'offered: f16 kernels run' : 'not offered: f16 kernels not run here'}`,
  );
});

describe.each(['native', 'emulated'] as const)('f16 kernels (%s constants)', (mode) => {
  let q: Queue;
  beforeAll(async () => {
    if (offered.device.features.has('shader-f16')) {
      q = await freshQueue({ dawnToggles: F16_TOGGLES, specConstants: mode });
    }
  });

  test.for(F16_CHECKS.map((check, i) => [check.name, check, i] as const))(
    '%s',
    async ([, check, i], { skip }) => {
      if (!q) skip('the adapter does not offer shader-f16');
      expect(await check.run(q, randomU32(1, 31 + i)[0]!)).toEqual([]);
    },
  );
});

describe('a device without shader-f16', () => {
  let plain: Queue;
  const devices: GPUDevice[] = [];
  beforeAll(async () => {
    const { adapter } = await requestAdapter();
    const device = await adapter.requestDevice();
    devices.push(device);
    plain = await Queue.create({ device });
  });
  afterAll(() => {
    for (const device of devices) device.destroy();
  });

  test('a kernel of an image that uses f16 fails to build, naming the kernel and f16', async () => {
    const out = plain.buffer(half.Mixed, 4);
    const event = plain.parallelFor(4, half.structs, {
      src: out,
      dst: out,
      params: { scale: 1, shift: [1, 1], n: 4 },
    });
    const error = await event.wait().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SyclError);
    expect(error).toMatchObject({ errc: errc.build });
    expect((error as SyclError).message).toMatch(
      /^src\/half\.sycl\.ts:\d+:\d+: kernel src\/half\.sycl\.ts#structs: creating its native pipeline failed: .*extension 'f16' is not allowed/,
    );
  });

  test('requiredFeatures against a caller-provided device is feature_not_supported', async () => {
    await expect(
      Queue.create({ device: devices[0]!, requiredFeatures: ['shader-f16'] }),
    ).rejects.toMatchObject({
      errc: errc.featureNotSupported,
      message: expect.stringContaining(
        "the GPUDevice passed as options.device does not offer the WebGPU feature 'shader-f16'",
      ),
    });
  });
});

describe('requiredFeatures and dawnToggles', () => {
  test('an adapter without a required feature is feature_not_supported, naming it', async () => {
    const { adapter } = await requestAdapter();
    const missing = (['shader-f16', 'texture-formats-tier2', 'float32-blendable'] as const).find(
      (f) => !adapter.features.has(f),
    );
    if (!missing) return;
    await expect(Queue.create({ requiredFeatures: [missing] })).rejects.toMatchObject({
      errc: errc.featureNotSupported,
      message: expect.stringContaining(`does not offer the WebGPU feature '${missing}'`),
    });
  });

  test('a required feature the adapter offers is on the device', async ({ skip }) => {
    const { adapter } = await requestAdapter();
    const taken = ['shader-f16', 'subgroups', 'subgroup-size-control', 'core-features-and-limits'];
    const extra = [...adapter.features].find((f) => !taken.includes(f)) as
      | GPUFeatureName
      | undefined;
    if (extra === undefined) {
      skip('the adapter offers no feature beyond those the runtime always takes');
      return;
    }
    const q = await freshQueue({ requiredFeatures: [extra] });
    expect(q.device.features.has(extra)).toBe(true);
  });

  test('dawnToggles reach Dawn: allow_unsafe_apis makes it offer experimental features', async () => {
    const plain = (await requestAdapter()).adapter.features;
    const { adapter } = await requestAdapter({ dawnToggles: { enable: ['allow_unsafe_apis'] } });
    expect([...adapter.features].filter((f) => !plain.has(f))).not.toEqual([]);
  });

  test('isSupported is false where no adapter offers a required feature', async ({ skip }) => {
    const { adapter } = await requestAdapter();
    if (adapter.features.has('shader-f16')) skip('the adapter offers shader-f16');
    expect(await isSupported({ requiredFeatures: ['shader-f16'] })).toBe(false);
  });

  test.each([
    [
      { requiredFeatures: 'shader-f16' },
      "requiredFeatures must be an array of WebGPU feature names, got 'shader-f16'",
    ],
    [{ dawnToggles: ['allow_unsafe_apis'] }, 'dawnToggles must be an object { enable?, disable? }'],
    [{ dawnToggles: { on: [] } }, "dawnToggles takes 'enable' and 'disable', not 'on'"],
    [
      { dawnToggles: { enable: 'allow_unsafe_apis' } },
      'dawnToggles.enable must be an array of toggle names',
    ],
    [
      { dawnToggles: { disable: ['ok', 'a,b'] } },
      "dawnToggles.disable[1] must be a Dawn toggle name in snake_case such as 'allow_unsafe_apis', got 'a,b'",
    ],
    [
      { dawnToggles: { enable: ['dump_shaders'], disable: ['dump_shaders'] } },
      "dawnToggles both enables and disables 'dump_shaders'",
    ],
  ])('%j is errc.invalid', async (options, message) => {
    await expect(Queue.create(options as never)).rejects.toMatchObject({
      errc: errc.invalid,
      message: expect.stringContaining(`Queue.create: ${message}`),
    });
  });
});
