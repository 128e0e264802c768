/**
 * Adapter selection in Node, through Dawn: the `webgpu` package, an optional peer dependency
 * (132 MB of native binaries a browser app should not install), loaded on first use.
 */
import { isMainThread } from 'node:worker_threads';
import { errc, SyclError } from '../errors.js';
import {
  type AdapterRequest,
  type ChosenAdapter,
  describeAdapter,
  parseAdapterKind,
} from './adapter-request.js';
import {
  checkDawnToggles,
  checkRequiredFeatures,
  type DawnToggles,
  requireFeatures,
} from './device-features.js';
import {
  softwareAdapterFiles,
  systemVulkanLoaderPresent,
  useSoftwareAdapter,
} from './software-adapter.js';

const NO_ADAPTER_HELP = [
  'install a GPU driver with Vulkan support (on Linux: the vendor driver and libvulkan1),',
  'or add the software adapter: `npm install --save-dev @sparticuz/chromium` (SwiftShader),',
  'then run with SYCLTS_ADAPTER=software to force it.',
].join(' ');

export async function requestAdapter(request: AdapterRequest = {}): Promise<ChosenAdapter> {
  const kind = parseAdapterKind(
    request.kind ?? process.env.SYCLTS_ADAPTER,
    request.kind ? 'kind' : 'SYCLTS_ADAPTER',
  );
  const backend = request.backend ?? process.env.SYCLTS_BACKEND;
  const required = checkRequiredFeatures(request.requiredFeatures);
  const toggles = checkDawnToggles(request.dawnToggles);
  const options = { powerPreference: request.powerPreference ?? 'high-performance' } as const;
  const chosen = (adapter: GPUAdapter, description: string): ChosenAdapter => {
    requireFeatures(adapter.features, required, `the adapter ${description}`);
    return { adapter, description };
  };

  const create = await loadDawn();
  // Without a Vulkan loader on Linux, Dawn has nothing to try (and would warn): go to software.
  if (kind === 'hardware' || (kind === 'auto' && systemVulkanLoaderPresent())) {
    const adapter = await dawn(create, backend, toggles).requestAdapter(options);
    if (adapter && !(kind === 'hardware' && isSoftware(adapter))) {
      return chosen(adapter, describeAdapter(adapter));
    }
    if (kind === 'hardware') {
      throw new SyclError(
        errc.platform,
        `Queue.create: no hardware WebGPU adapter was found; ${NO_ADAPTER_HELP}`,
      );
    }
  }
  const files = softwareAdapterFiles();
  if (!files) {
    throw new SyclError(
      errc.platform,
      `Queue.create: no WebGPU adapter was found; ${NO_ADAPTER_HELP}`,
    );
  }
  useSoftwareAdapter(files);
  const adapter = await dawn(create, backend ?? 'vulkan', toggles).requestAdapter(options);
  if (!adapter) {
    const help = isMainThread ? NO_ADAPTER_HELP : workerHelp(files.icd);
    throw new SyclError(
      errc.platform,
      `Queue.create: the software adapter (SwiftShader at ${files.icd}) did not start; ${help}`,
    );
  }
  return chosen(adapter, `${describeAdapter(adapter)} [software]`);
}

/**
 * The Vulkan loader finds SwiftShader through the process's environment, which a worker thread's
 * `process.env` (a copy) does not reach unless the worker shares it.
 */
function workerHelp(icd: string): string {
  return [
    "in a worker thread the Vulkan loader reads the process's environment, which this worker's",
    'process.env does not change: create the Worker with `env: SHARE_ENV` (node:worker_threads),',
    'or create a Queue on the software adapter in the main thread first, or start Node with',
    `VK_ICD_FILENAMES=${icd}`,
  ].join(' ');
}

type Dawn = typeof import('webgpu');
type CreateGpu = Dawn['create'];

/**
 * Dawn is a native addon that no bundler can inline: its specifier is kept out of their sight, so
 * a Node bundle imports it at run time from the app's `node_modules` with no `external` setting.
 */
const DAWN_PACKAGE: string = 'webgpu';

let dawnModule: Promise<CreateGpu> | undefined;

/** Imports Dawn once and installs its WebGPU globals (`GPUBufferUsage` and the rest). */
function loadDawn(): Promise<CreateGpu> {
  dawnModule ??= (
    import(/* webpackIgnore: true */ /* @vite-ignore */ DAWN_PACKAGE) as Promise<Dawn>
  ).then(
    ({ create, globals }) => {
      Object.assign(globalThis, globals);
      return create;
    },
    (cause: unknown) => {
      dawnModule = undefined;
      if (!isModuleNotFound(cause)) throw cause;
      throw new SyclError(
        errc.platform,
        'Queue.create: WebGPU in Node needs Dawn, the `webgpu` package, which is not installed: ' +
          '`npm install webgpu` (browsers need nothing: they have navigator.gpu)',
        { cause },
      );
    },
  );
  return dawnModule;
}

function isModuleNotFound(e: unknown): boolean {
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
  // Only `webgpu` itself: a broken install (a dependency of it missing) keeps its own error.
  return notFound && typeof message === 'string' && /['"]webgpu['"]/.test(message);
}

/**
 * One Dawn instance per backend and set of toggles for the process: instances are heavy, and Dawn
 * misbehaves with many. Dawn in Node takes toggles only as the instance's flags, and applies them
 * to its adapters and their devices. Never released: an instance collected while a device made
 * through it lives crashes the process.
 */
const instances = new Map<string, GPU>();

/**
 * Dawn rounds timestamp queries down to 65,536 ns unless its `timestamp_quantization` toggle is
 * off: a browser's defence against timing attacks by a page, which a Node process does not run.
 * Off for every instance the runtime makes (unless the caller enables it), rather than in one
 * more instance for profiling queues: the toggle changes nothing but the values timestamp queries
 * give.
 */
const QUANTIZATION = 'timestamp_quantization';

function dawn(create: CreateGpu, backend: string | undefined, toggles: Required<DawnToggles>): GPU {
  const disable = toggles.enable.includes(QUANTIZATION)
    ? toggles.disable
    : [...new Set([...toggles.disable, QUANTIZATION])];
  const flags = [
    ...(backend ? [`backend=${backend}`] : []),
    ...(toggles.enable.length > 0
      ? [`enable-dawn-features=${[...toggles.enable].sort().join(',')}`]
      : []),
    `disable-dawn-features=${[...disable].sort().join(',')}`,
  ];
  const key = flags.join(' ');
  let gpu = instances.get(key);
  if (!gpu) {
    gpu = create(flags);
    instances.set(key, gpu);
  }
  return gpu;
}

function isSoftware(adapter: GPUAdapter): boolean {
  return adapter.info.architecture === 'swiftshader' || adapter.info.vendor === 'google';
}
