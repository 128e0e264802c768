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

/**
 * A second device on the same GPU, with no caches shared with the first but the driver's own
 * (a new adapter from the same Dawn instance, or the runtime's choice again).
 */
export async function secondDevice(): Promise<GPUDevice> {
  const gpu = keepAlive[0];
  const adapter = gpu
    ? await gpu.requestAdapter({ powerPreference: 'high-performance' })
    : (await requestAdapter()).adapter;
  if (!adapter) throw new Error('secondDevice: no adapter');
  return adapter.requestDevice();
}

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

/** One arming of the timer: its own query set, so that a pass begun under another arming can never write into it. */
interface Arming {
  readonly querySet: GPUQuerySet | null;
  passes: number;
  /** The label current when each dispatch of each timed pass was recorded. */
  readonly dispatches: string[][];
}

/**
 * While armed, every compute pass begun on the device writes timestamps at its start and end
 * (WebGPU's timestampWrites), so launches are timed on the GPU whoever records them. A pass
 * holding several launches (the runtime records the launches issued together into one pass)
 * counts its dispatches, and each launch is given the pass's time divided by them. Each dispatch
 * carries the timer's `label` at the time it was recorded (`collectLabelled`).
 *
 * Only passes begun while armed are timed. The runtime opens its next pass ahead of the launches
 * that will fill it (when a batch is submitted): a launch issued just after `arm` goes into the
 * pass opened before it, untimed. A caller that must time every launch arms first, lets one
 * launch of each queue close the passes opened before, and keeps the timer armed across its
 * rounds, switching `label`. Each arming has a query set of its own, never destroyed: a pass the
 * runtime opened under one arming may be submitted after it (writing into that set alone).
 * Without the timestamp-query feature (software adapters), `collect` gives host times per dispatch
 * instead: wall time from arming to completion divided by the dispatches, good enough for checks.
 */
export class PassTimer {
  readonly gpu: boolean;
  /** Recorded with each dispatch; `collectLabelled` groups the times by it. */
  label = '';
  readonly #device: GPUDevice;
  readonly #capacity = 512;
  #arming: Arming | null = null;
  #armedAt = 0;
  /**
   * The device's own createCommandEncoder, and the one that times passes: installed while armed
   * only, so that measurements of host costs pay nothing for it. Encoders made while armed keep
   * timing the passes they begin while that arming lasts.
   */
  readonly #createEncoder: GPUDevice['createCommandEncoder'];
  readonly #timedEncoder: GPUDevice['createCommandEncoder'];

  constructor(device: GPUDevice, timestamps: boolean) {
    this.gpu = timestamps;
    this.#device = device;
    this.#createEncoder = device.createCommandEncoder;
    const createEncoder = this.#createEncoder.bind(device);
    this.#timedEncoder = (descriptor) => {
      const encoder = createEncoder(descriptor);
      const begin = encoder.beginComputePass.bind(encoder);
      encoder.beginComputePass = (pass) => {
        const arming = this.#arming;
        if (!arming) return begin(pass);
        const index = arming.passes++;
        const labels: string[] = [];
        if (index < this.#capacity) arming.dispatches[index] = labels;
        const timed =
          !arming.querySet || index >= this.#capacity
            ? begin(pass)
            : begin({
                ...pass,
                timestampWrites: {
                  querySet: arming.querySet,
                  beginningOfPassWriteIndex: 2 * index,
                  endOfPassWriteIndex: 2 * index + 1,
                },
              });
        const dispatch = timed.dispatchWorkgroups.bind(timed);
        timed.dispatchWorkgroups = (x, y, z) => {
          // A pass begun under an earlier arming times nothing now.
          if (this.#arming === arming) labels.push(this.label);
          dispatch(x, y, z);
        };
        return timed;
      };
      return encoder;
    };
  }

  arm(label = ''): void {
    this.#device.createCommandEncoder = this.#timedEncoder;
    this.label = label;
    this.#arming = {
      querySet: this.gpu
        ? this.#device.createQuerySet({ type: 'timestamp', count: 2 * this.#capacity })
        : null,
      passes: 0,
      dispatches: [],
    };
    this.#armedAt = performance.now();
  }

  /** Passes begun since `arm` (at most the capacity are timed). */
  get passes(): number {
    return this.#arming?.passes ?? 0;
  }

  /** Disarms, waits for the device and returns each timed launch's duration in microseconds. */
  async collect(): Promise<number[]> {
    return (await this.#collect()).map((d) => d.us);
  }

  /** As `collect`, grouped by the label each dispatch was recorded under, in order. */
  async collectLabelled(): Promise<Map<string, number[]>> {
    const byLabel = new Map<string, number[]>();
    for (const { label, us } of await this.#collect()) {
      const list = byLabel.get(label);
      if (list) list.push(us);
      else byLabel.set(label, [us]);
    }
    return byLabel;
  }

  async #collect(): Promise<{ label: string; us: number }[]> {
    const arming = this.#arming;
    if (!arming) throw new Error('PassTimer.collect: not armed');
    this.#arming = null;
    this.#device.createCommandEncoder = this.#createEncoder;
    const passes = Math.min(arming.passes, this.#capacity);
    await this.#device.queue.onSubmittedWorkDone();
    const labels = arming.dispatches.slice(0, passes);
    if (!arming.querySet) {
      const total = labels.reduce((a, b) => a + b.length, 0);
      const each = ((performance.now() - this.#armedAt) * 1000) / Math.max(1, total);
      return labels.flat().map((label) => ({ label, us: each }));
    }
    const bytes = 16 * Math.max(1, passes);
    const resolved = this.#device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    const readable = this.#device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const encoder = this.#device.createCommandEncoder();
    if (passes > 0) encoder.resolveQuerySet(arming.querySet, 0, 2 * passes, resolved, 0);
    encoder.copyBufferToBuffer(resolved, 0, readable, 0, bytes);
    this.#device.queue.submit([encoder.finish()]);
    await readable.mapAsync(GPUMapMode.READ);
    const ticks = new BigUint64Array(readable.getMappedRange());
    const out = labels.flatMap((names, i) =>
      names.map((label) => ({
        label,
        us: Number(ticks[2 * i + 1]! - ticks[2 * i]!) / 1000 / names.length,
      })),
    );
    readable.destroy();
    resolved.destroy();
    return out;
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
