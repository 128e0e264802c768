/**
 * Test harness: compiles `.sycl.ts` sources through compileModule → link → emitProgram and runs
 * one kernel of the result on the WebGPU adapter (Dawn), binding and launching it the way the
 * shared conventions say. Independent of the runtime package, so front-end tests only depend
 * on the compiler.
 */
import { posix } from 'node:path';
import type { Program } from '@syclts/dsl';
import { requestAdapter } from '@syclts/runtime';
import {
  compileModule,
  type DeviceObject,
  emitProgram,
  formatDiagnostic,
  type LinkResult,
  link,
  type SpecConstantsOption,
} from '../../src/index.js';
import { type Launch, type LaunchResult, runKernel as runOn } from './gpu-run.js';

/** Compiles and links modules (root-relative path → source); throws with readable diagnostics. */
export function buildProgram(sources: Readonly<Record<string, string>>): Program {
  return emitProgram(linkSources(sources), { validateIr: true });
}

/** The link step's result for the modules (what the emitter prints and the interpreter runs). */
export function linkSources(
  sources: Readonly<Record<string, string>>,
  specConstants: SpecConstantsOption = 'native',
): LinkResult {
  const modules = new Map<string, DeviceObject>();
  const messages: string[] = [];
  for (const [module, source] of Object.entries(sources)) {
    const loadImport = (from: string, specifier: string) => {
      const path = resolve(from, specifier);
      const text = path === null ? undefined : sources[path];
      return text === undefined || path === null ? null : { module: path, source: text };
    };
    const { object, diagnostics } = compileModule(source, { module, loadImport });
    messages.push(...diagnostics.map((d) => formatDiagnostic(d, source)));
    if (object) modules.set(module, object);
  }
  if (messages.length > 0) throw new Error(messages.join('\n\n'));
  const linked = link(
    {
      modules,
      resolveImport: (from, specifier) => {
        const path = resolve(from, specifier);
        return path !== null && path in sources ? path : null;
      },
    },
    { specConstants },
  );
  if (linked.diagnostics.length > 0) {
    throw new Error(
      linked.diagnostics.map((d) => formatDiagnostic(d, sources[d.file])).join('\n\n'),
    );
  }
  return linked;
}

function resolve(from: string, specifier: string): string | null {
  return specifier.startsWith('.') ? posix.join(posix.dirname(from), specifier) : null;
}

let devicePromise: Promise<GPUDevice> | null = null;
export function gpuDevice(): Promise<GPUDevice> {
  // Sub-groups where the adapter has them, as the runtime asks for them.
  devicePromise ??= requestAdapter().then(({ adapter }) =>
    adapter.requestDevice({
      requiredFeatures: (['subgroups', 'subgroup-size-control'] as const).filter((f) =>
        adapter.features.has(f),
      ),
    }),
  );
  return devicePromise;
}

/** Runs a launch on the test adapter (see gpu-run.ts). */
export async function runKernel(program: Program, launch: Launch): Promise<LaunchResult> {
  return runOn(await gpuDevice(), program, launch);
}

export { type Launch, type LaunchResult, prng } from './gpu-run.js';
export type { Program };
