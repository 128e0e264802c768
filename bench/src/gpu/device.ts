/**
 * The benchmark device: the adapter the runtime would choose (SYCLTS_ADAPTER applies), with
 * timestamp queries where the adapter has them, and GPU timestamps around every compute pass
 * recorded on it, including the passes the runtime records for its launches.
 */
import { execFileSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { requestAdapter } from '@syclts/runtime';
import { create, globals } from 'webgpu';

export interface BenchDevice {
  readonly device: GPUDevice;
  /** Vendor, architecture, description and driver as the adapter reports them. */
  readonly description: string;
  readonly timer: PassTimer;
}

/**
 * With SYCLTS_ADAPTER=hardware, a Dawn instance of its own with timestamp quantization off
 * (Dawn rounds timestamps to 2^16 ns by default, too coarse for kernels of a few hundred
 * microseconds); otherwise the runtime's adapter choice (SwiftShader here).
 */
async function chooseAdapter(): Promise<{ adapter: GPUAdapter; description: string }> {
  if (process.env.SYCLTS_ADAPTER !== 'hardware') return requestAdapter();
  // The baselines use WebGPU's globals (GPUShaderStage, ...), which only Dawn's module has in Node.
  Object.assign(globalThis, globals);
  const gpu = create([
    'enable-dawn-features=allow_unsafe_apis',
    'disable-dawn-features=timestamp_quantization',
  ]);
  keepAlive.push(gpu); // Dawn must not be collected while its devices live
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('benchDevice: no hardware adapter');
  const { vendor, architecture, description } = adapter.info;
  return { adapter, description: [vendor, architecture, description].filter(Boolean).join(' ') };
}
const keepAlive: GPU[] = [];

/** The GPU's marketing name from nvidia-smi, where there is one (Vulkan adapters name the driver). */
function gpuName(): string | null {
  try {
    return execFileSync('nvidia-smi', ['--query-gpu=name', '--format=csv,noheader'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return null;
  }
}

export async function benchDevice(): Promise<BenchDevice> {
  const { adapter, description } = await chooseAdapter();
  const timestamps = adapter.features.has('timestamp-query');
  const limits = adapter.limits;
  // Sub-groups for the hand-written collectives (bench/src/gpu/collectives/), where offered.
  const features: GPUFeatureName[] = [];
  if (timestamps) features.push('timestamp-query');
  if (adapter.features.has('subgroups')) features.push('subgroups' as GPUFeatureName);
  const device = await adapter.requestDevice({
    requiredFeatures: features,
    requiredLimits: {
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
      maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage,
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      maxComputeInvocationsPerWorkgroup: limits.maxComputeInvocationsPerWorkgroup,
    },
  });
  const name = gpuName();
  return {
    device,
    description: name ? `${name}, ${description}` : description,
    timer: new PassTimer(device, timestamps),
  };
}

/**
 * While armed, every compute pass begun on the device writes timestamps at its start and end
 * (WebGPU's timestampWrites), so launches are timed on the GPU whoever records them. A pass
 * holding several launches (the runtime records the launches issued together into one pass)
 * counts its dispatches, and each launch is given the pass's time divided by them. Without the
 * timestamp-query feature (software adapters), `collect` gives host times per dispatch instead:
 * wall time from arming to completion divided by the dispatches, good enough for checks.
 */
export class PassTimer {
  readonly gpu: boolean;
  readonly #device: GPUDevice;
  readonly #capacity = 256;
  readonly #querySet: GPUQuerySet | null;
  #passes = 0;
  /** Dispatches recorded in each timed pass. */
  #dispatches: number[] = [];
  #armed = false;
  #armedAt = 0;
  /**
   * The device's own createCommandEncoder, and the one that times passes: installed while armed
   * only, so that measurements of host costs pay nothing for it.
   */
  readonly #createEncoder: GPUDevice['createCommandEncoder'];
  readonly #timedEncoder: GPUDevice['createCommandEncoder'];

  constructor(device: GPUDevice, timestamps: boolean) {
    this.gpu = timestamps;
    this.#device = device;
    this.#querySet = timestamps
      ? device.createQuerySet({ type: 'timestamp', count: 2 * this.#capacity })
      : null;
    this.#createEncoder = device.createCommandEncoder;
    const createEncoder = this.#createEncoder.bind(device);
    this.#timedEncoder = (descriptor) => {
      const encoder = createEncoder(descriptor);
      const begin = encoder.beginComputePass.bind(encoder);
      encoder.beginComputePass = (pass) => {
        if (!this.#armed) return begin(pass);
        const index = this.#passes++;
        this.#dispatches[index] = 0;
        const timed =
          !this.#querySet || index >= this.#capacity
            ? begin(pass)
            : begin({
                ...pass,
                timestampWrites: {
                  querySet: this.#querySet,
                  beginningOfPassWriteIndex: 2 * index,
                  endOfPassWriteIndex: 2 * index + 1,
                },
              });
        const dispatch = timed.dispatchWorkgroups.bind(timed);
        timed.dispatchWorkgroups = (x, y, z) => {
          this.#dispatches[index]!++;
          dispatch(x, y, z);
        };
        return timed;
      };
      return encoder;
    };
  }

  arm(): void {
    this.#device.createCommandEncoder = this.#timedEncoder;
    this.#armed = true;
    this.#passes = 0;
    this.#dispatches = [];
    this.#armedAt = performance.now();
  }

  /** Disarms, waits for the device and returns each timed launch's duration in microseconds. */
  async collect(): Promise<number[]> {
    this.#armed = false;
    this.#device.createCommandEncoder = this.#createEncoder;
    const passes = Math.min(this.#passes, this.#capacity);
    await this.#device.queue.onSubmittedWorkDone();
    const counts = this.#dispatches.slice(0, passes);
    if (!this.#querySet) {
      const total = counts.reduce((a, b) => a + b, 0);
      const each = ((performance.now() - this.#armedAt) * 1000) / Math.max(1, total);
      return Array.from({ length: total }, () => each);
    }
    const bytes = 16 * passes;
    const resolved = this.#device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    const readable = this.#device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.#device.createCommandEncoder();
    encoder.resolveQuerySet(this.#querySet, 0, 2 * passes, resolved, 0);
    encoder.copyBufferToBuffer(resolved, 0, readable, 0, bytes);
    this.#device.queue.submit([encoder.finish()]);
    await readable.mapAsync(GPUMapMode.READ);
    const ticks = new BigUint64Array(readable.getMappedRange());
    const us = counts.flatMap((n, i) =>
      Array.from({ length: n }, () => Number(ticks[2 * i + 1]! - ticks[2 * i]!) / 1000 / n),
    );
    readable.destroy();
    resolved.destroy();
    return us;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

// A minor collection on demand (V8's `gc`, exposed at run time rather than by a node flag).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;

/**
 * Starts a measurement with an empty young generation: collects it, then lets the event loop run
 * what that left pending (the finalizers of the WebGPU wrappers it freed run a turn later). A batch
 * of launches measured after it pays for its own garbage only. Without it, the wrappers that the
 * one-submit-per-dispatch baseline drops (three per launch) were collected during whichever wait
 * came next: a stall of 4 to 10 ms on the host, charged to another row (NVIDIA H100, 2026-11-23).
 */
export async function settle(): Promise<void> {
  gc({ type: 'minor' });
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
}
