/**
 * The convolution example in the browser: the input and the filtered image on canvases, a button
 * per filter (a new value for the specialization constant), the pipelines created and the last
 * kernel time. On load every filter runs once in both modes against the CPU reference.
 */
import { Queue } from '@syclts/runtime';
import { Convolver } from './convolver.ts';
import {
  convolveOnCpu,
  FILTER_NAMES,
  FILTERS,
  type FilterName,
  type Image,
  maxDifference,
  TOLERANCE,
} from './filters.ts';
import { fromRgba8, toRgba8 } from './image.ts';

type Mode = 'native' | 'emulated';

export interface PageResult {
  readonly adapter: string;
  readonly checks: readonly { mode: Mode; filter: FilterName; maxError: number }[];
  readonly ok: boolean;
}

declare global {
  interface Window {
    /** The load-time check, for automated tests. */
    sycltsExample?: Promise<unknown>;
  }
}

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

async function loadImage(): Promise<Image> {
  const response = await fetch(new URL('../assets/input.png', import.meta.url));
  const bitmap = await createImageBitmap(await response.blob());
  const canvas = element<HTMLCanvasElement>('input');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
  return fromRgba8(bitmap.width, bitmap.height, data);
}

function show(image: Image, pixels: Float32Array): void {
  const canvas = element<HTMLCanvasElement>('output');
  canvas.width = image.width;
  canvas.height = image.height;
  const data = new ImageData(toRgba8(pixels), image.width, image.height);
  canvas.getContext('2d')!.putImageData(data, 0, 0);
}

async function main(): Promise<PageResult> {
  const image = await loadImage();
  const native = await Queue.create({ specConstants: 'native' });
  const emulated = await Queue.create({ device: native.device, specConstants: 'emulated' });
  const queues: Record<Mode, Queue> = { native, emulated };
  const convolver = new Convolver(queues.native, image);
  element('adapter').textContent = queues.native.adapterDescription;

  const checks: { mode: Mode; filter: FilterName; maxError: number }[] = [];
  for (const mode of ['native', 'emulated'] as const) {
    for (const filter of FILTER_NAMES) {
      const run = await convolver.run(queues[mode], FILTERS[filter]);
      checks.push({
        mode,
        filter,
        maxError: maxDifference(run.output, convolveOnCpu(image, FILTERS[filter])),
      });
    }
  }
  const ok = checks.every((check) => check.maxError <= TOLERANCE);
  const worst = Math.max(...checks.map((check) => check.maxError));
  const checkLine = element('check');
  checkLine.textContent = ok
    ? `all ${checks.length} runs match the CPU reference (max |gpu − cpu| = ${worst.toExponential(1)})`
    : `FAILED: max |gpu − cpu| = ${worst.toExponential(1)} > ${TOLERANCE}`;
  checkLine.className = ok ? 'ok' : 'bad';

  const modeSelect = element<HTMLSelectElement>('mode');
  const buttons = new Map<FilterName, HTMLButtonElement>();
  let current: FilterName = 'blur';
  let running = Promise.resolve();
  const apply = (filter: FilterName) => {
    current = filter;
    for (const [name, button] of buttons)
      button.setAttribute('aria-pressed', String(name === filter));
    const mode = modeSelect.value as Mode;
    running = running.then(async () => {
      const run = await convolver.run(queues[mode], FILTERS[filter]);
      show(image, run.output);
      element('output-caption').textContent = `${filter} (${mode})`;
      element('pipelines').textContent =
        `${queues.native.stats.pipelinesCreated} in all (this run: ${run.pipelinesCreated})`;
      element('time').textContent = `${run.milliseconds.toFixed(2)} ms (submit to completion)`;
    });
  };
  for (const filter of FILTER_NAMES) {
    const button = document.createElement('button');
    button.textContent = filter;
    button.addEventListener('click', () => apply(filter));
    buttons.set(filter, button);
    element('filters').append(button);
  }
  modeSelect.addEventListener('change', () => apply(current));
  apply(current);
  await running;
  return { adapter: queues.native.adapterDescription, checks, ok };
}

window.sycltsExample = main().catch((error: unknown) => {
  element('check').textContent = String(error);
  return { error: String(error) };
});
